/**
 * The whole-run request timeline (docs/metrics.md §Request timeline): every request as a bar
 * from its start to its end, split into the parts its producer recorded, on lanes packed into
 * rows. A run's requests are held column-wise, sorted by start, so a window is two binary
 * searches and one pass however large the run: a million requests are ~40 MB here, not a
 * million objects. The same columns are what a run stores at ingest (request-timeline-pack.ts).
 */
import type { TimelineLanes, TimelinePayload } from "@/lib/api/timeline";
import { ChunkedColumn } from "./chunked-column";
import { atOnce, mergeRunsInSteps, type Steps } from "./steps";

export interface TimelineSegmentDef {
  name: string;
  label: string;
  colour: string;
}

/** One lane grouping of the run: the lane of each request (by its sorted position) and the names. */
export interface LaneGrouping {
  keys: string[];
  /** As narrow as the number of keys allows: a million requests on a few lanes are 1 MB, not 4. */
  of: Uint8Array | Uint16Array | Int32Array;
}

/** Requests per block of the coarse window index. */
export const TIMELINE_BLOCK = 1024;

export interface RequestTimeline {
  source: "trtllm" | "aiperf";
  segments: readonly TimelineSegmentDef[];
  n: number;
  id: Int32Array;
  startMs: Float64Array;
  endMs: Float64Array;
  /**
   * The coarse window index: entry b is the largest end among requests 0 … (b+1)·TIMELINE_BLOCK−1
   * (by start). It never decreases, so the first block that may hold a request still running at
   * a time is found by binary search, however long the longest request; a window then scans at
   * most one block it does not need.
   */
  blockMaxEndMs: Float64Array;
  /** Parts of request i: entries partOffset[i] … partOffset[i+1]-1. */
  partOffset: Int32Array;
  partSeg: Uint8Array;
  partStartMs: Float64Array;
  partEndMs: Float64Array;
  lanes: Partial<Record<TimelineLanes, LaneGrouping>>;
  originEpochMs: number | null;
}

/**
 * Collects requests in any order (as the store reads them), then sorts them by start once.
 * Lane keys are per grouping; a request without a key for a grouping goes to its "unknown" lane.
 *
 * The requests are held in chunked typed columns (lib/metrics/chunked-column.ts), about 74 bytes
 * a request with two parts and four groupings, and `finish` moves them into the timeline one
 * column at a time, each builder column released once copied: the builder and the timeline are
 * never both held whole (docs/performance.md §Ingest memory of an aiperf upload).
 */
export class TimelineBuilder {
  private readonly id = new ChunkedColumn(Int32Array);
  private readonly start = new ChunkedColumn(Float64Array);
  private readonly end = new ChunkedColumn(Float64Array);
  /** Parts pushed up to and including each request: request i's are partsTo[i-1] … partsTo[i]-1. */
  private readonly partsTo = new ChunkedColumn(Int32Array);
  private readonly partSeg = new ChunkedColumn(Uint8Array);
  private readonly partStart = new ChunkedColumn(Float64Array);
  private readonly partEnd = new ChunkedColumn(Float64Array);
  private readonly laneKeys = new Map<
    TimelineLanes,
    { index: Map<string, number>; of: ChunkedColumn<Int32Array> }
  >();

  constructor(
    readonly source: "trtllm" | "aiperf",
    readonly segments: readonly TimelineSegmentDef[],
    readonly groupings: readonly TimelineLanes[],
  ) {
    for (const g of groupings) this.laneKeys.set(g, { index: new Map(), of: new ChunkedColumn(Int32Array) });
  }

  get length(): number {
    return this.id.length;
  }

  /** Bytes of the builder's columns (their chunks' capacity), not counting the lane keys. */
  get bytes(): number {
    let b = 0;
    for (const c of [this.id, this.start, this.end, this.partsTo, this.partSeg, this.partStart, this.partEnd])
      b += c.bytes;
    for (const k of this.laneKeys.values()) b += k.of.bytes;
    return b;
  }

