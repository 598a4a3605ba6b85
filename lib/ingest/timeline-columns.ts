/**
 * A run's request timeline from its stored per-request rows (docs/metrics.md §Request timeline):
 * built once when the run is ingested, after every analyzer has written and re-anchored its rows,
 * and stored as columns beside the summary; and built the same way for a run stored before the
 * columns were kept. One builder for both, so a stored timeline is exactly what the rows give.
 */
import { inTurns } from "./in-turns";
import { stringifyInSteps } from "@/lib/metrics/json-in-steps";
import type { Steps } from "@/lib/metrics/steps";
import {
  aiperfRequestId,
  decodeTimeline,
  encodeTimeline,
  encodeTimelineInSteps,
  TIMELINE_DEFAULT_LIMIT,
  type TimelinePayload,
  type TimelineWire,
} from "@/lib/api/timeline";
import {
  TIMELINE_WINDOW_VERSION,
  TimelineBuilder,
  TwoPassTimelineBuilder,
  timelineWindowInSteps,
  type RequestTimeline,
} from "@/lib/metrics/request-timeline";
import { packTimeline, TIMELINE_PACK_VERSION } from "@/lib/metrics/request-timeline-pack";
import {
  AIPERF_TIMELINE_SEGMENTS,
  aiperfParts,
  trtllmParts,
  trtllmTimelineSegments,
} from "@/lib/metrics/request-timeline-parts";
import type { SegmentValue } from "@/lib/metrics/time-breakdown";
import type { Db } from "@/lib/store/db";
import { copiesSettled } from "@/lib/store/pg-copy";
import type { FileRow } from "@/lib/store/runs-repo";
import { sqliteWriterFor } from "@/lib/store/sqlite-writer";
import {
  aiperfTimelineFile,
  eachAiperfFileTimelineRow,
  eachAiperfTimelineRow,
  eachTrtllmTimelineRow,
} from "@/lib/store/timeline-rows";
import { writeTimelineFile } from "@/lib/store/columnar/timeline-file";
import { timelineFileColumns, type StoredColumns } from "@/lib/store/timeline-columns";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

/** The stored chart that carries the epoch time of an aiperf run's first request. */
export const AIPERF_ORIGIN_CHART = AIPERF_CHARTS.timeline.key;

/** Where a run's aiperf timeline chart puts its first request on the epoch clock, when it does. */
export function originOf(chart: unknown): number | null {
  const v =
    typeof chart === "object" && chart !== null ? (chart as { originEpochMs?: unknown }).originEpochMs : null;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * `peakBytesHeld`: the most bytes the last aiperf timeline's builder held besides the timeline's
 * own columns and its lane keys (its typed columns when every request is in them), for tests.
 */
const OPTIONS = Symbol.for("runlens.timelineBuildOptions");
export const timelineBuildOptions: { peakBytesHeld: number } = ((
  globalThis as { [OPTIONS]?: { peakBytesHeld: number } }
)[OPTIONS] ??= { peakBytesHeld: 0 });

async function fromTrtllmRows(db: Db, runId: string): Promise<RequestTimeline | null> {
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
  const b = builder as TimelineBuilder | null;
  return b ? inTurns(b.finishInSteps(null)) : null;
}

async function fromAiperfRows(
  db: Db,
  runId: string,
  files: readonly FileRow[],
  originEpochMs: number | null,
): Promise<RequestTimeline | null> {
  // Every file of the run, in the order the drill-down finds them by: imported tools'
  // per-request rows name their own result files.
  const ordered = [...files].sort((a, b) => a.ord - b.ord);
  const fileIndex = new Map(ordered.map((f, i) => [f.id, i]));
  const fileName = new Map(ordered.map((f) => [f.id, f.name]));
  const src = await aiperfTimelineFile(db, runId);
  if (src) return fromAiperfFile(src, ordered, originEpochMs);
  // aiperf's worker is the client process that sent the request (`metadata.worker_id`).
  const builder = new TimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, [
    "conversation",
    "worker",
    "file",
    "none",
  ]);
  const inFileOrder = await eachAiperfTimelineRow(
    db,
    runId,
    ([fileId, line, ok, start, end, ttft, conversation, worker]) => {
      const f = fileIndex.get(fileId) ?? ordered.length;
      if (start === null || end === null) return;
      builder.push(
        aiperfRequestId(f, line),
        start,
        end,
        { conversation, worker, file: fileName.get(fileId) ?? null, none: "" },
        aiperfParts(start, end, ttft, ok === 1),
      );
    },
  );
  if (builder.length === 0) return null;
  timelineBuildOptions.peakBytesHeld = builder.bytes;
  return inTurns(builder.finishInSteps(originEpochMs, { lanesInStartOrder: inFileOrder }));
}

