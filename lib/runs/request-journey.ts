/**
 * One request from client to engine, and the client↔server gap over the run
 * (docs/metrics.md §Client to engine): aiperf's records (the client) joined by x_request_id to
 * Dynamo's spans and request trace (the server), both stored with the run at ingest.
 */
import { z } from "zod";
import {
  DYNAMO_SPAN_PIECES,
  DYNAMO_SPAN_ROOTS_CHART,
  DYNAMO_SPANS_CHART,
  DYNAMO_TRACE_REQUEST_PIECES,
  DYNAMO_TRACE_REQUESTS_CHART,
  TRTLLM_CLOCK_ORIGIN_CHART,
  TRTLLM_TIME_EVENT_FILES_CHART,
  TRTLLM_TIME_EVENTS_CHART,
  type PiecedChart,
} from "@/lib/api/chart-catalog";
import {
  type DynamoSpanRootsPayload,
  type DynamoSpansPayload,
  type DynamoTraceRequestsPayload,
  type JourneySummary,
  type RequestJourney,
  type RequestPiecesIndex,
  requestPiecesIndexSchema,
  trtllmClockOriginPayloadSchema,
  trtllmTimeEventFilesPayloadSchema,
  type TrtllmTimeEventsPayload,
} from "@/lib/api/request-journey";
import {
  TimeEventIndex,
  TimeEventJoinCounter,
  timeEventLanes,
  timeEventRequestsOf,
  timeEventsClientMissingNote,
  timeEventsJoinCounts,
  timeEventsMissingNote,
  type EngineClock,
  type JoinIds,
  type TimeEventJoinRow,
  type TimeEventMatch,
  type TimeEventPiece,
} from "@/lib/metrics/trtllm-time-event-join";
import { AIPERF_ORIGIN_CHART, originOf } from "@/lib/ingest/timeline-columns";
import { parseJsonInSteps } from "@/lib/metrics/json-in-steps";
import { requestPieceOf } from "@/lib/metrics/request-pieces";
import { idFieldWords } from "@/lib/metrics/trtllm-request-name";
import { checkInSteps } from "@/lib/metrics/schema-in-steps";
import {
  ENGINE_ID_FIELDS,
  engineJoinOf,
  engineLanes,
  engineServerViewOf,
  journeySummaryInSteps,
  requestJourney,
  spanRootsOf,
  type ClientRequest,
  type EngineRequest,
  type EngineViewOf,
} from "@/lib/metrics/request-journey";
import { emptyTimes, TIME_KEYS } from "@/lib/metrics/time-breakdown";
import { requestRow, requestRowBySharedId, sharedIdPages } from "@/lib/store/trtllm-requests";
import { aiperfRecordsByRequestId } from "@/lib/store/timeline-rows";
import type { Db } from "@/lib/store/db";
import { getChartText, getLargeChartText } from "@/lib/store/chart-payloads";
import type { TrtllmTimeEventsTable } from "@/lib/store/tables/trtllm";
import {
  ambiguousCtxIds,
  timeEventRowPages,
  timeEventRowsOf,
  type TimeEventIdColumn,
} from "@/lib/store/trtllm-time-events";
import { aiperfProfilingPages } from "@/lib/store/goodput-rows";
import { getFiles, getRun } from "@/lib/store/runs-repo";
import { inTurns } from "./in-turns";
import { timelineRequest, timelineSource } from "./run-timeline";

interface ServerFiles {
  /** Every span of each request (the request journey), or each request's root span (the summary) */
  spans: DynamoSpansPayload | DynamoSpanRootsPayload | null;
  trace: DynamoTraceRequestsPayload | null;
  originEpochMs: number | null;
}

/** Requests checked a step: each holds its spans, some eight objects. */
const JOURNEY_SLICE = 512;

/**
 * A whole stored list, read off the main thread on SQLite, then parsed and checked a piece a
 * turn (lib/metrics/json-in-steps.ts, schema-in-steps.ts): the spans of 20,000 requests are some
 * 30 MB of JSON, which read, parsed and checked in one piece held the server for over a second.
 */
