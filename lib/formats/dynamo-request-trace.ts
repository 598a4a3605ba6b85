/**
 * Dynamo request traces (docs/formats.md §Dynamo request traces): `dynamo.request.trace.v1`
 * JSONL, one record a line, written by Dynamo's frontend when `DYN_REQUEST_TRACE=1` (plain or
 * `.jsonl.gz`; the upload is decompressed before it reaches this reader). The row shape follows
 * Dynamo's `RequestTraceRecord` (ai-dynamo/dynamo `lib/llm/src/request_trace/types.rs`):
 * `{schema, event_type, event_time_unix_ms, event_source?, agent_context?, request?, tool?, payload?}`.
 * Only `request_end` and `tool_end` rows are read; `tool_start`, `tool_error` and
 * `request_payload` rows are counted and passed over.
 */
import type { Readable } from "node:stream";
import { eachRecordLine, type WarningLog } from "./json-lines";

export const DYNAMO_TRACE_SCHEMA = "dynamo.request.trace.v1";

/** One `request_end` row. Every value the row did not carry is null. */
export interface DynamoTraceRequest {
  lineNo: number;
  requestId: string;
  /** The client's `x-request-id` header, which aiperf also writes as its records' `x_request_id` */
  xRequestId: string | null;
  model: string | null;
  sessionId: string | null;
  parentSessionId: string | null;
  eventTimeMs: number;
  receivedMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  /** Fraction 0..1 of the prompt's KV blocks the router found cached (Dynamo's own value) */
  kvHitRate: number | null;
  ttftMs: number | null;
  totalTimeMs: number | null;
  avgItlMs: number | null;
  finishReason: string | null;
}

/** One `tool_end` row (harness-sourced; it names a session, not a request). */
export interface DynamoTraceTool {
  lineNo: number;
  sessionId: string | null;
  parentSessionId: string | null;
  toolCallId: string;
  toolClass: string | null;
  status: string | null;
  startedMs: number | null;
  endedMs: number | null;
  /** Dynamo's `duration_ms`, else ended − started, else null */
  durationMs: number | null;
}

export interface DynamoTrace {
  requests: DynamoTraceRequest[];
  tools: DynamoTraceTool[];
  /** Rows of the schema whose event_type this reader passes over, by event_type */
  otherEvents: Record<string, number>;
}

type Row =
  | { kind: "request"; r: DynamoTraceRequest }
  | { kind: "tool"; t: DynamoTraceTool }
  | { kind: "other"; event: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

function num(v: unknown, name: string, bad: (m: string) => void): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
  bad(`${name} is not a non-negative number; read as missing`);
  return null;
}

/** A line → its row, or the reason it is skipped. */
export function parseDynamoTraceLine(value: unknown, bad: (m: string) => void): Row | string {
  if (!isObject(value)) return "not a JSON object";
  if (value.schema !== DYNAMO_TRACE_SCHEMA) return `schema is not ${DYNAMO_TRACE_SCHEMA}`;
  const event = typeof value.event_type === "string" ? value.event_type : null;
  if (!event) return "no event_type";
  const time = value.event_time_unix_ms;
  const ctx = isObject(value.agent_context) ? value.agent_context : null;
  // Newer Dynamo names the session a trajectory (docs/agents/trajectory-ids.md): the same field.
  const sessionId = str(ctx?.session_id) ?? str(ctx?.trajectory_id);
  const parentSessionId = str(ctx?.parent_session_id) ?? str(ctx?.parent_trajectory_id);
  if (event === "request_end") {
    const q = value.request;
    if (!isObject(q)) return "request_end without a request object";
    const requestId = str(q.request_id);
    if (!requestId) return "request_end without request.request_id";
    if (typeof time !== "number" || !Number.isFinite(time)) return "no event_time_unix_ms";
    let kv = num(q.kv_hit_rate, "kv_hit_rate", bad);
    if (kv !== null && kv > 1) {
      bad("kv_hit_rate above 1; read as missing");
      kv = null;
    }
    const finish = isObject(q.finish_reason_metadata) ? str(q.finish_reason_metadata.finish_reason) : null;
    return {
      kind: "request",
      r: {
        lineNo: 0,
        requestId,
        xRequestId: str(q.x_request_id),
        model: str(q.model),
        sessionId,
        parentSessionId,
        eventTimeMs: time,
        receivedMs: num(q.request_received_ms, "request_received_ms", bad),
        inputTokens: num(q.input_tokens, "input_tokens", bad),
        outputTokens: num(q.output_tokens, "output_tokens", bad),
        cachedTokens: num(q.cached_tokens, "cached_tokens", bad),
        kvHitRate: kv,
        ttftMs: num(q.ttft_ms, "ttft_ms", bad),
        totalTimeMs: num(q.total_time_ms, "total_time_ms", bad),
        avgItlMs: num(q.avg_itl_ms, "avg_itl_ms", bad),
        finishReason: finish,
      },
    };
  }
  if (event === "tool_end") {
    const t = value.tool;
    if (!isObject(t)) return "tool_end without a tool object";
    const toolCallId = str(t.tool_call_id);
    if (!toolCallId) return "tool_end without tool.tool_call_id";
    const startedMs = num(t.started_at_unix_ms, "tool.started_at_unix_ms", bad);
    const endedMs = num(t.ended_at_unix_ms, "tool.ended_at_unix_ms", bad);
    const own = num(t.duration_ms, "tool.duration_ms", bad);
    const durationMs =
      own ?? (startedMs !== null && endedMs !== null && endedMs >= startedMs ? endedMs - startedMs : null);
    return {
      kind: "tool",
      t: {
        lineNo: 0,
        sessionId,
        parentSessionId,
        toolCallId,
        toolClass: str(t.tool_class),
        status: str(t.status),
        startedMs,
        endedMs,
        durationMs,
      },
    };
  }
  return { kind: "other", event };
}

/**
 * Reads a whole trace. Lines that are not JSON, not of the schema, or lack what their event
 * needs are skipped and logged with their line numbers (docs/formats.md §Malformed input).
 */
export async function readDynamoTrace(
  source: Readable | AsyncIterable<Buffer>,
  maxLineBytes: number,
): Promise<{ trace: DynamoTrace; warnings: WarningLog; skipped: number }> {
  const trace: DynamoTrace = { requests: [], tools: [], otherEvents: {} };
  const { warnings, skipped } = await eachRecordLine<Row>(
    source,
    { maxLineBytes },
    (value, _text, bad) => parseDynamoTraceLine(value, bad),
    (row, lineNo) => {
      if (row.kind === "request") trace.requests.push({ ...row.r, lineNo });
      else if (row.kind === "tool") trace.tools.push({ ...row.t, lineNo });
      else trace.otherEvents[row.event] = (trace.otherEvents[row.event] ?? 0) + 1;
    },
  );
  return { trace, warnings, skipped };
}
