/**
 * Geometry of the timeline canvas: where each lane and row sits, where a time falls, which bar
 * is under the pointer. Plain functions of the payload and the canvas size, so a frame of
 * panning redraws from them without React.
 */
import type { TimelinePayload } from "@/lib/api/timeline";
import { shortLabels } from "@/lib/metrics/short-labels";

export const GUTTER = 160;
/** Below this canvas width (a phone) the lane labels get a narrower gutter: 160 px was 40 % of it. */
const NARROW = 480;
const NARROW_GUTTER = 96;

/** Room left of the plot for the lane labels, by the canvas's width. */
export const gutterFor = (width: number) => (width < NARROW ? NARROW_GUTTER : GUTTER);
export const RIGHT = 12;
export const AXIS_H = 24;
const LANE_GAP = 6;
/** The bars take at most this much height; more rows get thinner rows, down to 2 px. */
const PLOT_BUDGET = 420;

export interface TimelineLayout {
  /** Lane names as drawn: TensorRT-LLM worker files lose their shared name parts (the tooltip has the whole name). */
  laneNames: string[];
  width: number;
  /** Room left of the plot for the lane labels (gutterFor). */
  gutter: number;
  height: number;
  rowH: number;
  /** Top of each lane, and its height. */
  laneTop: number[];
  laneH: number[];
  /** Per bar: its top. */
  barTop: Float32Array;
}

export function layoutTimeline(p: TimelinePayload, width: number): TimelineLayout {
  const totalRows = p.lanes.reduce((n, l) => n + Math.max(1, l.rows), 0);
  const rowH = Math.max(2, Math.min(14, Math.floor(PLOT_BUDGET / Math.max(1, totalRows))));
  const laneTop: number[] = [];
  const laneH: number[] = [];
  let y = 4;
  for (const l of p.lanes) {
    laneTop.push(y);
    // A lane is tall enough for its label even with one row.
    const h = Math.max(18, Math.max(1, l.rows) * rowH);
    laneH.push(h);
    y += h + LANE_GAP;
  }
  const barTop = new Float32Array(p.bars.id.length);
  for (let b = 0; b < barTop.length; b++) barTop[b] = laneTop[p.bars.lane[b]] + p.bars.row[b] * rowH;
  // "perf_metrics-server-gen0-200-20260101T000000Z" → "server-gen0-200": the prefix and the stamp are every file's.
  const bare = p.lanes.map((l) => l.label.replace(/^perf_metrics-/, "").replace(/-\d{8}T\d{6}Z$/, ""));
  const gutter = gutterFor(width);
  const laneNames = shortLabels(bare, gutter === GUTTER ? 22 : 11);
  return { laneNames, width, gutter, height: y + AXIS_H, rowH, laneTop, laneH, barTop };
}

export interface ViewWindow {
  from: number;
  to: number;
}

export const plotWidth = (l: TimelineLayout) => Math.max(1, l.width - l.gutter - RIGHT);

export function xOf(l: TimelineLayout, v: ViewWindow, t: number): number {
  return l.gutter + ((t - v.from) / (v.to - v.from)) * plotWidth(l);
}

export function tOf(l: TimelineLayout, v: ViewWindow, x: number): number {
  return v.from + ((x - l.gutter) / plotWidth(l)) * (v.to - v.from);
}

/** The bar under (x, y), or -1; a bar narrower than 3 px is hit within 3 px of it. */
export function barAt(p: TimelinePayload, l: TimelineLayout, v: ViewWindow, x: number, y: number): number {
  const slack = (3 / plotWidth(l)) * (v.to - v.from);
  const t = tOf(l, v, x);
  let best = -1;
  let bestD = Infinity;
  for (let b = 0; b < p.bars.id.length; b++) {
    const top = l.barTop[b];
    if (y < top || y > top + Math.max(2, l.rowH - 1)) continue;
    const s = p.bars.startMs[b];
    const e = p.bars.endMs[b];
    if (t < s - slack || t > e + slack) continue;
    const d = t < s ? s - t : t > e ? t - e : 0;
    if (d < bestD) [best, bestD] = [b, d];
  }
  return best;
}

/** Zooms `v` by `factor` (< 1 zooms in) around time `at`, within the run's span and no finer than 1 µs. */
export function zoomWindow(v: ViewWindow, factor: number, at: number, bounds: ViewWindow): ViewWindow {
  const maxSpan = Math.max(bounds.to - bounds.from, 1e-3) * 1.05;
  const span = Math.min(maxSpan, Math.max(1e-3, (v.to - v.from) * factor));
  const k = (at - v.from) / (v.to - v.from);
  return clampWindow({ from: at - k * span, to: at - k * span + span }, bounds);
}

/** Keeps the window inside the run (a little margin either side), its span unchanged. */
export function clampWindow(v: ViewWindow, bounds: ViewWindow): ViewWindow {
  const span = v.to - v.from;
  const margin = (bounds.to - bounds.from) * 0.025;
  const lo = bounds.from - margin;
  const hi = bounds.to + margin;
  if (span >= hi - lo) return { from: lo, to: hi };
  if (v.from < lo) return { from: lo, to: lo + span };
  if (v.to > hi) return { from: hi - span, to: hi };
  return v;
}