  /** `parts` is flat: segment index, start ms, end ms, … A request without a start or an end is left out. */
  push(
    id: number,
    startMs: number | null,
    endMs: number | null,
    lanes: Partial<Record<TimelineLanes, string | null>>,
    parts: readonly number[],
  ): void {
    if (startMs === null || endMs === null || !Number.isFinite(startMs) || !Number.isFinite(endMs)) return;
    this.id.push(id);
    this.start.push(startMs);
    this.end.push(Math.max(startMs, endMs));
    for (let p = 0; p < parts.length; p += 3) {
      this.partSeg.push(parts[p]);
      this.partStart.push(parts[p + 1]);
      this.partEnd.push(parts[p + 2]);
    }
    this.partsTo.push(this.partSeg.length);
    for (const [g, k] of this.laneKeys) {
      const key = lanes[g] ?? "";
      let at = k.index.get(key);
      if (at === undefined) k.index.set(key, (at = k.index.size));
      k.of.push(at);
    }
  }

  /**
   * `lanesInStartOrder`: number each grouping's lanes by their first request in start order
   * rather than in the order the requests were pushed, so requests read in any order give the
   * lanes that a read by start gives. The builder is empty afterwards.
   */
  finish(originEpochMs: number | null = null, opts: { lanesInStartOrder?: boolean } = {}): RequestTimeline {
    return atOnce(this.finishInSteps(originEpochMs, opts));
  }

  /**
   * `finish` in steps of some FINISH_STEP requests or parts each: the sort by start (sorted runs,
   * then merged) and every column's copy, so a server builds a big run's timeline between other
   * requests (a 100,000-request run's sort and copies held the loop for a third of a second).
   * The same timeline, value for value.
   */
  *finishInSteps(
    originEpochMs: number | null = null,
    { lanesInStartOrder = false } = {},
  ): Steps<RequestTimeline> {
    const n = this.id.length;
    const parts = this.partSeg.length;
    const order = yield* sortedOrder(n, byStartThenId(this.start, this.id));
    const t = emptyTimeline(this.source, this.segments, n, originEpochMs);
    yield;
    // Each column is copied in start order, then the builder's is released.
    const firstPart = (src: number) => (src === 0 ? 0 : this.partsTo.get(src - 1));
    for (let i = 0; i < n; i++) {
      const src = order[i];
      t.partOffset[i + 1] = t.partOffset[i] + this.partsTo.get(src) - firstPart(src);
      if ((i + 1) % FINISH_STEP === 0) yield;
    }
    const partsTo = this.partsTo;
    function* moveParts<T extends Float64Array | Uint8Array>(from: ChunkedColumn<T>, to: T): Steps<T> {
      let work = 0;
      for (let i = 0; i < n; i++) {
        const src = order[i];
        const last = partsTo.get(src);
        for (let p = firstPart(src), at = t.partOffset[i]; p < last; p++, at++) to[at] = from.get(p);
        work += 1 + last - firstPart(src);
        if (work >= FINISH_STEP) {
          work = 0;
          yield;
        }
      }
      from.release();
      return to;
    }
    t.partStartMs = yield* moveParts(this.partStart, new Float64Array(parts));
    t.partEndMs = yield* moveParts(this.partEnd, new Float64Array(parts));
    t.partSeg = yield* moveParts(this.partSeg, new Uint8Array(parts));
    this.partsTo.release();
    yield* moveInOrder(this.end, order, t.endMs);
    this.end.release();
    fillBlockMaxEnd(t);
    yield;
    // The sort is done: start and id are no longer read through the comparator.
    yield* moveInOrder(this.start, order, t.startMs);
    this.start.release();
    yield* moveInOrder(this.id, order, t.id);
    this.id.release();
    for (const [g, k] of this.laneKeys) {
      const of = laneColumn(k.index.size, n);
      const keys = [...k.index.keys()];
      k.index.clear();
      if (!lanesInStartOrder) {
        for (let i = 0; i < n; i++) {
          of[i] = k.of.get(order[i]);
          if ((i + 1) % FINISH_STEP === 0) yield;
        }
        k.of.release();
        t.lanes[g] = { keys, of };
        continue;
      }
      const was = k.of;
      t.lanes[g] = { keys: yield* renumberLanesInStartOrder(keys, (i) => was.get(order[i]), of), of };
      was.release();
    }
    return t;
  }
}

