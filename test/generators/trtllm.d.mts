export declare const DISAGG_SEGMENTS: readonly string[];
export declare const AGG_SEGMENTS: readonly string[];

export interface GenerateOptions {
  /** Output folder (created) */
  dir: string;
  mode?: "aggregated" | "disaggregated";
  requests?: number;
  seed?: number;
  /** Lognormal spread of every segment around its median */
  sigma?: number;
  mediansMs?: Partial<Record<string, number>>;
  ctxWorkers?: number;
  genWorkers?: number;
  stepsPerRequest?: number;
  /** "ctx_request_id" leaves disagg_request_id out everywhere (pre-refactor joins) */
  joinBy?: "disagg_request_id" | "ctx_request_id";
  /** Fraction of disaggregated requests whose ctx server_first_token_time is null */
  dropServerFirstTokenRate?: number;
  /** Fraction of disaggregated requests whose gen record has no KV-transfer stamps (nor size) */
  noTransferStampsRate?: number;
  arrivalRatePerS?: number;
  /** Each ctx and gen server numbers its requests from the same start, so ids collide across servers */
  idsPerServer?: boolean;
  /** false: the disagg record's copies lack server_* and KV-transfer stamps (worker files carry them) */
  copyServerStamps?: boolean;
  baseS?: number;
}

export interface GeneratedRun {
  mode: "aggregated" | "disaggregated";
  files: string[];
  requests: number;
  truth: {
    /** Per segment name, ms per request in request order; null = not recorded */
    segments: Record<string, Array<number | null>>;
    /** Block-weighted over prefill-side records */
    kvHitRate: number;
    perWorker: Record<string, { reused: number; missed: number; requests: number }>;
    transferBytes: number[];
    bandwidthGBps: number[];
    clockOffsetsS: Record<string, number>;
    stepForwardMs: number[];
  };
}

export declare function generateTrtllmRun(opts: GenerateOptions): GeneratedRun;

export declare function perfMetricsPollLines(records: readonly object[], polls: readonly number[]): string;
export declare function bareRequestPerfMetricsLines(records: ReadonlyArray<{ perf_metrics: object }>): string;
export declare function readRecords(file: string): Array<Record<string, unknown> & { perf_metrics: object }>;
