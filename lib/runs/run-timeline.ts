/**
 * The request timeline of a run (GET /api/runs/{id}/timeline): its requests read once into a
 * column-wise timeline (lib/metrics/request-timeline.ts), kept for the next windows, then cut to
 * the window asked for. Panning and zooming a million-request run asks for a window every few
 * frames; reading the rows again each time would take the better part of a second.
 */
import type { QueryClient } from "@tanstack/react-query";
import { hasTimelineData } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import { timelineQueryOptions, type TimelineWindowParams } from "@/lib/api/timeline-query-options";
import {
  AIPERF_LINE_BITS,
  timelineQuerySchema,
  type TimelinePayload,
  type TimelineQuery,
  type TimelineRequest,
} from "@/lib/api/timeline";
import { TimelineBuilder, timelineWindow, type RequestTimeline } from "@/lib/metrics/request-timeline";
import {
  AIPERF_TIMELINE_SEGMENTS,
  aiperfParts,
  trtllmParts,
  trtllmTimelineSegments,
} from "@/lib/metrics/request-timeline-parts";
import type { SegmentValue } from "@/lib/metrics/time-breakdown";
import type { Db } from "@/lib/store/db";
import { getChartData, getFiles, getRun, type RunRow } from "@/lib/store/runs-repo";
import { aiperfRequestAt, eachAiperfTimelineRow, eachTrtllmTimelineRow } from "@/lib/store/timeline-rows";

/** Timelines of the last few runs asked for: a million-request timeline is ~40 MB. */
const KEEP = 3;
// On globalThis: the production bundle holds one copy of this module per chunk (the route's, the
// page's), and a timeline read by one must be found by the other.
const KEY = Symbol.for("runlens.requestTimelines");
const holder = globalThis as { [KEY]?: Map<string, Promise<RequestTimeline | null>> };
const cache = (holder[KEY] ??= new Map());

/** A run's rows change only when it is re-ingested, which moves `updated_at`. */
const cacheKey = (run: RunRow) => `${run.id}:${run.updated_at}:${run.aggregator_version}`;

const LINE_BITS = AIPERF_LINE_BITS;
export const aiperfRequestId = (fileIndex: number, line: number) => fileIndex * LINE_BITS + line;

async function buildTrtllm(db: Db, runId: string): Promise<RequestTimeline | null> {
  let builder: TimelineBuilder | null = null;
  await eachTrtllmTimelineRow(db, runId, ([idx, mode, ctx, gen, arrival, e2e, timesJson, segmentsJson]) => {
    builder ??= new TimelineBuilder(
      "trtllm",
      trtllmTimelineSegments(mode),
      mode === "disaggregated" ? ["worker", "ctx-worker", "none"] : ["worker", "none"],
    );
    const times = JSON.parse(timesJson) as Record<string, number | null>;
    const parts = trtllmParts(mode, times, JSON.parse(segmentsJson) as SegmentValue[]);
    // The bar spans what was recorded: arrival to last token, widened to any part past it.
    let end = arrival !== null && e2e !== null ? arrival + e2e : null;
    for (let p = 2; p < parts.length; p += 3) end = Math.max(end ?? parts[p], parts[p]);
    // Disaggregated requests are laned by the worker that decoded them; the context side has its own grouping.
    builder.push(idx, arrival, end, { worker: gen ?? ctx, "ctx-worker": ctx, none: "" }, parts);
  });
  return (builder as TimelineBuilder | null)?.finish(null) ?? null;
}

/** Where the run's stored aiperf charts put its first request on the epoch clock, when they do. */
async function aiperfOrigin(db: Db, runId: string): Promise<number | null> {
  const data = await getChartData(db, runId, AIPERF_ORIGIN_CHART);
  if (!data) return null;
  const v = (JSON.parse(data) as { originEpochMs?: unknown }).originEpochMs;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The stored chart that carries the epoch time of an aiperf run's first request. */
export const AIPERF_ORIGIN_CHART = "aiperf-timeline";

async function buildAiperf(db: Db, runId: string): Promise<RequestTimeline | null> {
  // Every file of the run: imported tools' per-request rows name their own result files.
  const files = await getFiles(db, runId);
  const fileIndex = new Map(files.map((f, i) => [f.id, i]));
  const fileName = new Map(files.map((f) => [f.id, f.name]));
  // aiperf's worker is the client process that sent the request (`metadata.worker_id`).
  const builder = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, [
    "conversation",
    "worker",
    "file",
    "none",
  ]);
  await eachAiperfTimelineRow(db, runId, ([fileId, line, ok, start, end, ttft, conversation, worker]) => {
    const f = fileIndex.get(fileId) ?? files.length;
    if (start === null || end === null) return;
    builder.push(
      aiperfRequestId(f, line),
      start,
      end,
      { conversation, worker, file: fileName.get(fileId) ?? null, none: "" },
      aiperfParts(start, end, ttft, ok === 1),
    );
  });
  if (builder.length === 0) return null;
  return builder.finish(await aiperfOrigin(db, runId));
}

