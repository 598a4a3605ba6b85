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
}

export interface MultiTurnRequest {
  i: number;
  conversation: string;
  session: number;
  turn: number;
  prompt: number;
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
): { jsonlPath: string; summaryPath: string; requests: MultiTurnRequest[]; summary: Record<string, unknown> };