/**
 * The timeline of a run's aiperf request file, read twice in the file's order: the bars' bounds
 * first, then each request placed at its sorted position (`TwoPassTimelineBuilder`), so no copy
 * of the run's rows is held beside the timeline (docs/performance.md §The drill-down's timeline
 * placed in two passes). The timeline the rows read once by `TimelineBuilder` give.
 */
async function fromAiperfFile(
  src: string,
  ordered: readonly FileRow[],
  originEpochMs: number | null,
): Promise<RequestTimeline | null> {
  const fileIndex = new Map(ordered.map((f, i) => [f.id, i]));
  const fileName = new Map(ordered.map((f) => [f.id, f.name]));
  const builder = new TwoPassTimelineBuilder("aiperf", AIPERF_TIMELINE_SEGMENTS, [
    "conversation",
    "worker",
    "file",
    "none",
  ]);
  await eachAiperfFileTimelineRow(
    src,
    ([fileId, line, ok, start, end, ttft]) => {
      if (start === null || end === null) return;
      const id = aiperfRequestId(fileIndex.get(fileId) ?? ordered.length, line);
      builder.count(id, start, end, aiperfParts(start, end, ttft, ok === 1).length / 3);
    },
    { bounds: true },
  );
  if (builder.length === 0) return null;
  timelineBuildOptions.peakBytesHeld = builder.bytes;
  await inTurns(builder.placeInSteps(originEpochMs));
  timelineBuildOptions.peakBytesHeld = Math.max(timelineBuildOptions.peakBytesHeld, builder.bytes);
  await eachAiperfFileTimelineRow(src, ([fileId, line, ok, start, end, ttft, conversation, worker]) => {
    if (start === null || end === null) return;
    builder.place(
      aiperfRequestId(fileIndex.get(fileId) ?? ordered.length, line),
      start,
      end,
      { conversation, worker, file: fileName.get(fileId) ?? null, none: "" },
      aiperfParts(start, end, ttft, ok === 1),
    );
  });
  return inTurns(builder.finishInSteps());
}

/** The run's timeline from its rows; null when it has no per-request rows with a start and an end. */
export async function timelineFromRows(
  db: Db,
  runId: string,
  files: readonly FileRow[],
  originEpochMs: number | null,
): Promise<RequestTimeline | null> {
  return (await fromTrtllmRows(db, runId)) ?? (await fromAiperfRows(db, runId, files, originEpochMs));
}

/**
 * What a first visit of the Timeline view shows, stored beside the columns (docs/metrics.md
 * §Request timeline, "First window"): the whole run on its default lanes at the default bar
 * limit, as the route cuts it from the columns, with the versions it was cut by.
 */
export interface StoredFirstWindow {
  version: number;
  pack: number;
  limit: number;
  /** The payload's lanes, beside it so a request on named lanes is answered without parsing it. */
  lanesBy?: string;
  /** Last: the stored text ends with the payload's own JSON in its wire form, sent as it is. */
  payload: TimelineWire;
}

/**
 * The stored first window of `t`, with a turn of the event loop between the window's steps: cut
 * at ingest from a 100,000-request run in one piece it held the server for 0.4 s.
 */
export async function firstWindowInTurns(t: RequestTimeline): Promise<string> {
  const payload = await inTurns(timelineWindowInSteps(t, { limit: TIMELINE_DEFAULT_LIMIT }));
  return inTurns(storedFirstWindowInSteps(payload));
}

/**
 * Arrays of the stored first window written a slice of this many elements a step: its bars'
 * columns (TIMELINE_DEFAULT_LIMIT long) and its parts' (several a bar).
 */
const FIRST_WINDOW_JSON_SLICE = 2_048;

/**
 * The stored first window's text in steps: its parts encoded (`encodeTimelineInSteps`) and its
 * text written (`stringifyInSteps`) a slice at a time, the text JSON.stringify gives. In one piece
 * they were most of a 25–30 ms slice of a TensorRT-LLM upload's drill-down (issue 31).
 */
