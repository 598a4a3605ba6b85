/**
 * The request timeline of a run (GET /api/runs/{id}/timeline): its columns, stored at ingest
 * (lib/ingest/timeline-columns.ts), read once into a column-wise timeline
 * (lib/metrics/request-timeline.ts), kept for the next windows, then cut to the window asked
 * for. Panning and zooming a million-request run asks for a window every few frames; reading
 * the blob again each time would take a tenth of a second, the rows of an older run seconds.
 */
import { hasTimelineData } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import type { TimelineSeedData, TimelineWindowParams } from "@/lib/api/timeline-query-options";
import {
  AIPERF_LINE_BITS,
  encodeTimelineInSteps,
  timelineQuerySchema,
  type TimelineQuery,
  type TimelineRequest,
} from "@/lib/api/timeline";
import {
  AIPERF_ORIGIN_CHART,
  firstWindowTextFor,
  originOf,
  timelineFromRows,
} from "@/lib/ingest/timeline-columns";
import { stringifyInSteps } from "@/lib/metrics/json-in-steps";
import { timelineWindowInSteps, type RequestTimeline } from "@/lib/metrics/request-timeline";
import { unpackTimelineInSteps } from "@/lib/metrics/request-timeline-pack";
import type { Steps } from "@/lib/metrics/steps";
import type { Db } from "@/lib/store/db";
import { getChartText } from "@/lib/store/chart-payloads";
import { getFiles, getRun, type RunRow } from "@/lib/store/runs-repo";
import {
  hasTimelineColumns,
  readTimelineColumns,
  readTimelineFirstWindow,
} from "@/lib/store/timeline-columns";
import { aiperfRequestAt } from "@/lib/store/timeline-rows";
import { inputsTurnOf } from "@/lib/store/aiperf-inputs-reuse";
import { inTurns } from "./in-turns";

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

/**
 * The columns stored at ingest (one blob read); for a run ingested before they were stored, or
 * stored in another version, its rows, through the builder the ingest uses.
 */
async function build(db: Db, run: RunRow): Promise<RequestTimeline | null> {
  // Read a piece at a time and unpacked a lane grouping at a time: the server answers others
  // meanwhile (a 200,000-request run's first window other than the stored one held it seconds).
  const stored = await readTimelineColumns(db, run.id);
  const t = stored && (await inTurns(unpackTimelineInSteps(stored)));
  if (t) return t;
  const origin = originOf(JSON.parse((await getChartText(db, run.id, AIPERF_ORIGIN_CHART)) ?? "null"));
  return timelineFromRows(db, run.id, await getFiles(db, run.id), origin);
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

/**
 * One window of the run's timeline as the JSON text of its wire form (GET /api/runs/{id}/timeline,
 * lib/api/timeline.ts); null when the run
 * has no per-request rows. The first visit's window was stored at ingest and goes out as stored,
 * the columns read at the first other window (a pan, a zoom, other lanes), not before.
 */
export async function timelinePayloadText(
  db: Db,
  runId: string,
  q: TimelineQuery,
  { storedOnly = false } = {},
): Promise<string | null> {
  const run = await getRun(db, runId);
  if (!run || run.status !== "ready") return null;
  if (!cache.has(cacheKey(run)) && q.from === undefined && q.to === undefined) {
    const first = firstWindowTextFor(await readTimelineFirstWindow(db, run.id), q);
    if (first) return first;
  }
  // The server's own warm-up renders the page without reading a run's timeline into memory.
  if (storedOnly) return null;
  const t = await runTimeline(db, run);
  if (!t) return null;
  // Cut, encoded and written a bounded piece a turn: a window of 20,000 bars of a big run, with
  // their parts, held the server a few hundred ms in one piece.
  return inTurns(windowTextInSteps(t, q));
}

function* windowTextInSteps(t: RequestTimeline, q: TimelineQuery): Steps<string> {
  const window = yield* timelineWindowInSteps(t, {
    fromMs: q.from,
    toMs: q.to,
    lanes: q.lanes,
    limit: q.limit,
  });
  yield;
  const wire = yield* encodeTimelineInSteps(window);
  yield;
  return yield* stringifyInSteps(wire);
}

/** Whose requests the run's timeline draws (its bars' ids are theirs); null without a timeline. */
export async function timelineSource(db: Db, runId: string): Promise<RequestTimeline["source"] | null> {
  const run = await getRun(db, runId);
  if (!run || run.status !== "ready") return null;
  return (await runTimeline(db, run))?.source ?? null;
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
  const records = r.possible_reuse_tokens ?? null;
  const inputs = r.inputs_reuse_tokens ?? null;
  const conversationId = r.conversation_id ?? null;
  const turnIndex = r.turn_index ?? null;
  const turn =
    conversationId !== null && turnIndex !== null
      ? await inputsTurnOf(db, runId, conversationId, turnIndex)
      : undefined;
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
    conversationId,
    turnIndex,
    cachedTokens: r.cached_tokens ?? null,
    // The charts count the estimate wherever inputs.json gave one (lib/metrics/inputs-reuse.ts).
    possibleReuse: {
      records,
      inputs,
      source: inputs !== null ? "inputs" : records !== null ? "records" : null,
      inputsNonText: turn ? turn.non_text === 1 : null,
    },
  };
}

/**
 * The Timeline view's first window for the server render to send with the page, so its canvas
 * needs no round trip after hydration: as JSON text, which the page carries as one string and
 * the browser parses once (components/timeline/timeline-seed.tsx), rather than as an object of
 * some hundred thousand numbers walked one by one on both sides. Null for a run without
 * per-request rows (the view says so) or a window the query schema refuses (the browser's
 * request reports it). `storedOnly`: the stored first window, or nothing without a read started.
 */
export async function timelineSeed(
  db: Db,
  run: RunSummary,
  w: TimelineWindowParams,
  { storedOnly = false } = {},
): Promise<TimelineSeedData | null> {
  if (!hasTimelineData(run)) return null;
  const row = await getRun(db, run.id);
  if (!row || row.status !== "ready") return null;
  const q = timelineQuerySchema.safeParse({
    from: w.from ?? undefined,
    to: w.to ?? undefined,
    lanes: w.lanes ?? undefined,
  });
  if (!q.success) return null;
  // A run with stored columns has its first window stored beside them (or is read in a tenth of
  // a second, stored before that): the window goes out with the page. One stored before them
  // takes seconds to read from its rows: the page is sent at once and the view asks for its
  // window (the read is already under way). The server's warm-up starts no read.
  if (!storedOnly && !cache.has(cacheKey(row)) && !(await hasTimelineColumns(db, run.id))) {
    void runTimeline(db, row).catch(() => {});
    return null;
  }
  const json = await timelinePayloadText(db, run.id, q.data, { storedOnly });
  return json === null ? null : { runId: run.id, window: w, json };
}

/** Drops every kept timeline (tests that re-ingest a run under the same version). */
export function forgetTimelines(): void {
  cache.clear();
}
