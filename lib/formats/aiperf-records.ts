/**
 * One line of aiperf `profile_export.jsonl` (docs/formats.md §aiperf records), in all three generations:
 * explicit nulls (pre-0.4) or omitted optionals (exclude_none), `{value, unit}` or bare numbers.
 */

export interface AiperfErrorInfo {
  type: string;
  code: number | null;
  message: string;
}

export interface AiperfRecord {
  requestId: string | null;
  phase: "profiling" | "warmup";
  cancelled: boolean;
  /** Exact wall-clock nanoseconds; null when the record has none */
  startNs: bigint | null;
  endNs: bigint | null;
  ttftMs: number | null;
  e2eMs: number | null;
  itlMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  error: AiperfErrorInfo | null;
  /**
   * The conversation the request belongs to: aiperf's `conversation_id` (the join key into
   * inputs.json), else `x_correlation_id` (shared by one session's turns); null when neither.
   * Optional: imported tools (vLLM, SGLang, genai-perf, GuideLLM) write no conversations.
   */
  conversationId?: string | null;
  /** aiperf's `turn_index`, 0 for a conversation's first turn; null when not written */
  turnIndex?: number | null;
  /**
   * Prompt tokens the server said it served from cache: aiperf's `usage_prompt_cache_read_tokens`
   * (OpenAI `usage.prompt_tokens_details.cached_tokens`); null when the response had no usage.
   */
  cachedTokens?: number | null;
  /** The aiperf worker that sent it (`metadata.worker_id`); absent or null when the file names none */
  workerId?: string | null;
  /**
   * The agent session (aiperf `x_correlation_id`, else `conversation_id`), the session that
   * spawned it (`parent_correlation_id`, written by a sub-agent fork, omitted for a root) and
   * `agent_depth` (0 for a root; aiperf 0.8 on). Absent or null when not written.
   */
  sessionId?: string | null;
  parentSessionId?: string | null;
  agentDepth?: number | null;
  /**
   * Client-side queue wait in ms, aiperf's `credit_to_start_latency` of this record
   * (`request_start_ns − credit_issued_ns`, docs/metrics.md §Comparable runs); absent or null
   * when the record has no `credit_issued_ns`.
   */
  queueWaitMs?: number | null;
  /**
   * Whether the record states both `request_start_ns` and `request_end_ns` itself (aiperf 0.2
   * on), not a start read from 0.1's `timestamp_ns` and an end of start + latency: the stamps
   * aiperf's effective concurrency is computed from (docs/metrics.md §Comparable runs).
   */
  spanStamped?: boolean;
}

// Read by plain JavaScript shared with the aiperf parse thread, which loads no TypeScript.
export {
  derivedItlMs,
  NEGATIVE_TOKENS,
  nsFromText,
  parseAiperfRecord,
  queueWaitMs,
  tokenCount,
} from "./aiperf-record-read.mjs";
