export interface RouterScrape {
  t: number;
  families: Record<string, unknown>;
}
export interface RouterRunEndpoint {
  url: string;
  scrapes: RouterScrape[];
}
export interface RouterRun {
  endpoints: RouterRunEndpoint[];
  window: { startNs: number; endNs: number };
  sliceS: number;
  benchmarkId?: string;
}
export interface WorkerTruth {
  queries: number;
  hits: number;
  predictedSum: number;
  requests: number;
}
export function dynamoRouterRun(opts?: {
  seconds?: number;
  perSecond?: number;
  seed?: number;
  withRouter?: boolean;
  workers?: { url: string; shortfall: number }[];
}): {
  run: RouterRun;
  truth: {
    predictedSum: number;
    requests: number;
    perWorker: WorkerTruth[];
    decisions: RouterDecisionTruth[];
  };
};
export interface RouterDecisionTruth {
  tNs: number;
  worker: number;
  overlap: number;
  blocks: number;
}
export function toJsonl(run: RouterRun, keep?: (scrape: RouterScrape) => boolean): string;
