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

/**
 * TensorRT-LLM's time events in pieces keyed by the ids they join on (migration 022): one row per
 * request (role and id) and file, its events as JSON. A journey reads the rows of its request's
 * ids through the indexes, never the run's whole list. Only runs stored before the run's
 * time-events Parquet file (lib/store/columnar/trtllm-time-events-file.ts), whose columns are
 * these without `run_id`, have rows here.
 */
export interface TrtllmTimeEventsTable {
  run_id: string;
  role: "ctx" | "gen" | "router" | "request";
  /** The request across the run's files: a worker's request_id, a router's `file:request_id` */
  req_key: string;
  /** The row's place in the run (files in ingest order, then the order pieces were finished) */
  seq: number;
  request_id: string;
  ctx_request_id: string | null;
  disagg_request_id: string | null;
  /** Index of the file among the run's time-events files */
  file_no: number;
  /** JSON array of {event, t}: t steady-clock seconds as written */
  events_json: string;
}

/** A stored row's columns apart from its run: what a read of one run's rows selects. */
export const TRTLLM_TIME_EVENT_ROW_COLUMNS = [
  "role",
  "req_key",
  "seq",
  "request_id",
  "ctx_request_id",
  "disagg_request_id",
  "file_no",
  "events_json",
] as const satisfies ReadonlyArray<keyof TrtllmTimeEventsTable>;

export const TRTLLM_TIME_EVENT_COLUMNS = [
  "run_id",
  ...TRTLLM_TIME_EVENT_ROW_COLUMNS,
] as const satisfies ReadonlyArray<keyof TrtllmTimeEventsTable>;

export interface TrtllmTables {
  trtllm_requests: TrtllmRequestsTable;
  trtllm_time_events: TrtllmTimeEventsTable;
}