async function readLarge<S extends z.ZodType>(
  db: Db,
  runId: string,
  key: string,
  schema: S,
): Promise<z.output<S> | null> {
  const text = await getLargeChartText(db, runId, key);
  if (text === undefined) return null;
  try {
    const value = await inTurns(parseJsonInSteps(text));
    return (await inTurns(checkInSteps(schema, value, JOURNEY_SLICE))) as z.output<S>;
  } catch (e) {
    if (e instanceof z.ZodError) return null;
    throw e;
  }
}

/** What the run's summary joins: each request's root span (or every span, stored before them) and trace row. */
async function serverFiles(db: Db, runId: string): Promise<ServerFiles> {
  const read = <S extends z.ZodType>(key: string, schema: S) => readLarge(db, runId, key, schema);
  const origin = await getChartText(db, runId, AIPERF_ORIGIN_CHART);
  // The summary joins root spans only: stored apart (a tenth of the spans' text) since they were;
  // a run stored before reads every span and takes their roots.
  const roots = (await read(
    DYNAMO_SPAN_ROOTS_CHART.key,
    DYNAMO_SPAN_ROOTS_CHART.schema,
  )) as DynamoSpanRootsPayload | null;
  return {
    spans:
      roots ?? ((await read(DYNAMO_SPANS_CHART.key, DYNAMO_SPANS_CHART.schema)) as DynamoSpansPayload | null),
    trace: (await read(
      DYNAMO_TRACE_REQUESTS_CHART.key,
      DYNAMO_TRACE_REQUESTS_CHART.schema,
    )) as DynamoTraceRequestsPayload | null,
    originEpochMs: origin === undefined ? null : originOf(JSON.parse(origin)),
  };
}

/** Each request's root span: as stored, or from every span of a run stored before they were. */
function rootsOf(spans: ServerFiles["spans"]) {
  if (!spans) return [];
  const requests = spans.requests;
  return requests.length > 0 && "spans" in requests[0]
    ? spanRootsOf((spans as DynamoSpansPayload).requests)
    : (spans as DynamoSpanRootsPayload).requests;
}

const plural = (n: number, what: string) => `${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"}`;

/** Which server file lacks the shared id, for how many of its requests. */
function serverNotes(f: ServerFiles): string[] {
  const notes: string[] = [];
  for (const w of f.spans?.withoutId ?? [])
    notes.push(
      `${w.file} has no client request id (the client's x_request_id) on ${plural(w.requests, "traced request")}: those cannot be matched to the client's requests`,
    );
  for (const w of f.trace?.withoutId ?? [])
    notes.push(
      `${w.file} has no client request id (the client's x_request_id) on ${plural(w.requests, "finished request")}: those cannot be matched to the client's requests`,
    );
  return notes;
}

/**
 * The run's TensorRT-LLM requests by each of their own ids, for the gap summary: the server view
 * of the request a client's x_request_id names (lib/metrics/request-journey.ts engineJoinOf's
 * order: `disagg_request_id`, then `request_id`, then `ctx_request_id`; the first by idx within
 * one), from its stored TTFT and E2E. Null when the run holds none.
 */
async function trtllmViews(
  db: Db,
  runId: string,
): Promise<{ requests: number; of: EngineViewOf; ids: () => PerfIds } | null> {
  type Latency = { ttftMs: number | null; e2eMs: number | null };
  const byField = [new Map<string, Latency>(), new Map<string, Latency>(), new Map<string, Latency>()];
  let requests = 0;
  for await (const page of sharedIdPages(db, runId))
    for (const r of page) {
      requests++;
      const latency = { ttftMs: r.ttft_ms, e2eMs: r.e2e_ms };
      [r.disagg_request_id, r.request_id, r.ctx_request_id].forEach((id, i) => {
        if (id !== null && !byField[i].has(id)) byField[i].set(id, latency);
      });
    }
  if (requests === 0) return null;
  return {
    requests,
    ids: () => ({
      disaggRequestIds: new Set(byField[0].keys()),
      requestIds: new Set(byField[1].keys()),
      ctxRequestIds: new Set(byField[2].keys()),
    }),
    of: (x) => {
      const latency = byField[0].get(x) ?? byField[1].get(x) ?? byField[2].get(x);
      return latency ? engineServerViewOf(latency) : null;
    },
  };
}

