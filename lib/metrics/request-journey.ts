/**
 * One request from client to engine on one time axis, and the client↔server gap over a run
 * (docs/metrics.md §Client to engine). The client's view is aiperf's record (send, first token,
 * end); the server's is Dynamo's spans (the `http-request` root: received, `ttft_ms`, end), else
 * its request trace (`request_received_ms`, `ttft_ms`, `total_time_ms`). They join on the
 * client's `x-request-id`, which aiperf writes as `x_request_id` and Dynamo records under the
 * same name. A TensorRT-LLM per-request perf-metrics record joins where one of its own ids
 * (`disagg_request_id`, `request_id`, `ctx_request_id`) equals that id; its engine segments are
 * then drawn under the client's lane.
 */
import type {
  DynamoSpanRootsPayload,
  DynamoSpansPayload,
  DynamoTraceRequestsPayload,
  JourneyLane,
  JourneySummary,
  RequestJourney,
} from "@/lib/api/request-journey";
import type { OtlpRequest } from "@/lib/formats/dynamo-otlp";
import { spanRole } from "@/lib/formats/dynamo-otlp";
import type { JoinedRequest } from "./trtllm-join";
import { requestSegments, requestStart, segmentsFor, segmentStart } from "./time-breakdown";
import { requestLatency, type RequestLatency } from "./trtllm-latency";
import { idFieldWords } from "./trtllm-request-name";
import { computeStatsInSteps } from "./stats";
import { atOnce, type Steps } from "./steps";

export type SpansRequest = DynamoSpansPayload["requests"][number];
export type SpanRoot = DynamoSpanRootsPayload["requests"][number];
export type TraceRequest = DynamoTraceRequestsPayload["requests"][number];

/** The client's view of one request: aiperf's x_request_id, send time (epoch ms), TTFT and E2E. */
export interface ClientRequest {
  xRequestId: string | null;
  sendEpochMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
}

