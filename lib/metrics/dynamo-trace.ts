/**
 * What a Dynamo request trace says about its run (docs/metrics.md §Dynamo request traces):
 * request count, TTFT and E2E statistics from the trace's own `ttft_ms` and `total_time_ms`,
 * token totals, the KV hit rate weighted by request and by prompt token, sessions and turns
 * from `agent_context`, and tool time against model time per session.
 */
import type { RequestsBlock } from "@/lib/api/schemas";
import type { DynamoTrace, DynamoTraceRequest } from "@/lib/formats/dynamo-request-trace";
import { computeStats, sumKnown } from "./stats";

export interface DynamoTraceSession {
  sessionId: string;
  parentSessionId: string | null;
  turns: number;
  /** Σ total_time_ms of the session's requests that carry it; null when none does */
  modelTimeMs: number | null;
  /** Σ duration of the session's tool_end rows; null when it has none */
  toolTimeMs: number | null;
  toolCalls: number;
}

export interface DynamoTraceFigures {
  requests: number;
  /** Σ over the requests that carry the count; null when none does */
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  /** Mean of the requests' kv_hit_rate (each request counts once) */
  kvHitRateRequestWeighted: number | null;
  /** Σ kv_hit_rate × input_tokens ÷ Σ input_tokens over requests carrying both */
  kvHitRateTokenWeighted: number | null;
  /** Σ cached_tokens ÷ Σ input_tokens over requests carrying both */
  cachedTokenShare: number | null;
  /** Distinct agent_context.session_id over request_end and tool_end rows */
  sessions: number;
  /** Sessions with no parent_session_id */
  rootSessions: number;
  /** request_end rows that carry an agent_context (one model turn each) */
  turns: number;
  toolCalls: number;
  toolTimeMs: number | null;
  modelTimeMs: number | null;
  perSession: DynamoTraceSession[];
}

const sumOf = (rows: DynamoTraceRequest[], pick: (r: DynamoTraceRequest) => number | null) =>
  sumKnown(rows.map(pick));

export function dynamoTraceFigures(trace: DynamoTrace): DynamoTraceFigures {
  const rows = trace.requests;
  const rates = rows.filter((r) => r.kvHitRate !== null);
  const weighted = rows.filter((r) => r.kvHitRate !== null && r.inputTokens !== null);
  const weightTokens = weighted.reduce((a, r) => a + r.inputTokens!, 0);
  const cachedRows = rows.filter((r) => r.cachedTokens !== null && r.inputTokens !== null);
  const cachedInput = cachedRows.reduce((a, r) => a + r.inputTokens!, 0);

  const sessions = new Map<string, DynamoTraceSession>();
  const session = (id: string, parent: string | null) => {
    let s = sessions.get(id);
    if (!s) {
      s = {
        sessionId: id,
        parentSessionId: parent,
        turns: 0,
        modelTimeMs: null,
        toolTimeMs: null,
        toolCalls: 0,
      };
      sessions.set(id, s);
    }
    if (s.parentSessionId === null && parent !== null) s.parentSessionId = parent;
    return s;
  };
  for (const r of rows) {
    if (r.sessionId === null) continue;
    const s = session(r.sessionId, r.parentSessionId);
    s.turns++;
    if (r.totalTimeMs !== null) s.modelTimeMs = (s.modelTimeMs ?? 0) + r.totalTimeMs;
  }
  for (const t of trace.tools) {
    if (t.sessionId === null) continue;
    const s = session(t.sessionId, t.parentSessionId);
    s.toolCalls++;
    if (t.durationMs !== null) s.toolTimeMs = (s.toolTimeMs ?? 0) + t.durationMs;
  }
  const perSession = [...sessions.values()];
  const withTools = perSession.filter((s) => s.toolCalls > 0);
  const toolTimeMs = withTools.some((s) => s.toolTimeMs !== null)
    ? withTools.reduce((a, s) => a + (s.toolTimeMs ?? 0), 0)
    : null;
  // Model time is set beside tool time only over the sessions that ran tools.
  const modelTimeMs = withTools.some((s) => s.modelTimeMs !== null)
    ? withTools.reduce((a, s) => a + (s.modelTimeMs ?? 0), 0)
    : null;

  return {
    requests: rows.length,
    inputTokens: sumOf(rows, (r) => r.inputTokens),
    outputTokens: sumOf(rows, (r) => r.outputTokens),
    cachedTokens: sumOf(rows, (r) => r.cachedTokens),
    kvHitRateRequestWeighted:
      rates.length > 0 ? rates.reduce((a, r) => a + r.kvHitRate!, 0) / rates.length : null,
    kvHitRateTokenWeighted:
      weightTokens > 0
        ? weighted.reduce((a, r) => a + r.kvHitRate! * r.inputTokens!, 0) / weightTokens
        : null,
    cachedTokenShare:
      cachedInput > 0 ? cachedRows.reduce((a, r) => a + r.cachedTokens!, 0) / cachedInput : null,
    sessions: sessions.size,
    rootSessions: perSession.filter((s) => s.parentSessionId === null).length,
    turns: rows.filter((r) => r.sessionId !== null).length,
    toolCalls: trace.tools.length,
    toolTimeMs,
    modelTimeMs,
    perSession,
  };
}