type PerfIds = { requestIds: Set<string>; ctxRequestIds: Set<string>; disaggRequestIds: Set<string> };

/** The run's TensorRT-LLM perf-metrics files by name, or what they are when none is named. */
async function trtllmFileNames(db: Db, runId: string): Promise<string> {
  const files = (await getFiles(db, runId)).filter((file) => file.kind === "trtllm-perf-metrics");
  return files.map((file) => file.name).join(", ") || "the TensorRT-LLM perf metrics";
}

/**
 * The run's client↔server gap; null when the run is not ready or holds no server side to join:
 * Dynamo's spans or request trace, or TensorRT-LLM's per-request perf metrics.
 */
export async function runJourneySummary(db: Db, runId: string): Promise<JourneySummary | null> {
  const run = await getRun(db, runId);
  if (!run || run.status !== "ready") return null;
  const f = await serverFiles(db, runId);
  const engine = await trtllmViews(db, runId);
  const events = await timeEventsOf(db, runId);
  if (!f.spans && !f.trace && !engine && !events) return null;
  // The client records a page at a time (lib/store/goodput-rows.ts, a turn after each) and the
  // join in steps: a 200,000-request run's rows read, mapped and joined at once held the server.
  const clients: ClientRequest[] = [];
  const noId: string[] = [];
  for await (const page of aiperfProfilingPages(db, runId))
    for (const r of page) {
      if (!r.request_id) noId.push(r.file_id);
      clients.push({
        xRequestId: r.request_id || null,
        sendEpochMs: r.start_ms !== null && f.originEpochMs !== null ? f.originEpochMs + r.start_ms : null,
        ttftMs: r.ttft_ms,
        e2eMs: r.e2e_ms,
      });
    }
  const notes = serverNotes(f);
  if (clients.length === 0)
    notes.unshift(
      "No client records in this run (aiperf's profile_export.jsonl): the gap needs the client's send, first token and end",
    );
  if (noId.length > 0) {
    const names = new Map((await getFiles(db, runId)).map((x) => [x.id, x.name]));
    const files = [...new Set(noId.map((id) => names.get(id) ?? "the per-request records"))];
    notes.push(
      `${files.join(", ")} has no request id (the client's x_request_id) on ${plural(noId.length, "record")}: no server file can be matched to those`,
    );
  }
  if (clients.length > 0 && f.originEpochMs === null && (f.spans || f.trace))
    notes.push("The aiperf records carry no epoch start time: the send gap cannot be measured");
  const summary = await inTurns(
    journeySummaryInSteps(clients, rootsOf(f.spans), f.trace?.requests ?? [], notes, engine?.of ?? null),
  );
  const dynamoJoined = summary.joinedBy.spans + summary.joinedBy.trace;
  if ((f.spans || f.trace) && clients.length > 0 && dynamoJoined === 0 && noId.length < clients.length)
    summary.notes.push(
      "No request id the client sent (the client's x_request_id) appears in the Dynamo files: they may be of another run",
    );
  if (engine && clients.length > noId.length) {
    const name = await trtllmFileNames(db, runId);
    if (summary.joinedBy.trtllm === 0)
      summary.notes.push(
        `${name} has no request id the client's requests also carry: the disagg request id, request id and ctx request id of its ${plural(engine.requests, "request")} are TensorRT-LLM's own, and none equals an id the client sent (the client's x_request_id${dynamoJoined > 0 ? ", of the requests the Dynamo files do not name" : ""}), so the engine's side of these requests cannot be shown`,
      );
    else
      summary.notes.push(
        `TensorRT-LLM's stamps are its engine's steady clock, not the wall clock: the ${plural(summary.joinedBy.trtllm, "request")} joined to ${name} have no send gap; their TTFT and end-to-end gaps are differences of durations`,
      );
  }
  if (events) {
    const clientIds = clients.length > noId.length ? new Set(clients.map((c) => c.xRequestId ?? "")) : null;
    clientIds?.delete("");
    summary.timeEvents = await events.joinCounts(engine?.ids() ?? null, clientIds);
    const files = events.fileNames();
    const parts = summary.timeEvents.map((r) => {
      const to = [
        r.joinedPerfMetrics === null
          ? null
          : `${r.joinedPerfMetrics.toLocaleString("en-US")} to the perf metrics`,
        r.joinedClient === null ? null : `${r.joinedClient.toLocaleString("en-US")} to aiperf's records`,
      ].filter(Boolean);
      return `${r.role} ${r.requests.toLocaleString("en-US")}${to.length > 0 ? ` (joined: ${to.join(", ")})` : ""}`;
    });
    summary.notes.push(`TensorRT-LLM time events (${files}), requests per role: ${parts.join("; ")}`);
    if (events.leftOut > 0)
      summary.notes.push(
        `${plural(events.leftOut, "time-events request")} beyond those kept were counted, not joined`,
      );
  }
  return summary;
}

