export interface RecordBuilderRun {
  files: string[];
  /** Worker file name (without .json) → the server whose /perf_metrics it holds */
  serverOfFile: Record<string, string>;
  truth: Array<{ ctxServer: string; genServer: string; ctxId: number; genId: number }>;
}
export declare function generateRecordBuilderRun(opts: {
  dir: string;
  requests: number;
  ctxServers?: number;
  genServers?: number;
  seed?: number;
}): RecordBuilderRun;
