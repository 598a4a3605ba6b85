export interface MultiTurnOptions {
  conversations?: number;
  maxTurns?: number;
  minTurns?: number;
  concurrency?: number;
  seed?: number;
  /** Probability a later turn's history was evicted (nothing served from cache) */
  evict?: number;
  /** false: responses carry no usage, so no cached prompt tokens */
  cached?: boolean;
  errorEvery?: number;
  cancelEvery?: number;
  /** Turn count of each conversation, by index */
  turns?: number[];
  firstPrompt?: number;
  userTokens?: number;
  answerTokens?: number;
  /** Write aiperf's theoretical_prefix_cache_hit (block-level, percent) in the summary */
  theoretical?: boolean;
  /** Probability an evicted history is found in the CPU tier (served as external_kv_transfer) */
  externalHit?: number;
  /** Write inputs.json: payloads of the new message only ("delta") or carrying the history */
  inputs?: "delta" | "history";
  /** Write the engine's server_metrics_export.json with intervals of `sliceS` seconds */
  serverMetrics?: {
    sliceS?: number;
    scrapeMs?: number;
    /** Engines scraped apart, each prefilling the requests of aiperf workers `worker % engines` */
    engines?: number;
  };
}

export interface MultiTurnRequest {
  i: number;
  conversation: string;
  session: number;
  turn: number;
  /** The turn's new user message, in tokens */
  user: number;
  prompt: number;
  /** Prompt tokens served from GPU cache, and from the CPU tier; null when failed or cancelled */
  gpuCached: number | null;
  externalCached: number | null;
  /** What the inputs.json estimate gives for this request (set when `inputs` is asked for) */
  inputsPossible?: number;
  /** null for a failed or cancelled request */
  answer: number | null;
  cached: number | null;
  /** Prompt tokens the previous turn held (its prompt and answer), capped at this prompt */
  history: number;
  failed: boolean;
  cancelled: boolean;
  ttft: number;
  itl: number;
  e2e: number;
  startMs: number;
  endMs: number;
  worker: number;
}

export declare function generateMultiTurnRun(
  outDir: string,
  opts?: MultiTurnOptions,
): {
  jsonlPath: string;
  summaryPath: string;
  inputsPath: string | null;
  serverMetricsPath: string | null;
  requests: MultiTurnRequest[];
  summary: Record<string, unknown>;
};

/** The small case the tests compute by hand (2 conversations of 3 and 2 turns, nothing evicted). */
export declare const HAND_CASE: Readonly<
  Required<
    Pick<
      MultiTurnOptions,
      "conversations" | "turns" | "firstPrompt" | "userTokens" | "answerTokens" | "evict"
    >
  >
>;

/** Epoch ns of the run's start: a request's start is BASE_NS + startMs × 1e6. */
export declare const BASE_NS: bigint;
