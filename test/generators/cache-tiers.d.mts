export declare function vllmScrape(o: {
  prompt: number;
  gpuHits: number;
  connectorHits: number;
  bySourceWritten?: boolean;
  bySourceZero?: boolean;
  lmcache?: { requested: number; hit: number };
}): string;
export declare function sglangScrape(o: {
  prompt: number;
  device: number;
  host: number;
  storage: number;
}): string;
export declare function trtllmScrape(o: { prompt: number; gpu: number; host: number; disk: number }): string;
