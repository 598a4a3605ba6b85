/** Tables owned by the aiperf analyzer (created by its migration in ../migrations). */

/**
 * One row per aiperf record (profile_export.jsonl line). Times are milliseconds from the run's
 * first request; `request_id` keeps aiperf's x_request_id string untouched.
 */
export interface AiperfRequestsTable {
  run_id: string;
  file_id: string;
  /** Line number in its file */
  line: number;
  request_id: string | null;
  phase: "profiling" | "warmup";
  ok: number;
  cancelled: number;
  error_type: string | null;
  start_ms: number | null;
  end_ms: number | null;
  ttft_ms: number | null;
  e2e_ms: number | null;
  itl_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  /**
   * aiperf's `conversation_id` and `turn_index` (migration 008); absent or null when the record
   * has none (single-turn runs, imported tools).
   */
  conversation_id?: string | null;
  turn_index?: number | null;
  /** Prompt tokens the server reported served from cache (`usage_prompt_cache_read_tokens`) */
  cached_tokens?: number | null;
  /** Prompt tokens the previous turn of the conversation made reusable (docs/metrics.md §Turns) */
  possible_reuse_tokens?: number | null;
  /**
   * The same ceiling estimated from inputs.json (migration 016), set once every file is read;
   * null when the upload has no inputs.json or it does not hold the request's turn.
   */
  inputs_reuse_tokens?: number | null;
  /** The aiperf worker that sent the request (`metadata.worker_id`); null when the record names none */
  worker_id: string | null;
}

/** A request's times and token counts: what a request list shows of it beside its ids. */
export const AIPERF_REQUEST_MEASURES = [
  "start_ms",
  "end_ms",
  "ttft_ms",
  "e2e_ms",
  "itl_ms",
  "input_tokens",
  "output_tokens",
] as const satisfies ReadonlyArray<keyof AiperfRequestsTable>;

/** Every column of a row, in one fixed order: the inserter binds values without rediscovering them. */
export const AIPERF_REQUEST_COLUMNS = [
  "run_id",
  "file_id",
  "line",
  "request_id",
  "phase",
  "ok",
  "cancelled",
  "error_type",
  ...AIPERF_REQUEST_MEASURES,
  "conversation_id",
  "turn_index",
  "cached_tokens",
  "possible_reuse_tokens",
  "worker_id",
] as const satisfies ReadonlyArray<keyof AiperfRequestsTable>;

/**
 * One turn of a conversation as inputs.json gives it (migration 016), for the conversations the
 * records hold: its possible reuse is `isl_scale × ISL + token_offset`, clamped to [0, ISL], with
 * ISL the request's prompt length (docs/metrics.md §Turns, "From inputs.json").
 */
export interface AiperfInputsTurnsTable {
  run_id: string;
  conversation_id: string;
  turn_index: number;
  isl_scale: number;
  token_offset: number;
  /** 1 when the payload had image, audio or video parts, which the estimate does not count */
  non_text: number;
}

export const AIPERF_INPUTS_TURN_COLUMNS = [
  "run_id",
  "conversation_id",
  "turn_index",
  "isl_scale",
  "token_offset",
  "non_text",
] as const satisfies ReadonlyArray<keyof AiperfInputsTurnsTable>;

export interface AiperfTables {
  aiperf_requests: AiperfRequestsTable;
  aiperf_inputs_turns: AiperfInputsTurnsTable;
}