/**
 * The requests of `x` in a run's pieced list, with the files that lack the id: one piece read
 * (some 64 requests), not the whole list. Undefined when the run has no pieces (stored before
 * them): the caller reads the whole list then.
 */
async function oneRequestOfPieces<T extends { xRequestId: string | null }>(
  db: Db,
  runId: string,
  chart: PiecedChart,
  x: string | null,
): Promise<{ withoutId: RequestPiecesIndex["withoutId"]; requests: T[] } | undefined> {
  const indexText = await getChartText(db, runId, chart.index.key);
  if (indexText === undefined) return undefined;
  const index = requestPiecesIndexSchema.safeParse(JSON.parse(indexText));
  if (!index.success) return undefined;
  if (x === null) return { withoutId: index.data.withoutId, requests: [] };
  const piece = chart.piece(requestPieceOf(x, index.data.pieces));
  const text = await getChartText(db, runId, piece.key);
  if (text === undefined) return undefined;
  const read = piece.schema.safeParse(JSON.parse(text));
  if (!read.success) return undefined;
  const requests = (read.data as { requests: T[] }).requests.filter((r) => r.xRequestId === x);
  return { withoutId: index.data.withoutId, requests };
}

/**
 * One request's spans and trace rows: from their pieces (lib/metrics/request-pieces.ts), or,
 * for a run stored before them, from the whole lists, read in pieces as the summary reads them.
 */
async function oneRequestFiles(
  db: Db,
  runId: string,
  x: string | null,
): Promise<ServerFiles & { spans: DynamoSpansPayload | null }> {
  const spans = await oneRequestOfPieces<DynamoSpansPayload["requests"][number]>(
    db,
    runId,
    DYNAMO_SPAN_PIECES,
    x,
  );
  const trace = await oneRequestOfPieces<DynamoTraceRequestsPayload["requests"][number]>(
    db,
    runId,
    DYNAMO_TRACE_REQUEST_PIECES,
    x,
  );
  const origin = await getChartText(db, runId, AIPERF_ORIGIN_CHART);
  return {
    spans:
      spans ??
      ((await readLarge(
        db,
        runId,
        DYNAMO_SPANS_CHART.key,
        DYNAMO_SPANS_CHART.schema,
      )) as DynamoSpansPayload | null),
    trace:
      trace ??
      ((await readLarge(
        db,
        runId,
        DYNAMO_TRACE_REQUESTS_CHART.key,
        DYNAMO_TRACE_REQUESTS_CHART.schema,
      )) as DynamoTraceRequestsPayload | null),
    originEpochMs: origin === undefined ? null : originOf(JSON.parse(origin)),
  };
}

/** An aiperf record as the journey reads it: its x_request_id, start (ms from the run's first), TTFT and E2E. */
interface ClientRecord {
  requestId: string | null;
  startMs: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
}

