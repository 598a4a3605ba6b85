/**
 * A request timeline as the columns a run stores at ingest (docs/metrics.md §Request timeline),
 * and back. The columns are the timeline's own typed arrays, sorted by start, with the coarse
 * window index, so unpacking allocates nothing per request: the first window of a
 * million-request run is one blob read and two binary searches away.
 */
import { TIMELINE_LANES, type TimelineLanes } from "@/lib/api/timeline";
import {
  TIMELINE_BLOCK,
  type LaneGrouping,
  type RequestTimeline,
  type TimelineSegmentDef,
} from "./request-timeline";
import { atOnce, type Steps } from "./steps";

/** Bumped when the columns change meaning; a stored timeline of another version is read from rows. */
export const TIMELINE_PACK_VERSION = 1;

type Column = Float64Array | Int32Array | Uint16Array | Uint8Array;

export interface PackedTimeline {
  meta: {
    version: number;
    source: "trtllm" | "aiperf";
    n: number;
    block: number;
    segments: TimelineSegmentDef[];
    originEpochMs: number | null;
    /** Each lane grouping's keys; its lane column is `lane:<by>`. */
    lanes: Array<{ by: TimelineLanes; keys: string[] }>;
  };
  columns: Record<string, Column>;
}

export function packTimeline(t: RequestTimeline): PackedTimeline {
  const columns: Record<string, Column> = {
    id: t.id,
    startMs: t.startMs,
    endMs: t.endMs,
    blockMaxEndMs: t.blockMaxEndMs,
    partOffset: t.partOffset,
    partSeg: t.partSeg,
    partStartMs: t.partStartMs,
    partEndMs: t.partEndMs,
  };
  const lanes: PackedTimeline["meta"]["lanes"] = [];
  for (const [by, g] of Object.entries(t.lanes) as Array<[TimelineLanes, LaneGrouping]>) {
    lanes.push({ by, keys: g.keys });
    columns[`lane:${by}`] = g.of;
  }
  return {
    meta: {
      version: TIMELINE_PACK_VERSION,
      source: t.source,
      n: t.n,
      block: TIMELINE_BLOCK,
      segments: t.segments.map((s) => ({ name: s.name, label: s.label, colour: s.colour })),
      originEpochMs: t.originEpochMs,
      lanes,
    },
    columns,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function column<T extends Column>(
  columns: Record<string, Column>,
  name: string,
  type: new (n: number) => T,
  length: number,
): T | null {
  const c = columns[name];
  return c instanceof type && c.length === length ? c : null;
}

/** The running maximum of ends per block, for columns stored with another block size. */
function blockIndex(endMs: Float64Array): Float64Array {
  const out = new Float64Array(Math.ceil(endMs.length / TIMELINE_BLOCK));
  let max = -Infinity;
  for (let i = 0; i < endMs.length; i++) {
    if (endMs[i] > max) max = endMs[i];
    out[Math.floor(i / TIMELINE_BLOCK)] = max;
  }
  return out;
}

/**
 * The timeline of stored columns; null when they are not a timeline of this version (another
 * version, a missing or short column, a lane past its keys), so the caller reads the rows instead.
 */
export function unpackTimeline(stored: {
  meta: unknown;
  columns: Record<string, Column>;
}): RequestTimeline | null {
  return atOnce(unpackTimelineInSteps(stored));
}

/** unpackTimeline in steps: one lane grouping (its keys and the check of every request's lane) a step. */
export function* unpackTimelineInSteps(stored: {
  meta: unknown;
  columns: Record<string, Column>;
}): Steps<RequestTimeline | null> {
  const m = stored.meta;
  if (!isObject(m) || m.version !== TIMELINE_PACK_VERSION) return null;
  if (m.source !== "trtllm" && m.source !== "aiperf") return null;
  const n = m.n;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) return null;
  if (!Array.isArray(m.segments) || !Array.isArray(m.lanes)) return null;
  const c = stored.columns;
  const id = column(c, "id", Int32Array, n);
  const startMs = column(c, "startMs", Float64Array, n);
  const endMs = column(c, "endMs", Float64Array, n);
  const partOffset = column(c, "partOffset", Int32Array, n + 1);
  if (!id || !startMs || !endMs || !partOffset) return null;
  const parts = partOffset[n];
  const partSeg = column(c, "partSeg", Uint8Array, parts);
  const partStartMs = column(c, "partStartMs", Float64Array, parts);
  const partEndMs = column(c, "partEndMs", Float64Array, parts);
  if (!partSeg || !partStartMs || !partEndMs) return null;
  const blocks = Math.ceil(n / TIMELINE_BLOCK);
  const blockMaxEndMs =
    m.block === TIMELINE_BLOCK ? column(c, "blockMaxEndMs", Float64Array, blocks) : blockIndex(endMs);
  if (!blockMaxEndMs) return null;
  const lanes: RequestTimeline["lanes"] = {};
  for (const l of m.lanes as unknown[]) {
    yield;
    if (!isObject(l) || !Array.isArray(l.keys) || !TIMELINE_LANES.includes(l.by as TimelineLanes))
      return null;
    const of = c[`lane:${String(l.by)}`];
    if (!(of instanceof Uint8Array || of instanceof Uint16Array || of instanceof Int32Array)) return null;
    if (of.length !== n) return null;
    const keys = l.keys.map(String);
    // A lane number past the keys would name no lane: the columns do not belong together.
    for (let i = 0; i < n; i++) if (of[i] >= keys.length) return null;
    lanes[l.by as TimelineLanes] = { keys, of };
  }
  const originEpochMs = typeof m.originEpochMs === "number" ? m.originEpochMs : null;
  return {
    source: m.source,
    segments: (m.segments as TimelineSegmentDef[]).map((s) => ({
      name: String(s.name),
      label: String(s.label),
      colour: String(s.colour),
    })),
    n,
    id,
    startMs,
    endMs,
    blockMaxEndMs,
    partOffset,
    partSeg,
    partStartMs,
    partEndMs,
    lanes,
    originEpochMs,
  };
}