/**
 * A timeline built from requests read twice in the same order (a run's stored request file, read
 * by DuckDB), placed straight into the timeline's own columns: the first pass (`count`) keeps
 * each request's start, id and number of parts (13 bytes a request), `placeInSteps` sorts them
 * and makes the timeline's columns, and the second pass (`place`) writes each request's end,
 * parts and lanes at its sorted position. Nothing but the timeline grows with the run beyond
 * 4 bytes a request (each request's sorted position) and the lane keys, where `TimelineBuilder`
 * held every value of every request in its chunks (some 74 bytes a request) and then copied them
 * into the timeline (docs/performance.md §The drill-down's timeline placed in two passes).
 * The same timeline as `TimelineBuilder.finish` with `lanesInStartOrder`, value for value;
 * at most 255 parts a request.
 */
export class TwoPassTimelineBuilder {
  private start: ChunkedColumn<Float64Array> | null = new ChunkedColumn(Float64Array);
  private id: ChunkedColumn<Int32Array> | null = new ChunkedColumn(Int32Array);
  private partCount: ChunkedColumn<Uint8Array> | null = new ChunkedColumn(Uint8Array);
  /** The sorted position of each request counted, by its place in the passes */
  private rank: Int32Array | null = null;
  private placed = 0;
  private t: RequestTimeline | null = null;
  private readonly laneKeys = new Map<
    TimelineLanes,
    { index: Map<string, number>; of: LaneGrouping["of"] }
  >();

  constructor(
    readonly source: "trtllm" | "aiperf",
    readonly segments: readonly TimelineSegmentDef[],
    readonly groupings: readonly TimelineLanes[],
  ) {}

  /** Requests counted by the first pass (those with a start and an end). */
  get length(): number {
    return this.t ? this.t.n : this.id!.length;
  }

  /** Bytes the builder holds besides the timeline's own columns and the lane keys. */
  get bytes(): number {
    let b = this.rank ? this.rank.byteLength : 0;
    for (const c of [this.start, this.id, this.partCount]) b += c ? c.bytes : 0;
    return b;
  }

  /** The first pass: a request without a start or an end is left out (as `place` leaves it out). */
  count(id: number, startMs: number | null, endMs: number | null, parts: number): void {
    if (!kept(startMs, endMs)) return;
    if (!Number.isInteger(parts) || parts < 0 || parts > 255)
      throw new Error(`${parts} parts in one request`);
    this.id!.push(id);
    this.start!.push(startMs);
    this.partCount!.push(parts);
  }

  /** Between the passes: sorts the counted requests by start (ties by id) and makes the timeline's columns. */
  *placeInSteps(originEpochMs: number | null = null): Steps<void> {
    const start = this.start!;
    const id = this.id!;
    const n = id.length;
    const order = yield* sortedOrder(n, byStartThenId(start, id));
    const t = emptyTimeline(this.source, this.segments, n, originEpochMs);
    yield* moveInOrder(start, order, t.startMs);
    start.release();
    this.start = null;
    yield* moveInOrder(id, order, t.id);
    id.release();
    this.id = null;
    const counts = this.partCount!;
    for (let i = 0; i < n; i++) {
      t.partOffset[i + 1] = t.partOffset[i] + counts.get(order[i]);
      if ((i + 1) % FINISH_STEP === 0) yield;
    }
    counts.release();
    this.partCount = null;
    // The order turned inside out, in place of a second array: rank[k] is request k's position.
    const rank = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      rank[order[i]] = i;
      if ((i + 1) % FINISH_STEP === 0) yield;
    }
    this.rank = rank;
    const parts = t.partOffset[n];
    t.partSeg = new Uint8Array(parts);
    t.partStartMs = new Float64Array(parts);
    t.partEndMs = new Float64Array(parts);
    for (const g of this.groupings) this.laneKeys.set(g, { index: new Map(), of: new Uint8Array(n) });
    this.t = t;
  }

  /**
   * The second pass, the same requests in the same order as `count` had them: `parts` is flat
   * (segment index, start ms, end ms, …), as many parts as counted.
   */
  place(
    id: number,
    startMs: number | null,
    endMs: number | null,
    lanes: Partial<Record<TimelineLanes, string | null>>,
    parts: readonly number[],
  ): void {
    if (!kept(startMs, endMs)) return;
    const t = this.t!;
    const k = this.placed++;
    const at = this.rank![k];
    if (k >= t.n || t.id[at] !== id || t.startMs[at] !== startMs)
      throw new Error("the timeline's second pass read other requests than its first");
    t.endMs[at] = Math.max(startMs, endMs as number);
    let p = t.partOffset[at];
    if (parts.length !== 3 * (t.partOffset[at + 1] - p))
      throw new Error("the timeline's second pass read other parts than its first");
    for (let q = 0; q < parts.length; q += 3, p++) {
      t.partSeg[p] = parts[q];
      t.partStartMs[p] = parts[q + 1];
      t.partEndMs[p] = parts[q + 2];
    }
    for (const [g, l] of this.laneKeys) {
      const key = lanes[g] ?? "";
      let v = l.index.get(key);
      if (v === undefined) {
        l.index.set(key, (v = l.index.size));
        // A column as narrow as the keys so far: widened (once or twice) as they pass a type's range.
        if (v === 0x100 || v === 0x10000) {
          const wider = laneColumn(v + 1, t.n);
          wider.set(l.of);
          l.of = wider;
        }
      }
      l.of[at] = v;
    }
  }

  /** After the second pass: the coarse window index, and each grouping's lanes numbered in start order. */
  *finishInSteps(): Steps<RequestTimeline> {
    const t = this.t!;
    const n = t.n;
    if (this.placed !== n) throw new Error("the timeline's second pass read fewer requests than its first");
    this.rank = null;
    fillBlockMaxEnd(t);
    yield;
    for (const [g, l] of this.laneKeys) {
      const keys = [...l.index.keys()];
      l.index.clear();
      const of = l.of;
      t.lanes[g] = { keys: yield* renumberLanesInStartOrder(keys, (i) => of[i], of), of };
    }
    this.laneKeys.clear();
    this.t = null;
    return t;
  }
}

