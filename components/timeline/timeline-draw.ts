/**
 * One frame of the timeline canvas: lane bands and names, time grid and ticks, every bar's parts
 * (one fill colour at a time; drawnParts), the selected bar's outline and the hover cursor. Thousands of
 * bars draw in a few milliseconds this way; an SVG node per part took seconds to lay out.
 */
import type { TimelinePayload } from "@/lib/api/timeline";
import { ticksWithin } from "@/lib/metrics/nice-scale";
import { AXIS_H, RIGHT, type TimelineLayout, type ViewWindow, xOf } from "./timeline-layout";

export interface DrawColours {
  segments: string[];
  fg: string;
  muted: string;
  grid: string;
  band: string;
  accent: string;
}

/** A colour the canvas can use: `var(--token)` resolved on the element (it follows the theme). */
export function resolveColour(el: Element, colour: string): string {
  const m = /^var\((--[\w-]+)\)$/.exec(colour.trim());
  if (!m) return colour;
  return getComputedStyle(el).getPropertyValue(m[1]).trim() || "#888";
}

/**
 * The parts a frame draws, grouped by segment (each fill colour is set once), and how many there
 * are. A part at least a pixel wide is always drawn. Parts narrower than a pixel are drawn as
 * slivers of at least 0.75 px, and where several of one bar's fall in the same pixel column only
 * the longest of them is drawn, as their sliver would hide the rest anyway: at the whole-run
 * zoom a TensorRT-LLM bar of fourteen recorded steps is a few pixels wide, and drawing every
 * step would paint each column up to fourteen times (docs/metrics.md §Request timeline,
 * "Drawing"). Parts outside `[left, right]` (px) are left out. `p`'s parts are in bar order and,
 * within a bar, in time order, as the route sends them.
 */
export function drawnParts(
  p: TimelinePayload,
  l: TimelineLayout,
  v: ViewWindow,
  left: number,
  right: number,
): { bySeg: Int32Array[]; count: number } {
  const n = p.parts.seg.length;
  const kept = new Int32Array(n);
  let count = 0;
  // The sub-pixel part kept for the current bar's current column, and that column.
  let held = -1;
  let heldCol = 0;
  let heldLen = 0;
  const flush = () => {
    if (held >= 0) kept[count++] = held;
    held = -1;
  };
  for (let k = 0; k < n; k++) {
    if (k > 0 && p.parts.bar[k] !== p.parts.bar[k - 1]) flush();
    const x1 = xOf(l, v, p.parts.startMs[k]);
    const x2 = xOf(l, v, p.parts.endMs[k]);
    if (x2 < left || x1 > right) continue;
    if (x2 - x1 >= 1) {
      kept[count++] = k;
      continue;
    }
    const col = Math.floor(x1);
    const len = p.parts.endMs[k] - p.parts.startMs[k];
    if (held >= 0 && col === heldCol) {
      if (len > heldLen) {
        held = k;
        heldLen = len;
      }
      continue;
    }
    flush();
    held = k;
    heldCol = col;
    heldLen = len;
  }
  flush();
  const counts = new Array<number>(p.segments.length).fill(0);
  for (let i = 0; i < count; i++) counts[p.parts.seg[kept[i]]]++;
  const bySeg = counts.map((c) => new Int32Array(c));
  const at = new Array<number>(p.segments.length).fill(0);
  for (let i = 0; i < count; i++) {
    const s = p.parts.seg[kept[i]];
    bySeg[s][at[s]++] = kept[i];
  }
  return { bySeg, count };
}

/** One unit for the whole axis: ms below 2 s of span, s below 10 min, else min. */
function timeUnit(spanMs: number): { ms: number; name: string } {
  if (spanMs < 2000) return { ms: 1, name: "ms" };
  if (spanMs < 600_000) return { ms: 1000, name: "s" };
  return { ms: 60_000, name: "min" };
}

/**
 * Round ticks in the axis' unit (0, 10, 20 min, not 8.333 min: a round step in ms is not one in
 * minutes), each with its label.
 */
export function timeTicks(v: ViewWindow, target: number): Array<{ ms: number; label: string }> {
  const u = timeUnit(v.to - v.from);
  return ticksWithin(v.from / u.ms, v.to / u.ms, target).map((t) => ({
    ms: t * u.ms,
    label: `${Number(t.toPrecision(6)).toLocaleString("en-US")} ${u.name}`,
  }));
}

export function drawTimeline(
  ctx: CanvasRenderingContext2D,
  p: TimelinePayload,
  l: TimelineLayout,
  v: ViewWindow,
  c: DrawColours,
  marks: { cursorMs: number | null; selected: number; focused: number },
): number {
  ctx.clearRect(0, 0, l.width, l.height);
  const plotBottom = l.height - AXIS_H;
  ctx.font = "12px ui-sans-serif, system-ui, sans-serif";
  ctx.textBaseline = "middle";
  p.lanes.forEach((_, i) => {
    ctx.fillStyle = c.band;
    ctx.fillRect(l.gutter, l.laneTop[i], l.width - l.gutter - RIGHT, l.laneH[i]);
    ctx.fillStyle = c.muted;
    ctx.textAlign = "right";
    ctx.fillText(l.laneNames[i], l.gutter - 8, l.laneTop[i] + Math.min(l.laneH[i], 18) / 2);
  });
  const ticks = timeTicks(v, Math.max(2, Math.floor((l.width - l.gutter) / 110)));
  ctx.textBaseline = "alphabetic";
  ticks.forEach(({ ms: t, label }) => {
    const x = Math.round(xOf(l, v, t)) + 0.5;
    ctx.fillStyle = c.grid;
    ctx.fillRect(x, 0, 1, plotBottom);
    ctx.fillStyle = c.muted;
    ctx.textAlign = x > l.width - RIGHT - 40 ? "right" : x < l.gutter + 40 ? "left" : "center";
    ctx.fillText(label, x, l.height - 8);
  });
  // Bars clipped to the plot, so a bar that started before the window does not run into the names.
  ctx.save();
  ctx.beginPath();
  ctx.rect(l.gutter, 0, l.width - l.gutter - RIGHT, plotBottom);
  ctx.clip();
  const h = Math.max(1, l.rowH - (l.rowH > 4 ? 1 : 0));
  const left = l.gutter - 2;
  const right = l.width - RIGHT + 2;
  const drawn = drawnParts(p, l, v, left, right);
  drawn.bySeg.forEach((parts, s) => {
    ctx.fillStyle = c.segments[s];
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k];
      const x1 = xOf(l, v, p.parts.startMs[part]);
      const x2 = xOf(l, v, p.parts.endMs[part]);
      const a = Math.max(x1, left);
      ctx.fillRect(a, l.barTop[p.parts.bar[part]], Math.max(0.75, Math.min(x2, right) - a), h);
    }
  });
  for (const [b, colour, width] of [
    [marks.focused, c.accent, 1.5],
    [marks.selected, c.fg, 2],
  ] as const) {
    if (b < 0 || b >= p.bars.id.length) continue;
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    const x1 = xOf(l, v, p.bars.startMs[b]);
    const x2 = xOf(l, v, p.bars.endMs[b]);
    ctx.strokeRect(x1 - 1, l.barTop[b] - 1, Math.max(2, x2 - x1) + 2, h + 2);
  }
  ctx.restore();
  if (marks.cursorMs !== null) {
    const x = xOf(l, v, marks.cursorMs);
    if (x >= l.gutter && x <= l.width - RIGHT) {
      ctx.fillStyle = c.fg;
      ctx.fillRect(Math.round(x), 0, 1, plotBottom);
    }
  }
  return drawn.count;
}