/**
 * One request of the timeline (its drill-down id) on one axis: the client's view, its Dynamo
 * spans and trace row, and the TensorRT-LLM request sharing its id; null when the run has no
 * such request and none of those. An aiperf run's bar is an aiperf record; a run holding
 * TensorRT-LLM records draws its timeline from them, so its bar is a TensorRT-LLM request, joined
 * to the aiperf record whose x_request_id is one of its own ids. It reads the piece of the
 * request's x_request_id only; a run stored before the pieces reads every span.
 */
export async function timelineRequestJourney(
  db: Db,
  runId: string,
  rid: number,
): Promise<RequestJourney | null> {
  const source = await timelineSource(db, runId);
  const events = await timeEventsOf(db, runId);
  const journey = await timelineJourneyOf(db, runId, rid, source, events);
  if (journey && !events) {
    // A run stored before its time events were kept for the journey says how to get them.
    const stale = (await getFiles(db, runId)).filter(
      (f) => f.kind === "trtllm-side-file" && f.format === "time-events",
    );
    if (stale.length > 0)
      journey.missing.push(
        `${stale.map((f) => f.name).join(", ")} holds TensorRT-LLM time events stored before they were kept for the journey: re-ingest the run (POST /api/runs/{id}/reingest) to draw them`,
      );
  }
  return journey;
}

async function timelineJourneyOf(
  db: Db,
  runId: string,
  rid: number,
  source: Awaited<ReturnType<typeof timelineSource>>,
  events: TimeEvents | null,
): Promise<RequestJourney | null> {
  if (source === "trtllm") return trtllmTimelineJourney(db, runId, rid, events);
  const r = await timelineRequest(db, runId, rid);
  if (!r) return null;
  const x = r.requestId || null;
  const engine = await trtllmEngineOf(db, runId, x);
  const journey = await journeyOf(db, runId, r, r.file ?? "its file", engine, events !== null);
  if (!journey) return null;
  if (engine?.join) {
    const e = engine.join.request;
    const ids = { requestId: e.requestId, ctxRequestId: e.ctxRequestId, disaggRequestId: e.disaggRequestId };
    const clock = { times: e.times, originS: await clockOriginOf(db, runId) };
    return withTimeEvents(journey, events, (await events?.match(ids)) ?? [], ids, clock, "this request");
  }
  const ids = { requestId: x, ctxRequestId: null, disaggRequestId: null };
  if (x === null) return events ? withTimeEvents(journey, events, [], ids, null, "this record") : journey;
  // The client's id joins only where it was the server's: against every id a request carries.
  const matches = (await events?.match({ requestId: x, ctxRequestId: x, disaggRequestId: x })) ?? [];
  return withTimeEvents(journey, events, matches, ids, null, `x_request_id ${x}`);
}

/**
 * The journey of one aiperf record: Dynamo's spans and trace row of its x_request_id and the
 * engine join, with a line for each part that is missing.
 */
async function journeyOf(
  db: Db,
  runId: string,
  r: ClientRecord,
  clientFile: string,
  engine: Awaited<ReturnType<typeof trtllmEngineOf>>,
  timeEvents = false,
): Promise<RequestJourney | null> {
  const x = r.requestId || null;
  const f = await oneRequestFiles(db, runId, x);
  const missing: string[] = [];
  if (!f.spans && !f.trace && !engine && !timeEvents) return null;
  if (engine?.note) missing.push(engine.note);
  const spans = x !== null ? (f.spans?.requests.find((s) => s.xRequestId === x) ?? null) : null;
  const trace = x !== null ? (f.trace?.requests.find((t) => t.xRequestId === x) ?? null) : null;
  if (x === null)
    missing.push(
      `${clientFile} has no request id for this record (the client's x_request_id): no server file can be matched to it`,
    );
  else if (x !== null) {
    if (f.spans && !spans)
      missing.push(
        `No traced request carries the id the client sent, ${x}${f.spans.withoutId.length > 0 ? ` (${f.spans.withoutId.map((w) => w.file).join(", ")} has no client request id on some)` : ""}`,
      );
    if (f.trace && !trace)
      missing.push(
        `No finished request in the Dynamo trace carries the id the client sent, ${x}${f.trace.withoutId.length > 0 ? ` (${f.trace.withoutId.map((w) => w.file).join(", ")} has no client request id on some)` : ""}`,
      );
  }
  if (f.originEpochMs === null)
    missing.push("The aiperf records carry no epoch start time: the client lane cannot be placed");
  const client: ClientRequest = {
    xRequestId: x,
    sendEpochMs: r.startMs !== null && f.originEpochMs !== null ? f.originEpochMs + r.startMs : null,
    ttftMs: r.ttftMs,
    e2eMs: r.e2eMs,
  };
  return requestJourney(client, spans, trace, missing, engine?.join ?? null);
}