/** Whether a request has the start and end a bar needs. */
function kept(startMs: number | null, endMs: number | null): startMs is number {
  return startMs !== null && endMs !== null && Number.isFinite(startMs) && Number.isFinite(endMs);
}

/** Requests (or parts) the timeline builder's `finishInSteps` sorts, merges or copies a step. */
export const FINISH_STEP = 8192;

/** The requests' order on the timeline: by start, ties by drill-down id, so a run reads the same order (and the same sample) every time. */
function byStartThenId(
  start: ChunkedColumn<Float64Array>,
  id: ChunkedColumn<Int32Array>,
): (a: number, b: number) => number {
  return (a, b) => start.get(a) - start.get(b) || id.get(a) - id.get(b);
}

/** A timeline of `n` requests with its per-request columns made and zero, no parts and no lanes yet. */
function emptyTimeline(
  source: RequestTimeline["source"],
  segments: readonly TimelineSegmentDef[],
  n: number,
  originEpochMs: number | null,
): RequestTimeline {
  return {
    source,
    segments,
    n,
    id: new Int32Array(n),
    startMs: new Float64Array(n),
    endMs: new Float64Array(n),
    blockMaxEndMs: new Float64Array(Math.ceil(n / TIMELINE_BLOCK)),
    partOffset: new Int32Array(n + 1),
    partSeg: new Uint8Array(0),
    partStartMs: new Float64Array(0),
    partEndMs: new Float64Array(0),
    lanes: {},
    originEpochMs,
  };
}

/** `to[i]` = `from`'s value at `order[i]`, FINISH_STEP a step. */
function* moveInOrder<T extends Float64Array | Int32Array>(
  from: ChunkedColumn<T>,
  order: Int32Array,
  to: T,
): Steps<void> {
  for (let i = 0; i < to.length; i++) {
    to[i] = from.get(order[i]);
    if ((i + 1) % FINISH_STEP === 0) yield;
  }
}

/** The coarse window index of a timeline whose ends are in place (`RequestTimeline.blockMaxEndMs`). */
function fillBlockMaxEnd(t: RequestTimeline): void {
  let maxEnd = -Infinity;
  for (let i = 0; i < t.n; i++) {
    maxEnd = Math.max(maxEnd, t.endMs[i]);
    t.blockMaxEndMs[Math.floor(i / TIMELINE_BLOCK)] = maxEnd;
  }
}

/**
 * A grouping's lanes numbered by their first request in start order: `was(i)` is the lane, as
 * first numbered, of the request at sorted position i; `of` (as long as the timeline) gets the new
 * numbers, and the keys come back in their new order. FINISH_STEP requests a step.
 */
