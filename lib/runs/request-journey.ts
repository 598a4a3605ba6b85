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
} from "@/lib/api/request-journey";
import { AIPERF_ORIGIN_CHART, originOf } from "@/lib/ingest/timeline-columns";
import { parseJsonInSteps } from "@/lib/metrics/json-in-steps";
import { requestPieceOf } from "@/lib/metrics/request-pieces";
import { checkInSteps } from "@/lib/metrics/schema-in-steps";
import {
  engineJoinOf,
  journeySummaryInSteps,
  requestJourney,
  spanRootsOf,
  type ClientRequest,
  type EngineJoin,
} from "@/lib/metrics/request-journey";
import { emptyTimes, TIME_KEYS } from "@/lib/metrics/time-breakdown";
import { requestRowBySharedId } from "@/lib/store/trtllm-requests";
import type { Db } from "@/lib/store/db";
import { getChartText, getLargeChartText } from "@/lib/store/chart-payloads";
import { aiperfProfilingPages } from "@/lib/store/goodput-rows";
import { getFiles, getRun } from "@/lib/store/runs-repo";
import { inTurns } from "./in-turns";
import { timelineRequest } from "./run-timeline";

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
      `${w.file} lacks x_request_id on ${plural(w.requests, "traced request")}: those cannot be joined`,
    );
  for (const w of f.trace?.withoutId ?? [])
    notes.push(
      `${w.file} lacks x_request_id on ${plural(w.requests, "request_end row")}: those cannot be joined`,
    );
  return notes;
}

/** The run's client↔server gap; null when the run is not ready or holds no Dynamo spans or trace. */
export async function runJourneySummary(db: Db, runId: string): Promise<JourneySummary | null> {
  const run = await getRun(db, runId);
  if (!run || run.status !== "ready") return null;
  const f = await serverFiles(db, runId);
  if (!f.spans && !f.trace) return null;
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
      `${files.join(", ")} lacks x_request_id on ${plural(noId.length, "record")}: those cannot be joined`,
    );
  }
  if (clients.length > 0 && f.originEpochMs === null)
    notes.push("The aiperf records carry no epoch start time: the send gap cannot be measured");
  const summary = await inTurns(
    journeySummaryInSteps(clients, rootsOf(f.spans), f.trace?.requests ?? [], notes),
  );
  if (clients.length > 0 && summary.joined === 0 && noId.length < clients.length)
    summary.notes.push(
      "No aiperf record's x_request_id is named by the Dynamo files: they may be of another run",
    );
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

/**
 * One aiperf request of the timeline (its drill-down id) on one axis with its server spans and
 * trace row and the TensorRT-LLM record sharing its id; null when the run has no such request
 * and none of those. It reads the piece of the request's x_request_id only; a run stored before
 * the pieces reads every span.
 */
export async function timelineRequestJourney(
  db: Db,
  runId: string,
  rid: number,
): Promise<RequestJourney | null> {
  const r = await timelineRequest(db, runId, rid);
  if (!r) return null;
  const x = r.requestId || null;
  const f = await oneRequestFiles(db, runId, x);
  const engine = await trtllmEngineOf(db, runId, x);
  if (!f.spans && !f.trace && !engine) return null;
  const missing: string[] = [];
  if (engine?.note) missing.push(engine.note);
  const spans = x !== null ? (f.spans?.requests.find((s) => s.xRequestId === x) ?? null) : null;
  const trace = x !== null ? (f.trace?.requests.find((t) => t.xRequestId === x) ?? null) : null;
  if (x === null)
    missing.push(
      `This record carries no x_request_id (${r.file ?? "its file"} lacks the id): no server file can be joined`,
    );
  else {
    if (f.spans && !spans)
      missing.push(
        `No traced request names x_request_id ${x}${f.spans.withoutId.length > 0 ? ` (${f.spans.withoutId.map((w) => w.file).join(", ")} lacks the id on some)` : ""}`,
      );
    if (f.trace && !trace)
      missing.push(
        `No request_end row names x_request_id ${x}${f.trace.withoutId.length > 0 ? ` (${f.trace.withoutId.map((w) => w.file).join(", ")} lacks the id on some)` : ""}`,
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
 * The run's TensorRT-LLM request sharing the client's id (lib/metrics/request-journey.ts
 * engineJoinOf), else the line naming the file that lacks it; null when the run holds no
 * TensorRT-LLM records. Stored times are ms from the run's first arrival: read as seconds ÷ 1000,
 * the same steady-clock differences.
 */
export async function trtllmEngineOf(db: Db, runId: string, x: string | null) {
  const { total, row } =
    x !== null ? await requestRowBySharedId(db, runId, x) : await requestRowBySharedId(db, runId, "");
  if (total === 0) return null;
  const files = (await getFiles(db, runId)).filter((file) => file.kind === "trtllm-perf-metrics");
  const name = files.map((file) => file.name).join(", ") || "the TensorRT-LLM perf metrics";
  if (!row || x === null) return engineJoinOf(x, [], name);
  const stored = JSON.parse(row.times_json) as Record<string, number | null>;
  const times = emptyTimes();
  for (const k of TIME_KEYS) times[k] = typeof stored[k] === "number" ? stored[k] / 1000 : null;
  const request: EngineJoin["request"] = {
    mode: row.mode,
    times,
    requestId: row.request_id,
    ctxRequestId: row.ctx_request_id,
    disaggRequestId: row.disagg_request_id,
    ctxServer: row.ctx_server,
    genServer: row.gen_server,
    ctx: null,
    gen: null,
  };
  return engineJoinOf(x, [request], name);
}