/**
 * A TensorRT-LLM request of the timeline (its idx) with the aiperf record sharing one of its own
 * ids (`disagg_request_id`, `request_id`, `ctx_request_id`, in that order) as the client's view;
 * without one, the engine's lanes alone and the line naming the file that lacks the shared id.
 */
async function trtllmTimelineJourney(
  db: Db,
  runId: string,
  idx: number,
  events: TimeEvents | null,
): Promise<RequestJourney | null> {
  const row = await requestRow(db, runId, idx);
  if (!row) return null;
  const own = {
    requestId: row.request_id,
    ctxRequestId: row.ctx_request_id,
    disaggRequestId: row.disagg_request_id,
  };
  const clock = {
    times: engineRequestOfRow(row).times,
    originS: events ? await clockOriginOf(db, runId) : null,
  };
  const matches = (await events?.match(own)) ?? [];
  const withEvents = (j: RequestJourney | null) =>
    j && withTimeEvents(j, events, matches, own, clock, "this request");
  const ids = ENGINE_ID_FIELDS.map((field) =>
    field === "disagg_request_id"
      ? row.disagg_request_id
      : field === "request_id"
        ? row.request_id
        : row.ctx_request_id,
  );
  const candidates = await aiperfRecordsByRequestId(db, runId, [
    ...new Set(ids.filter((id): id is string => id !== null)),
  ]);
  // The first of the request's own ids an aiperf record carries, in the join's order.
  let record: (typeof candidates)[number] | undefined;
  for (const id of ids) {
    record = candidates.find((c) => id !== null && c.request_id === id);
    if (record) break;
  }
  const request = engineRequestOfRow(row);
  const name = await trtllmFileNames(db, runId);
  if (!record) {
    const clients = (await getFiles(db, runId)).filter((file) => file.kind === "aiperf-records");
    const clientName = clients.map((file) => file.name).join(", ");
    const own = ENGINE_ID_FIELDS.map((field, i) => `${idFieldWords(field)} ${ids[i] ?? "none"}`).join(", ");
    const note = clientName
      ? `${name} has no request id the client's requests also carry, and ${clientName} holds none of this request's ids (${own}): TensorRT-LLM's ids are its own, so the client's view of this request and the network/client gap cannot be shown`
      : "No aiperf records in this run (profile_export.jsonl): the client's view of this request and the network/client gap cannot be joined";
    // The engine's lanes alone, from its arrival; no client, so no gap.
    const at = ids.findIndex((id) => id !== null);
    const shown = { request, field: ENGINE_ID_FIELDS[Math.max(at, 0)], id: ids[at] ?? "none" };
    return withEvents({
      xRequestId: null,
      serverSource: "trtllm",
      lanes: engineLanes(shown, 0),
      gaps: { sendMs: null, ttftMs: null, e2eMs: null },
      clockNote: null,
      missing: [note],
    });
  }
  const x = record.request_id;
  const client = { requestId: x, startMs: record.start_ms, ttftMs: record.ttft_ms, e2eMs: record.e2e_ms };
  return withEvents(
    await journeyOf(db, runId, client, "the aiperf records", engineJoinOf(x, [request], name)),
  );
}