async function build(db: Db, run: RunRow): Promise<RequestTimeline | null> {
  return (await buildTrtllm(db, run.id)) ?? (await buildAiperf(db, run.id));
}

/** The run's timeline, read once per version of the run; null when it has no per-request rows. */
export async function runTimeline(db: Db, run: RunRow): Promise<RequestTimeline | null> {
  const key = cacheKey(run);
  let t = cache.get(key);
  if (!t) {
    for (const k of cache.keys()) if (k.startsWith(`${run.id}:`)) cache.delete(k);
    t = build(db, run);
    cache.set(key, t);
    t.catch(() => cache.delete(key));
    while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  } else {
    // Most recently used last, so the oldest is dropped first.
    cache.delete(key);
    cache.set(key, t);
  }
  return t;
}

export async function timelinePayload(
  db: Db,
  runId: string,
  q: TimelineQuery,
): Promise<TimelinePayload | null> {
  const run = await getRun(db, runId);
  if (!run || run.status !== "ready") return null;
  const t = await runTimeline(db, run);
  if (!t) return null;
  return timelineWindow(t, { fromMs: q.from, toMs: q.to, lanes: q.lanes, limit: q.limit });
}

/** One aiperf request of the timeline by its drill-down id; null when the run has none by that id. */
export async function timelineRequest(db: Db, runId: string, id: number): Promise<TimelineRequest | null> {
  const run = await getRun(db, runId);
  if (!run || run.status !== "ready") return null;
  const t = await runTimeline(db, run);
  if (!t || t.source !== "aiperf") return null;
  const at = t.id.indexOf(id);
  if (at === -1) return null;
  const files = await getFiles(db, runId);
  const file = files[Math.floor(id / LINE_BITS)];
  if (!file) return null;
  const r = await aiperfRequestAt(db, runId, file.id, id % LINE_BITS, t.startMs[at]);
  if (!r) return null;
  return {
    id,
    requestId: r.request_id,
    file: file.name,
    line: r.line,
    ok: r.ok === 1,
    cancelled: r.cancelled === 1,
    errorType: r.error_type,
    startMs: r.start_ms,
    endMs: r.end_ms,
    ttftMs: r.ttft_ms,
    e2eMs: r.e2e_ms,
    itlMs: r.itl_ms,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
  };
}

/**
 * The Timeline view's first window, put in the page's cache by the server render, so its canvas
 * needs no round trip after hydration. Nothing is put there for a run without per-request rows
 * (the view says so) or a window the query schema refuses (the browser's request reports it).
 */
export async function prefetchTimeline(
  client: QueryClient,
  db: Db,
  run: RunSummary,
  w: TimelineWindowParams,
): Promise<void> {
  if (!hasTimelineData(run)) return;
  const row = await getRun(db, run.id);
  if (!row || row.status !== "ready") return;
  // A run read for the first time takes seconds: the page is sent at once and the view asks for
  // its window (the read is already under way); only a kept timeline is put in the page.
  if (!cache.has(cacheKey(row))) {
    void runTimeline(db, row).catch(() => {});
    return;
  }
  const q = timelineQuerySchema.safeParse({
    from: w.from ?? undefined,
    to: w.to ?? undefined,
    lanes: w.lanes ?? undefined,
  });
  if (!q.success) return;
  const payload = await timelinePayload(db, run.id, q.data);
  if (payload) client.setQueryData(timelineQueryOptions(run.id, w).queryKey, payload);
}

/** Drops every kept timeline (tests that re-ingest a run under the same version). */
export function forgetTimelines(): void {
  cache.clear();
}