function* renumberLanesInStartOrder(
  keys: readonly string[],
  was: (i: number) => number,
  of: LaneGrouping["of"],
): Steps<string[]> {
  const renumbered = new Int32Array(keys.length).fill(-1);
  const inOrder: string[] = [];
  for (let i = 0; i < of.length; i++) {
    const w = was(i);
    if (renumbered[w] < 0) {
      renumbered[w] = inOrder.length;
      inOrder.push(keys[w]);
    }
    of[i] = renumbered[w];
    if ((i + 1) % FINISH_STEP === 0) yield;
  }
  return inOrder;
}

/**
 * The positions 0 … n−1 in the order `before` gives, in steps: already in order (requests read
 * by start) it is one pass; else runs of FINISH_STEP sorted one a step, then merged pairwise,
 * FINISH_STEP positions a step. A stable merge of runs each sorted by a total order: the order
 * one `sort` gives.
 */
function* sortedOrder(n: number, before: (a: number, b: number) => number): Steps<Int32Array> {
  const src = new Int32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    sorted = before(i - 1, i) <= 0;
    if (i % FINISH_STEP === 0) yield;
  }
  if (sorted) return src;
  for (let lo = 0; lo < n; lo += FINISH_STEP) {
    yield;
    src.subarray(lo, Math.min(n, lo + FINISH_STEP)).sort(before);
  }
  return yield* mergeRunsInSteps(src, FINISH_STEP, (x, y) => before(x, y) < 0, FINISH_STEP);
}

/** A column of `n` lane numbers below `keys`, in the narrowest integer type that holds them. */
export function laneColumn(keys: number, n: number): LaneGrouping["of"] {
  if (keys <= 0x100) return new Uint8Array(n);
  if (keys <= 0x10000) return new Uint16Array(n);
  return new Int32Array(n);
}

/** First index in [0, n) whose value is ≥ x (n when none), for a non-decreasing array. */
function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > x. */
function upperBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The sorted positions [lo, hi) that may overlap [from, to]: every request before `lo` ended
 * before `from` (its block's running maximum of ends says so), every one from `hi` on starts
 * after `to`. Those in between still need their own end checked.
 */
export function windowCandidates(t: RequestTimeline, fromMs: number, toMs: number): [number, number] {
  const lo = Math.min(t.n, lowerBound(t.blockMaxEndMs, fromMs) * TIMELINE_BLOCK);
  return [lo, Math.max(lo, upperBound(t.startMs, toMs))];
}

/** The largest end of the run's requests (its end on the timeline); 0 for none. */
export const runEndMs = (t: RequestTimeline) =>
  t.blockMaxEndMs.length > 0 ? t.blockMaxEndMs[t.blockMaxEndMs.length - 1] : 0;

/** The sorted positions of the requests that overlap [from, to] (a request touching an edge counts). */
export function overlapping(t: RequestTimeline, fromMs: number, toMs: number): number[] {
  const [lo, hi] = windowCandidates(t, fromMs, toMs);
  const out: number[] = [];
  for (let i = lo; i < hi; i++) if (t.endMs[i] >= fromMs) out.push(i);
  return out;
}

/**
 * The sampling rule: above `limit` requests in the window, every k-th by start time, k the
 * smallest stride that keeps at most `limit`. A stride keeps the run's shape (bursts stay
 * bursts) where "the first `limit`" would show only the window's start.
 */
export function sampleStride(count: number, limit: number): number {
  return Math.max(1, Math.ceil(count / limit));
}

const ordinal = (k: number) => {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[k % 10] ?? "th");
  return `${k.toLocaleString("en-US")}${suffix}`;
};

export function sampleNote(stride: number, shown: number, inWindow: number): string | null {
  if (stride === 1) return null;
  return `A sample: every ${ordinal(stride)} request by start time, ${shown.toLocaleString("en-US")} of the ${inWindow.toLocaleString("en-US")} in this window. Zoom in to see every request.`;
}

/**
 * Rows within one lane: each bar takes the first row free at its start (bars in start order),
 * so concurrent requests stack and a lane is as tall as its peak concurrency among the shown bars.
 */
export function packRows(start: ArrayLike<number>, end: ArrayLike<number>, lane: ArrayLike<number>) {
  return atOnce(packRowsInSteps(start, end, lane));
}

/** Bars, parts or candidates handled per step of a window (a step is well under 10 ms). */
export const WINDOW_STEP = 4096;