/** A stored TensorRT-LLM request as the journey draws it: stored times are ms from the run's first arrival. */
function engineRequestOfRow(row: {
  mode: EngineRequest["mode"];
  times_json: string;
  request_id: string | null;
  ctx_request_id: string | null;
  disagg_request_id: string | null;
  ctx_server: string | null;
  gen_server: string | null;
  ttft_ms: number | null;
  e2e_ms: number | null;
  kv_transfer_ms: number | null;
}): EngineRequest {
  // Read as seconds ÷ 1000: the same steady-clock differences.
  const stored = JSON.parse(row.times_json) as Record<string, number | null>;
  const times = emptyTimes();
  for (const k of TIME_KEYS) times[k] = typeof stored[k] === "number" ? stored[k] / 1000 : null;
  return {
    mode: row.mode,
    times,
    requestId: row.request_id,
    ctxRequestId: row.ctx_request_id,
    disaggRequestId: row.disagg_request_id,
    ctxServer: row.ctx_server,
    genServer: row.gen_server,
    ctx: null,
    gen: null,
    latency: { ttftMs: row.ttft_ms, e2eMs: row.e2e_ms },
    kvTransferMs: row.kv_transfer_ms,
  };
}

/**
 * The run's TensorRT-LLM request sharing the client's id (lib/metrics/request-journey.ts
 * engineJoinOf), else the line naming the file that lacks it; null when the run holds no
 * TensorRT-LLM records.
 */
export async function trtllmEngineOf(db: Db, runId: string, x: string | null) {
  const { total, row } = await requestRowBySharedId(db, runId, x ?? "");
  if (total === 0) return null;
  const name = await trtllmFileNames(db, runId);
  if (!row || x === null) return engineJoinOf(x, [], name);
  return engineJoinOf(x, [engineRequestOfRow(row)], name);
}

/**
 * A run's TensorRT-LLM time events as the journey reads them: the requests sharing a request's
 * ids, and the run's per-role join counts.
 */
interface TimeEvents {
  files: TrtllmTimeEventsPayload["files"];
  fileNames(): string;
  /** Requests a run stored before the pieces left out (counted, not kept), and those it kept */
  leftOut: number;
  kept: number;
  match(ids: JoinIds): Promise<TimeEventMatch[]>;
  joinCounts(perf: PerfIds | null, clientIds: Set<string> | null): Promise<TimeEventJoinRow[]>;
}

/**
 * The run's TensorRT-LLM time events; null when it holds none. Stored in pieces keyed by the ids
 * they join on (lib/store/trtllm-time-events.ts: the run's Parquet file, or the catalog rows of a
 * run stored before it): one request's are read by its ids. A run stored before them holds one list (at most 50,000 requests), read whole as it was.
 */
async function timeEventsOf(db: Db, runId: string): Promise<TimeEvents | null> {
  const filesText = await getChartText(db, runId, TRTLLM_TIME_EVENT_FILES_CHART.key);
  if (filesText !== undefined) {
    const read = trtllmTimeEventFilesPayloadSchema.safeParse(JSON.parse(filesText));
    if (read.success && read.data.pieces > 0) return timeEventPieces(db, runId, read.data.files);
  }
  const payload = (await readLarge(
    db,
    runId,
    TRTLLM_TIME_EVENTS_CHART.key,
    TRTLLM_TIME_EVENTS_CHART.schema,
  )) as TrtllmTimeEventsPayload | null;
  if (!payload || payload.requests.length === 0) return null;
  const index = new TimeEventIndex(payload);
  return {
    files: payload.files,
    fileNames: () => index.fileNames(),
    leftOut: payload.leftOut,
    kept: payload.requests.length,
    match: async (ids) => index.match(ids),
    joinCounts: async (perf, clientIds) => timeEventsJoinCounts(payload, perf, clientIds),
  };
}

/** A stored row of the time events (catalog table or Parquet file) as the piece of a request's time events it holds. */
export function pieceOfRow(r: Omit<TrtllmTimeEventsTable, "run_id">): TimeEventPiece {
  return {
    role: r.role,
    reqKey: r.req_key,
    requestId: r.request_id,
    ctxRequestId: r.ctx_request_id,
    disaggRequestId: r.disagg_request_id,
    file: r.file_no,
    events: JSON.parse(r.events_json) as TimeEventPiece["events"],
  };
}

