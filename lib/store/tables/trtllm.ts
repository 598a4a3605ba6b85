/** Tables owned by the trtllm analyzer (created by its migration in ../migrations). */

/**
 * One row per request of a TensorRT-LLM perf-metrics run. Times are milliseconds from the run's
 * earliest arrival (steady-clock seconds mean nothing on their own); null = not recorded.
 */
export interface TrtllmRequestsTable {
  run_id: string;
  /** 0-based position in the run, the id the drill-down routes use */
  idx: number;
  mode: "aggregated" | "disaggregated";
  request_id: string | null;
  ctx_request_id: string | null;
  disagg_request_id: string | null;
  ctx_server: string | null;
  gen_server: string | null;
  /** Worker file names (without extension) of each side */
  ctx_worker: string | null;
  gen_worker: string | null;
  arrival_ms: number | null;
  ttft_ms: number | null;
  e2e_ms: number | null;
  /** JSON object: every timestamp name → ms from the run start, or null */
  times_json: string;
  /** JSON array in canonical segment order: ms | null (not recorded) | {excludedMs} */
  segments_json: string;
  kv_total_blocks: number | null;
  kv_new_blocks: number | null;
  kv_reused_blocks: number | null;
  kv_missed_blocks: number | null;
  kv_hit_rate: number | null;
  kv_transfer_bytes: number | null;
  kv_transfer_ms: number | null;
  kv_bandwidth_gbps: number | null;
  spec_accepted_tokens: number | null;
  spec_draft_tokens: number | null;
  first_iter: number | null;
  last_iter: number | null;
  step_count: number;
  chunk_count: number;
  /** JSON array of packed step entries (lib/metrics/trtllm-steps.ts PackedStep), capped per request */
  steps_json: string;
}

/**
 * A request's own ids and the servers it went through: what the request journey finds it by and
 * shows of it.
 */
export const TRTLLM_REQUEST_ID_COLUMNS = [
  "mode",
  "request_id",
  "ctx_request_id",
  "disagg_request_id",
  "ctx_server",
  "gen_server",
] as const satisfies ReadonlyArray<keyof TrtllmRequestsTable>;

export interface TrtllmTables {
  trtllm_requests: TrtllmRequestsTable;
}