/** packRows in steps: a step every WINDOW_STEP bars, or as many rows looked at. */
export function* packRowsInSteps(
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  lane: ArrayLike<number>,
): Steps<{ row: number[]; rowsOf: (l: number) => number }> {
  const rowEnds = new Map<number, number[]>();
  const row = new Array<number>(start.length);
  let work = 0;
  for (let i = 0; i < start.length; i++) {
    let ends = rowEnds.get(lane[i]);
    if (!ends) rowEnds.set(lane[i], (ends = []));
    let r = ends.findIndex((e) => e <= start[i]);
    work += 1 + (r === -1 ? ends.length : r);
    if (r === -1) r = ends.push(end[i]) - 1;
    else ends[r] = end[i];
    row[i] = r;
    if (work >= WINDOW_STEP) {
      work = 0;
      yield;
    }
  }
  return { row, rowsOf: (l: number) => rowEnds.get(l)?.length ?? 0 };
}

const LANE_LABELS: Record<TimelineLanes, string> = {
  worker: "worker",
  "ctx-worker": "context worker",
  conversation: "conversation",
  file: "file",
  none: "requests",
};

/**
 * The groupings a run offers: "none" always; the others when they split the run into several
 * lanes, and a TensorRT-LLM worker grouping also when it names the one worker (one file, or one
 * aiperf client worker, is no grouping).
 */
export function laneChoices(t: RequestTimeline): TimelineLanes[] {
  const out: TimelineLanes[] = [];
  for (const [g, l] of Object.entries(t.lanes) as [TimelineLanes, LaneGrouping][]) {
    const named = l.keys.some((k) => k !== "");
    // A TensorRT-LLM worker is a server, worth naming alone; aiperf's one worker is the client.
    const worker = (g === "worker" || g === "ctx-worker") && t.source === "trtllm";
    // A conversation of one request each (a single-turn run) is no grouping.
    const multiTurn = g !== "conversation" || l.keys.length <= t.n / 2;
    if (g !== "none" && named && multiTurn && (l.keys.length > 1 || worker)) out.push(g);
  }
  out.push("none");
  return out;
}

/**
 * The lane grouping asked for when the run has it, else the most telling one it has: a TensorRT-LLM
 * run's servers, the files of an upload of several, else every request packed into as few rows as never overlap, which is the
 * concurrency the run held (a c=4 run reads as 4 slots). Conversation lanes are a choice, not the
 * default: 100 lanes of a 2-turn run were a 3,400 px page of empty rows that hid the concurrency.
 */
export function pickLanes(t: RequestTimeline, asked: TimelineLanes | undefined): TimelineLanes {
  const choices = laneChoices(t);
  if (asked && choices.includes(asked)) return asked;
  // aiperf's workers are its client processes, not the server's slots: not a default.
  if (t.source === "trtllm" && choices.includes("worker")) return "worker";
  return choices.includes("file") ? "file" : "none";
  return "none";
}

const natural = new Intl.Collator("en", { numeric: true });
/** More lanes than this read as a smear of 2 px rows; the rest of the conversations share one lane. */
export const MAX_LANES = 100;
const round = (v: number) => Math.round(v * 100) / 100;

/**
 * Bumped when what timelineWindow answers changes: a first window stored at ingest by another
 * version is not served (lib/runs/run-timeline.ts cuts it from the columns instead).
 */
export const TIMELINE_WINDOW_VERSION = 3;

/** The payload of one window: the overlapping requests (or their sample), laned and packed. */
export function timelineWindow(
  t: RequestTimeline,
  q: { fromMs?: number; toMs?: number; lanes?: TimelineLanes; limit: number },
): TimelinePayload {
  return atOnce(timelineWindowInSteps(t, q));
}

/**
 * timelineWindow in steps: its passes over the candidates, the packing and the parts a bounded
 * piece (WINDOW_STEP) at a time, so a server cuts a window of a big run between other requests.
 */
