export interface RequestSpec {
  ttftMs: number;
  e2eMs: number;
  /** Generation steps: the request has 1 + steps (+ accepted draft tokens) output tokens */
  steps: number;
  acceptedDraftTokens?: number;
}

export declare function writeLatencyRun(opts: {
  dir: string;
  mode: "aggregated" | "disaggregated";
  requests: RequestSpec[];
  baseS?: number;
}): string;
