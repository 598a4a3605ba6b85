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
}

export interface AiperfTables {
  aiperf_requests: AiperfRequestsTable;
}