function* storedFirstWindowInSteps(payload: TimelinePayload): Steps<string> {
  const wire = yield* encodeTimelineInSteps(payload);
  yield;
  const stored: StoredFirstWindow = {
    version: TIMELINE_WINDOW_VERSION,
    pack: TIMELINE_PACK_VERSION,
    limit: TIMELINE_DEFAULT_LIMIT,
    lanesBy: payload.lanesBy,
    payload: wire,
  };
  return yield* stringifyInSteps(stored, FIRST_WINDOW_JSON_SLICE);
}

const PAYLOAD_KEY = ',"payload":';

/**
 * The stored first window's payload as JSON text, when it answers `q` (the whole run at the
 * limit it was cut at, on the lanes it chose) and was cut by this version; null otherwise, and
 * the window is cut from the columns. The payload is the stored text's last member, after a
 * header of numbers and the lanes' name, so it is sliced out rather than parsed and written
 * again (docs/metrics.md §Request timeline, "First window").
 */
export function firstWindowTextFor(
  json: string | null,
  q: { from?: number; to?: number; lanes?: string; limit: number },
): string | null {
  if (json === null || q.from !== undefined || q.to !== undefined) return null;
  const at = json.indexOf(PAYLOAD_KEY);
  if (at === -1 || !json.endsWith("}")) return null;
  let head: Partial<StoredFirstWindow>;
  try {
    head = JSON.parse(`${json.slice(0, at)}}`) as Partial<StoredFirstWindow>;
  } catch {
    return null;
  }
  if (head.pack !== TIMELINE_PACK_VERSION || head.limit !== q.limit) return null;
  const text = json.slice(at + PAYLOAD_KEY.length, -1);
  if (!text.startsWith("{")) return null;
  // Version 1 stored the payload as the views draw it, with no lanes beside it: put in its wire
  // form once here, rather than the run's columns read for it.
  if (head.version === WINDOW_VERSION_BEFORE_WIRE) {
    const old = parsed<TimelinePayload>(text);
    if (!old || (q.lanes !== undefined && q.lanes !== old.lanesBy)) return null;
    return JSON.stringify(encodeTimeline(old));
  }
  if (head.version !== TIMELINE_WINDOW_VERSION) return null;
  if (q.lanes !== undefined && q.lanes !== head.lanesBy) return null;
  return text;
}

/** The first window's version before its payload was stored in wire form. */
const WINDOW_VERSION_BEFORE_WIRE = 1;

function parsed<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The stored first window's payload when it answers `q` (firstWindowTextFor), as the views draw it. */
export function firstWindowFor(
  json: string | null,
  q: { from?: number; to?: number; lanes?: string; limit: number },
): TimelinePayload | null {
  const text = firstWindowTextFor(json, q);
  const wire = text === null ? null : parsed<TimelineWire>(text);
  return wire && decodeTimeline(wire);
}

/**
 * The columns a run's commit stores (lib/store/timeline-columns.ts) and its first window, from
 * the rows its analyzers wrote; `results` are the analyzers' results, whose aiperf timeline chart carries the epoch
 * time of the first request. Null when the run has no timeline. The columns themselves are
 * written here, as the run's timeline Parquet file (lib/store/columnar/timeline-file.ts); the
 * commit stores their header beside the first window.
 */
export async function timelineColumnsOf(
  db: Db,
  runId: string,
  files: readonly FileRow[],
  results: ReadonlyArray<{ charts?: Record<string, unknown> }>,
): Promise<{ count: number; stored: StoredColumns; firstWindow: string } | null> {
  // Every row handed to the SQLite writer thread or a PostgreSQL COPY is in before the read.
  await sqliteWriterFor(db)?.idle();
  await copiesSettled(db);
  const chart = results.find((r) => r.charts?.[AIPERF_ORIGIN_CHART] !== undefined)?.charts?.[
    AIPERF_ORIGIN_CHART
  ];
  const t = await timelineFromRows(db, runId, files, originOf(chart));
  if (!t) return null;
  const header = await writeTimelineFile(db, runId, packTimeline(t));
  return { count: t.n, stored: timelineFileColumns(header), firstWindow: await firstWindowInTurns(t) };
}