/** Which id columns each role is looked up by (lib/metrics/trtllm-time-event-join.ts's rule). */
const LOOKUPS: ReadonlyArray<[TimeEventPiece["role"], TimeEventIdColumn, keyof JoinIds]> = [
  ["ctx", "ctx_request_id", "ctxRequestId"],
  ["gen", "ctx_request_id", "ctxRequestId"],
  ["request", "ctx_request_id", "ctxRequestId"],
  ["router", "ctx_request_id", "ctxRequestId"],
  ["ctx", "request_id", "requestId"],
  ["gen", "request_id", "requestId"],
  ["request", "request_id", "requestId"],
  ["router", "disagg_request_id", "disaggRequestId"],
];

function timeEventPieces(db: Db, runId: string, files: TrtllmTimeEventsPayload["files"]): TimeEvents {
  const fileNames = () => files.map((f) => f.file).join(", ") || "the TensorRT-LLM time events";
  return {
    files,
    fileNames,
    leftOut: 0,
    kept: 0,
    async match(ids) {
      const lookups = LOOKUPS.flatMap(([role, column, field]) => {
        const id = ids[field];
        return id === null ? [] : [{ role, column, id }];
      });
      // The requests sharing an id with `ids`, with every row of each: the rule runs on them alone
      // (an id two of them report is no key there, as in the run's whole list).
      const requests = timeEventRequestsOf((await timeEventRowsOf(db, runId, lookups)).map(pieceOfRow));
      return new TimeEventIndex({ files, leftOut: 0, requests }).match(ids);
    },
    async joinCounts(perf, clientIds) {
      const ambiguous = new Set((await ambiguousCtxIds(db, runId)).map((a) => `${a.role}\u0000${a.id}`));
      const counter = new TimeEventJoinCounter(perf, clientIds, (role, ctx) =>
        ambiguous.has(`${role}\u0000${ctx}`),
      );
      // A request's rows come together (by role and key): one request at a time.
      let group: TimeEventPiece[] = [];
      const close = () => {
        for (const r of timeEventRequestsOf(group)) counter.add(r);
        group = [];
      };
      for await (const page of timeEventRowPages(db, runId))
        for (const row of page) {
          const p = pieceOfRow(row);
          if (group.length > 0 && (group[0].role !== p.role || group[0].reqKey !== p.reqKey)) close();
          group.push(p);
        }
      close();
      return counter.result();
    },
  };
}

/** The steady-clock second the run's stored TensorRT-LLM times count from; null for a run stored before it was kept. */
async function clockOriginOf(db: Db, runId: string): Promise<number | null> {
  const text = await getChartText(db, runId, TRTLLM_CLOCK_ORIGIN_CHART.key);
  if (text === undefined) return null;
  const read = trtllmClockOriginPayloadSchema.safeParse(JSON.parse(text));
  return read.success ? read.data.originS : null;
}

/**
 * The journey with the time-event lanes of the requests sharing its ids (lib/metrics/
 * trtllm-time-event-join.ts): set against the engine request's stamps where one is joined, else
 * from the client's send; or the line naming the files that lack the id.
 */
function withTimeEvents(
  journey: RequestJourney,
  index: TimeEvents | null,
  matches: TimeEventMatch[],
  ids: JoinIds,
  engine: EngineClock | null,
  what: string,
): RequestJourney {
  if (!index) return journey;
  if (matches.length === 0) {
    journey.missing.push(
      engine === null && ids.requestId !== null
        ? timeEventsClientMissingNote(index, ids.requestId)
        : timeEventsMissingNote(index, ids, what),
    );
    return journey;
  }
  const { lanes, notes } = timeEventLanes(matches, engine, index.files);
  for (const l of lanes) journey.lanes.push(l);
  for (const n of notes) journey.missing.push(n);
  if (index.leftOut > 0)
    journey.missing.push(
      `${plural(index.leftOut, "time-events request")} beyond the ${index.kept.toLocaleString("en-US")} kept were counted, not kept: a request among them shows no time events`,
    );
  return journey;
}