export function* timelineWindowInSteps(
  t: RequestTimeline,
  q: { fromMs?: number; toMs?: number; lanes?: TimelineLanes; limit: number },
): Steps<TimelinePayload> {
  const runStart = t.n > 0 ? t.startMs[0] : 0;
  const runEnd = runEndMs(t);
  const fromMs = q.fromMs ?? runStart;
  const toMs = Math.max(q.toMs ?? runEnd, fromMs);
  const lanesBy = pickLanes(t, q.lanes);
  const grouping = t.lanes[lanesBy];
  // Two passes over the window's candidates, nothing allocated per request: a whole
  // million-request run is counted, then every k-th picked.
  const [lo, hi] = windowCandidates(t, fromMs, toMs);
  const of = grouping?.of ?? new Uint8Array(t.n);
  const perLane = new Int32Array(grouping ? grouping.keys.length : 1);
  let inWindow = 0;
  for (let s = lo; s < hi; s += WINDOW_STEP) {
    yield;
    const e = Math.min(hi, s + WINDOW_STEP);
    for (let i = s; i < e; i++)
      if (t.endMs[i] >= fromMs) {
        inWindow++;
        perLane[of[i]]++;
      }
  }
  const stride = sampleStride(inWindow, q.limit);
  const shown: number[] = [];
  for (let s = lo, k = 0; s < hi; s += WINDOW_STEP) {
    yield;
    const e = Math.min(hi, s + WINDOW_STEP);
    for (let i = s; i < e; i++) if (t.endMs[i] >= fromMs && k++ % stride === 0) shown.push(i);
  }

  // Workers and files in natural order of their names, the unnamed lane last, every one with
  // requests here. Conversations, which are many, in order of their first drawn request, only
  // those drawn; past MAX_LANES the rest share one lane, so nothing drawn is left out.
  const laneOf = (i: number) => of[i];
  const keyOf = (l: number) => (grouping ? grouping.keys[l] : "");
  const byConversation = lanesBy === "conversation";
  const candidates = byConversation
    ? [...new Set(shown.map(laneOf))]
    : [...perLane.keys()]
        .filter((l) => perLane[l] > 0)
        .sort((a, b) => {
          const ka = keyOf(a);
          const kb = keyOf(b);
          return ka === "" ? 1 : kb === "" ? -1 : natural.compare(ka, kb);
        });
  const folded = candidates.length > MAX_LANES;
  const used = folded ? candidates.slice(0, MAX_LANES - 1) : candidates;
  const position = new Map(used.map((l, p) => [l, p]));
  const lane = shown.map((i) => position.get(laneOf(i)) ?? used.length);
  yield;
  const { row, rowsOf } = yield* packRowsInSteps(
    shown.map((i) => t.startMs[i]),
    shown.map((i) => t.endMs[i]),
    lane,
  );
  const parts: TimelinePayload["parts"] = { bar: [], seg: [], startMs: [], endMs: [] };
  let work = 0;
  for (let b = 0; b < shown.length; b++) {
    const i = shown[b];
    for (let p = t.partOffset[i]; p < t.partOffset[i + 1]; p++) {
      parts.bar.push(b);
      parts.seg.push(t.partSeg[p]);
      parts.startMs.push(round(t.partStartMs[p]));
      parts.endMs.push(round(t.partEndMs[p]));
    }
    work += 1 + t.partOffset[i + 1] - t.partOffset[i];
    if (work >= WINDOW_STEP) {
      work = 0;
      yield;
    }
  }
  yield;
  return {
    source: t.source,
    run: { startMs: runStart, endMs: runEnd, requests: t.n },
    window: { fromMs, toMs },
    lanesBy,
    laneChoices: laneChoices(t),
    lanes: [
      ...used.map((l, p) => ({
        key: keyOf(l),
        label: keyOf(l) || (lanesBy === "none" ? "all requests" : `no ${LANE_LABELS[lanesBy]} recorded`),
        rows: rowsOf(p),
        requests: perLane[l],
      })),
      ...(folded
        ? [
            {
              key: "",
              label: `${(candidates.length - used.length).toLocaleString("en-US")} other ${LANE_LABELS[lanesBy]}s`,
              rows: rowsOf(used.length),
              requests: inWindow - used.reduce((n, l) => n + perLane[l], 0),
            },
          ]
        : []),
    ],
    inWindow,
    stride,
    sampleNote: sampleNote(stride, shown.length, inWindow),
    segments: [...t.segments],
    bars: {
      id: shown.map((i) => t.id[i]),
      lane,
      row,
      startMs: shown.map((i) => round(t.startMs[i])),
      endMs: shown.map((i) => round(t.endMs[i])),
    },
    parts,
    originEpochMs: t.originEpochMs,
  };
}