/** The server's view of one request: when it was received, its TTFT and its total time. */
export interface ServerView {
  source: "spans" | "trace" | "trtllm";
  receivedMs: number | null;
  ttftMs: number | null;
  totalMs: number | null;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const numeric = (v: unknown): number | null =>
  typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : num(v);

/** Requests' spans as stored: parent by index, role, Dynamo's ttft_ms and worker id where a span carries them. */
export function spansPayloadOf(requests: OtlpRequest[]): DynamoSpansPayload["requests"] {
  return requests.map((r) => {
    const index = new Map(r.spans.map((s, i) => [s.spanId, i]));
    return {
      traceId: r.traceId,
      xRequestId: r.xRequestId,
      requestId: r.requestId,
      spans: r.spans.map((s) => {
        const worker = s.attributes.worker_id ?? s.attributes.instance_id;
        return {
          name: s.name,
          role: spanRole(s),
          service: s.service,
          startMs: s.startMs,
          endMs: s.endMs,
          parent: s.parentSpanId !== null ? (index.get(s.parentSpanId) ?? null) : null,
          // Dynamo records ttft_ms as a string with two decimals on engine.generate, a number elsewhere.
          ttftMs: numeric(s.attributes.ttft_ms),
          workerId: worker === undefined ? null : String(worker),
        };
      }),
    };
  });
}

/** The request's root span: Dynamo's `http-request`, else the earliest span without a parent. */
export function rootSpan(r: SpansRequest): SpansRequest["spans"][number] | null {
  return (
    r.spans.find((s) => s.name === "http-request") ??
    r.spans.filter((s) => s.parent === null).sort((a, b) => a.startMs - b.startMs)[0] ??
    null
  );
}

/**
 * Each traced request's root span, the first request of each x_request_id (as the summary joins
 * them): the requests of the stored `DYNAMO_SPAN_ROOTS_CHART` payload.
 */
export function spanRootsOf(requests: SpansRequest[]): SpanRoot[] {
  const seen = new Set<string>();
  const roots: SpanRoot[] = [];
  for (const r of requests) {
    if (r.xRequestId === null || seen.has(r.xRequestId)) continue;
    seen.add(r.xRequestId);
    const root = rootSpan(r);
    if (root)
      roots.push({ xRequestId: r.xRequestId, startMs: root.startMs, endMs: root.endMs, ttftMs: root.ttftMs });
  }
  return roots;
}

/** The server's view from the spans (preferred: they carry the root's own span), else from the trace row. */
export function serverView(spans: SpansRequest | null, trace: TraceRequest | null): ServerView | null {
  return serverViewOfRoot(spans ? rootSpan(spans) : null, trace);
}

/** serverView from the request's root span alone (`rootSpan`, or as stored: `DYNAMO_SPAN_ROOTS_CHART`). */
export function serverViewOfRoot(
  root: Pick<SpanRoot, "startMs" | "endMs" | "ttftMs"> | null,
  trace: TraceRequest | null,
): ServerView | null {
  if (root)
    return {
      source: "spans",
      receivedMs: root.startMs,
      ttftMs: root.ttftMs ?? trace?.ttftMs ?? null,
      totalMs: root.endMs - root.startMs,
    };
  if (trace)
    return { source: "trace", receivedMs: trace.receivedMs, ttftMs: trace.ttftMs, totalMs: trace.totalMs };
  return null;
}

export interface Gaps {
  sendMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
}

/**
 * The client↔server gap of one request: send (server received − client sent, across two clocks),
 * TTFT (client's − server's) and end to end (client's E2E − server's total time).
 */
export function gapsOf(client: ClientRequest, server: ServerView | null): Gaps {
  if (!server) return { sendMs: null, ttftMs: null, e2eMs: null };
  const diff = (a: number | null, b: number | null) => (a !== null && b !== null ? a - b : null);
  return {
    sendMs: diff(server.receivedMs, client.sendEpochMs),
    ttftMs: diff(client.ttftMs, server.ttftMs),
    e2eMs: diff(client.e2eMs, server.totalMs),
  };
}

const SPAN_LABELS: Record<string, string> = {
  "http-request": "frontend: HTTP request",
  "kv_router.select_worker": "router: worker selection",
  "kv_router.route_request": "router: dispatch to worker",
  "router.route_request": "router: dispatch to worker",
  prefill_routing: "router: prefill routing",
  handle_payload: "worker: request received",
  "engine.generate": "engine: generate",
  generate: "worker: generate",
};

const depthOf = (spans: SpansRequest["spans"], i: number): number => {
  let d = 0;
  for (let p = spans[i].parent; p !== null && d < 32; p = spans[p].parent) d++;
  return d;
};

/**
 * One request on the client's axis (ms from its send): the client lane, the trace's row, then
 * every span in start order indented by its depth. Without the client's send time the axis starts
 * at the server's first moment.
 */
export function requestJourney(
  client: ClientRequest,
  spans: SpansRequest | null,
  trace: TraceRequest | null,
  missing: string[],
  engine: EngineJoin | null = null,
): RequestJourney {
  const server = serverView(spans, trace) ?? (engine ? engineServerView(engine.request) : null);
  let firstSpan = Number.POSITIVE_INFINITY;
  for (const s of spans?.spans ?? []) firstSpan = Math.min(firstSpan, s.startMs);
  const origin = client.sendEpochMs ?? server?.receivedMs ?? (Number.isFinite(firstSpan) ? firstSpan : 0);
  const lanes: JourneyLane[] = [];
  /** A top lane from its start (epoch ms), how long it lasted and when its first token came, after its start. */
  const topLane = (
    lane: Pick<JourneyLane, "label" | "role" | "source" | "detail">,
    startEpochMs: number,
    durationMs: number,
    ttftMs: number | null,
  ): JourneyLane => ({
    ...lane,
    startMs: startEpochMs - origin,
    endMs: startEpochMs - origin + durationMs,
    depth: 0,
    firstTokenMs: ttftMs === null ? null : startEpochMs - origin + ttftMs,
    ticks: [],
  });
  if (client.sendEpochMs !== null && client.e2eMs !== null)
    lanes.push(
      topLane(
        { label: "client (aiperf): sent → last token", role: "client", source: "aiperf", detail: null },
        client.sendEpochMs,
        client.e2eMs,
        client.ttftMs,
      ),
    );
  if (trace && trace.receivedMs !== null && trace.totalMs !== null)
    lanes.push(
      topLane(
        {
          label: "Dynamo frontend (request trace): received → finished",
          role: "frontend",
          source: "trace",
          detail: trace.worker ? `worker ${trace.worker}` : null,
        },
        trace.receivedMs,
        trace.totalMs,
        trace.ttftMs,
      ),
    );
  if (spans)
    spans.spans.forEach((s, i) =>
      lanes.push({
        label: SPAN_LABELS[s.name] ?? s.name,
        ...(SPAN_LABELS[s.name] ? { name: `span ${s.name}` } : {}),
        role: s.role,
        source: "spans",
        startMs: s.startMs - origin,
        endMs: s.endMs - origin,
        depth: depthOf(spans.spans, i),
        firstTokenMs: s.ttftMs === null ? null : s.startMs - origin + s.ttftMs,
        ticks: [],
        detail:
          [s.service, s.workerId !== null ? `worker ${s.workerId}` : null].filter(Boolean).join(", ") || null,
      }),
    );
  if (engine) {
    const at = client.sendEpochMs ?? origin;
    for (const l of engineLanes(engine, at - origin)) lanes.push(l);
  }
  // A source whose clock puts it further from the send than the whole request lasted is not on
  // the client's axis (another machine's clock, or another run's file): said, not drawn.
  const limit = client.e2eMs;
  const notes = [...missing];
  let drawn = lanes;
  if (limit !== null && client.sendEpochMs !== null)
    for (const source of ["trace", "spans"] as const) {
      const mine = drawn.filter((l) => l.source === source);
      if (mine.length === 0) continue;
      let first = Number.POSITIVE_INFINITY;
      for (const l of mine) first = Math.min(first, l.startMs);
      if (Math.abs(first) <= limit) continue;
      drawn = drawn.filter((l) => l.source !== source);
      notes.push(
        `Not drawn: ${source === "trace" ? "the Dynamo request trace's row" : "the spans"} start ${(first / 1000).toFixed(3)} s from the client's send, further than the request lasted (${(limit / 1000).toFixed(3)} s): the two clocks disagree`,
      );
    }
  const gaps = gapsOf(client, server);
  if (engine) notes.push(engineGapNote(engine, gaps));
  let clockNote: string | null = null;
  if (gaps.sendMs !== null && gaps.sendMs < 0)
    clockNote = `The server's clock and the client's disagree: the server received the request ${(-gaps.sendMs).toFixed(3)} ms before the client sent it. The send gap holds that offset; the TTFT and end-to-end gaps are differences of durations and do not.`;
  return {
    xRequestId: client.xRequestId,
    serverSource: server?.source ?? null,
    lanes: drawn,
    gaps,
    clockNote,
    missing: notes,
  };
}

/**
 * The client↔server gap over the run: every aiperf record whose x_request_id a server file names,
 * each gap's distribution (numpy-linear percentiles, as every statistic here).
 */
export function journeySummary(
  clients: ClientRequest[],
  spans: SpansRequest[],
  traces: TraceRequest[],
  notes: string[],
  engine: EngineViewOf | null = null,
): JourneySummary {
  return atOnce(journeySummaryInSteps(clients, spanRootsOf(spans), traces, notes, engine));
}

/** The server's view of the TensorRT-LLM request sharing an x_request_id, if one does. */
export type EngineViewOf = (xRequestId: string) => ServerView | null;

/** Items one step of `journeySummaryInSteps` takes in a pass. */
const ITEMS_A_STEP = 4_000;

/**
 * journeySummary in steps (./steps.ts): each pass takes `ITEMS_A_STEP` requests a step and the
 * statistics sort in steps, so a server joining a 200,000-request run gives others a turn. A
 * request's server side is Dynamo's (its root span, else its trace row) where Dynamo names it,
 * else the TensorRT-LLM request sharing its id (`engine`), as one request's journey takes it.
 */
export function* journeySummaryInSteps(
  clients: ClientRequest[],
  roots: SpanRoot[],
  traces: TraceRequest[],
  notes: string[],
  engine: EngineViewOf | null = null,
): Steps<JourneySummary> {
  const rootsById = new Map<string, SpanRoot>();
  for (const [i, s] of roots.entries()) {
    if (!rootsById.has(s.xRequestId)) rootsById.set(s.xRequestId, s);
    if ((i + 1) % ITEMS_A_STEP === 0) yield;
  }
  const tracesById = new Map<string, TraceRequest>();
  for (const [i, t] of traces.entries()) {
    if (t.xRequestId !== null && !tracesById.has(t.xRequestId)) tracesById.set(t.xRequestId, t);
    if ((i + 1) % ITEMS_A_STEP === 0) yield;
  }
  const send: number[] = [];
  const ttft: number[] = [];
  const e2e: number[] = [];
  const joinedBy = { spans: 0, trace: 0, trtllm: 0 };
  for (const [i, c] of clients.entries()) {
    if ((i + 1) % ITEMS_A_STEP === 0) yield;
    if (c.xRequestId === null) continue;
    const server =
      serverViewOfRoot(rootsById.get(c.xRequestId) ?? null, tracesById.get(c.xRequestId) ?? null) ??
      engine?.(c.xRequestId) ??
      null;
    if (!server) continue;
    joinedBy[server.source]++;
    const g = gapsOf(c, server);
    if (g.sendMs !== null) send.push(g.sendMs);
    if (g.ttftMs !== null) ttft.push(g.ttftMs);
    if (g.e2eMs !== null) e2e.push(g.e2eMs);
  }
  return {
    joined: joinedBy.spans + joinedBy.trace + joinedBy.trtllm,
    clientRequests: clients.length,
    serverSource:
      joinedBy.spans > 0 ? "spans" : joinedBy.trace > 0 ? "trace" : joinedBy.trtllm > 0 ? "trtllm" : null,
    joinedBy,
    e2eGapMs: yield* computeStatsInSteps(e2e),
    ttftGapMs: yield* computeStatsInSteps(ttft),
    sendGapMs: yield* computeStatsInSteps(send),
    notes,
    timeEvents: [],
  };
}

/** TensorRT-LLM's own ids of one request, in the order the join tries them. */
export const ENGINE_ID_FIELDS = ["disagg_request_id", "request_id", "ctx_request_id"] as const;
export type EngineIdField = (typeof ENGINE_ID_FIELDS)[number];

/**
 * A TensorRT-LLM request as the journey reads it: its stamps and ids, and its TTFT and E2E as
 * the run stored them (`latency`, the Latency view's: lib/metrics/trtllm-latency.ts
 * requestLatency), computed from its stamps where absent.
 */
export type EngineRequest = Pick<
  JoinedRequest,
  | "mode"
  | "times"
  | "requestId"
  | "ctxRequestId"
  | "disaggRequestId"
  | "ctxServer"
  | "genServer"
  | "ctx"
  | "gen"
> & {
  latency?: Pick<RequestLatency, "ttftMs" | "e2eMs">;
  /** The KV-cache transfer's ms as stored (the request row's `kv_transfer_ms`), null when not measured */
  kvTransferMs?: number | null;
};

/** A TensorRT-LLM request joined to the client's: the field whose value equals its x_request_id. */
export interface EngineJoin {
  request: EngineRequest;
  field: EngineIdField;
  /** The shared id */
  id: string;
}

/** The request's value of one id field; `request_id` is each worker's own (ctx, gen), the first that matches. */
const engineIds = (r: EngineJoin["request"], f: EngineIdField): (string | null)[] =>
  f === "disagg_request_id"
    ? [r.disaggRequestId]
    : f === "request_id"
      ? [r.requestId, r.ctx?.requestId ?? null, r.gen?.requestId ?? null]
      : [r.ctxRequestId];

/**
 * The TensorRT-LLM request whose own id equals the client's x_request_id, else the one line that
 * says which file lacks the shared id (docs/metrics.md §Client to engine). TensorRT-LLM's records
 * carry only the server's ids (`request_id`, `ctx_request_id`, `disagg_request_id`): none holds the
 * client's `x-request-id`, so they join only where the client's id was the server's.
 */
export function engineJoinOf(
  xRequestId: string | null,
  requests: Iterable<EngineJoin["request"]>,
  file: string,
): { join: EngineJoin; note: null } | { join: null; note: string } {
  if (xRequestId !== null)
    for (const field of ENGINE_ID_FIELDS)
      for (const request of requests)
        if (engineIds(request, field).includes(xRequestId))
          return { join: { request, field, id: xRequestId }, note: null };
  return {
    join: null,
    note: `${file} has no request id the client's requests also carry: its disagg request id, request id and ctx request id are TensorRT-LLM's own, and none equals ${xRequestId === null ? "the client's (this record has none)" : `the id the client sent with this request (the client's x_request_id, ${xRequestId})`}, so this request's engine segments cannot be shown`,
  };
}

/**
 * The server's view from a TensorRT-LLM request: durations only (its clock is not the wall
 * clock), TTFT and E2E as the run's Latency view defines them (docs/metrics.md §Request latency
 * from perf metrics), so a request's server time is one number wherever it is shown.
 */
export function engineServerView(r: EngineJoin["request"]): ServerView {
  const latency = r.latency ?? requestLatency(r.times);
  return { source: "trtllm", receivedMs: null, ttftMs: latency.ttftMs, totalMs: latency.e2eMs };
}

/** The server's view from a TensorRT-LLM request's stored TTFT and E2E (the run's gap summary). */
export function engineServerViewOf(latency: Pick<RequestLatency, "ttftMs" | "e2eMs">): ServerView {
  return { source: "trtllm", receivedMs: null, ttftMs: latency.ttftMs, totalMs: latency.e2eMs };
}

/**
 * The engine's lanes: the request (arrival → its E2E, its first token marked), then each
 * segment the Breakdown view computes for it (lib/metrics/time-breakdown.ts requestSegments), at
 * its place after the arrival. TensorRT-LLM stamps its steady clock, never the wall clock, so the
 * arrival is placed at `startMs` (the client's send): positions are the engine's own durations.
 */
export function engineLanes(engine: EngineJoin, startMs: number): JourneyLane[] {
  const r = engine.request;
  const t0 = requestStart(r.times);
  if (t0 === null) return [];
  const view = engineServerView(r);
  const servers = [
    r.ctxServer ? `context server ${r.ctxServer}` : null,
    r.genServer ? `generation server ${r.genServer}` : null,
  ];
  const lanes: JourneyLane[] = [];
  if (view.totalMs !== null)
    lanes.push({
      label: "TensorRT-LLM server: arrival → end (its E2E)",
      role: "frontend",
      source: "trtllm",
      startMs,
      endMs: startMs + view.totalMs,
      depth: 0,
      firstTokenMs: view.ttftMs === null ? null : startMs + view.ttftMs,
      ticks: [],
      detail: [`${idFieldWords(engine.field)} ${engine.id}`, ...servers].filter(Boolean).join(", "),
      name: `joined by ${engine.field}`,
    });
  const values = requestSegments(r.times, r.mode);
  segmentsFor(r.mode).forEach((def, i) => {
    const v = values[i];
    const at = segmentStart(def, r.times);
    if (typeof v !== "number" || at === null) return;
    const from = startMs + (at - t0) * 1000;
    lanes.push({
      label: `engine: ${def.label}`,
      name: def.name,
      role: def.name.startsWith("ctx_") ? "prefill" : def.name.startsWith("disagg_") ? "router" : "decode",
      source: "trtllm",
      startMs: from,
      endMs: from + v,
      depth: 1,
      firstTokenMs: null,
      ticks: [],
      detail: def.name === "gen_queue" ? transferInQueue(r.kvTransferMs ?? null) : null,
    });
  });
  return lanes;
}

/**
 * The generation queue is drawn whole only when no transfer stamps were recorded; a transfer time
 * beside it then came as a duration alone (a response's `gen_kv_transfer`): named on the lane,
 * which holds it, never placed.
 */
function transferInQueue(ms: number | null): string | null {
  return ms === null
    ? null
    : `includes the KV-cache transfer, ${ms.toFixed(3)} ms (sent as a duration without a start, so not placed)`;
}

/** The network/client gap of a joined TensorRT-LLM request, named in one line. */
export function engineGapNote(engine: EngineJoin, gaps: Gaps): string {
  const ms = (v: number | null) => (v === null ? "not measured" : `${v.toFixed(3)} ms`);
  return `Joined TensorRT-LLM's record by its ${idFieldWords(engine.field)}. Network/client gap: end to end ${ms(gaps.e2eMs)}, TTFT ${ms(gaps.ttftMs)} (client − server durations). Its stamps are on the engine's steady clock, not the wall clock: its lanes start at the client's send, and the send gap cannot be measured`;
}
