import type { AiperfRecord } from "@/lib/formats/aiperf-records";
import type { AiperfRequestsTable } from "@/lib/store/tables/aiperf";

/** What one aiperf-shaped request stores, whichever reader produced it (records, imported tools). */
export interface AiperfRowFields {
  requestId: string | null;
  warmup: boolean;
  failed: boolean;
  errorType: string | null;
  cancelled: boolean;
  /** From the run's request log (its start and end in ms); NaN when not recorded */
  startMs: number;
  endMs: number;
  ttftMs: number | null;
  e2eMs: number | null;
  itlMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  conversationId?: string | null;
  turnIndex?: number | null;
  cachedTokens?: number | null;
  possibleReuseTokens?: number | null;
  workerId?: string | null;
}

/** Integer columns take whole token counts only: a fractional count from a broken writer reads as absent. */
export const integerOrNull = (v: number | null | undefined): number | null =>
  v !== null && v !== undefined && Number.isInteger(v) && Math.abs(v) <= 0x7fffffff ? v : null;

/** The `aiperf_requests` row of line `line` of file `fileId` of run `runId`. */
export function aiperfRequestRow(
  runId: string,
  fileId: string,
  line: number,
  r: AiperfRowFields,
): AiperfRequestsTable {
  return {
    run_id: runId,
    file_id: fileId,
    line,
    request_id: r.requestId,
    phase: r.warmup ? "warmup" : "profiling",
    ok: r.failed ? 0 : 1,
    cancelled: r.cancelled ? 1 : 0,
    error_type: r.errorType,
    start_ms: Number.isFinite(r.startMs) ? r.startMs : null,
    end_ms: Number.isFinite(r.endMs) ? r.endMs : null,
    ttft_ms: r.ttftMs,
    e2e_ms: r.e2eMs,
    itl_ms: r.itlMs,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    conversation_id: r.conversationId ?? null,
    turn_index: r.turnIndex ?? null,
    cached_tokens: integerOrNull(r.cachedTokens),
    possible_reuse_tokens: integerOrNull(r.possibleReuseTokens),
    worker_id: r.workerId ?? null,
  };
}

/**
 * The row of a parsed record, its start and end (ms) from the run's request log and the reuse
 * ceiling its conversation gives it (null when not known).
 */
export function aiperfRecordRow(
  runId: string,
  fileId: string,
  line: number,
  r: AiperfRecord,
  startMs: number,
  endMs: number,
  possibleReuseTokens: number | null = null,
): AiperfRequestsTable {
  return aiperfRequestRow(runId, fileId, line, {
    requestId: r.requestId,
    warmup: r.phase === "warmup",
    failed: Boolean(r.error),
    errorType: r.error?.type ?? null,
    cancelled: Boolean(r.cancelled),
    startMs,
    endMs,
    ttftMs: r.ttftMs,
    e2eMs: r.e2eMs,
    itlMs: r.itlMs,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    conversationId: r.conversationId,
    turnIndex: r.turnIndex,
    cachedTokens: r.cachedTokens,
    possibleReuseTokens,
    workerId: r.workerId,
  });
}