const values = (rows: DynamoTraceRequest[], pick: (r: DynamoTraceRequest) => number | null) =>
  Float64Array.from(rows.map((r) => pick(r) ?? Number.NaN));

/**
 * The run's requests block when the trace is the run: every request_end row counts (Dynamo
 * writes one per finished request and marks none as failed), duration from the first
 * request_received_ms to the last event_time_unix_ms.
 */
export function dynamoTraceRequestsBlock(trace: DynamoTrace): RequestsBlock {
  const rows = trace.requests;
  let first: number | null = null;
  let last: number | null = null;
  for (const r of rows) {
    if (r.receivedMs !== null && (first === null || r.receivedMs < first)) first = r.receivedMs;
    if (last === null || r.eventTimeMs > last) last = r.eventTimeMs;
  }
  const durationS = first !== null && last !== null && last > first ? (last - first) / 1000 : null;
  const outputTotal = sumOf(rows, (r) => r.outputTokens);
  return {
    source: "dynamo-request-trace",
    count: rows.length,
    errorCount: 0,
    warmupCount: null,
    durationS,
    ttftMs: computeStats(values(rows, (r) => r.ttftMs)),
    e2eMs: computeStats(values(rows, (r) => r.totalTimeMs)),
    itlMs: null,
    inputTokens: computeStats(values(rows, (r) => r.inputTokens)),
    outputTokens: computeStats(values(rows, (r) => r.outputTokens)),
    requestThroughputPerS: durationS ? rows.length / durationS : null,
    outputTokenThroughputPerS: durationS && outputTotal !== null ? outputTotal / durationS : null,
    outputTokensTotal: outputTotal,
  };
}

/** How a trace's requests join another file's records by request id. */
export interface DynamoTraceJoin {
  joined: number;
  /** Trace requests that carry no x_request_id */
  traceWithoutId: number;
  /** Trace requests whose x_request_id no record has */
  traceUnmatched: number;
  /** Records (with an id) that no trace request names */
  recordsUnmatched: number;
  /** Records that carry no id */
  recordsWithoutId: number;
}

export function joinByRequestId(trace: DynamoTrace, recordIds: Array<string | null>): DynamoTraceJoin {
  const ids = new Set<string>();
  let recordsWithoutId = 0;
  for (const id of recordIds) {
    if (id === null || id === "") recordsWithoutId++;
    else ids.add(id);
  }
  const seen = new Set<string>();
  let joined = 0;
  let traceWithoutId = 0;
  let traceUnmatched = 0;
  for (const r of trace.requests) {
    if (r.xRequestId === null) traceWithoutId++;
    else if (ids.has(r.xRequestId)) {
      joined++;
      seen.add(r.xRequestId);
    } else traceUnmatched++;
  }
  return { joined, traceWithoutId, traceUnmatched, recordsUnmatched: ids.size - seen.size, recordsWithoutId };
}
