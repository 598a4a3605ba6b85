import { ticksCovering, ticksWithin } from "@/lib/metrics/nice-scale";
import { compactNumber } from "@/lib/metrics/bar-labels";
import type { AxisSpec, SeriesConfig } from "./plot-types";

/**
 * Every number axis of the kit gets round ticks (docs/metrics.md §Readable numbers): Recharts'
 * own split the data's range into equal parts (0 / 650 / 1,300 ms, 70.4 / 110.4 ms). A value axis
 * starts at 0 and ends on the tick at or above the data; a position axis (time, a latency range)
 * keeps its span and puts the round ticks inside it.
 */

type Row = Record<string, unknown>;
const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export type Extent = readonly [number, number];

/** Lowest and highest value of the series measured on one axis; stacks count as their sums. */
export function valueExtent<R extends object>(
  rows: readonly R[],
  series: SeriesConfig<R>,
  axisId: string | undefined,
  scatterKey?: string,
): Extent | null {
  let lo = Infinity;
  let hi = -Infinity;
  const see = (v: number) => {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  };
  for (const [key, s] of Object.entries(series)) {
    if ((s.axis ?? undefined) !== axisId) continue;
    if (s.data || scatterKey)
      for (const r of (s.data ?? rows) as readonly Row[]) {
        const v = r[scatterKey ?? s.dataKey ?? key];
        if (finite(v)) see(v);
      }
  }
  if (!scatterKey)
    for (const r of rows as readonly Row[]) {
      const stacks = new Map<string, number>();
      for (const [key, s] of Object.entries(series)) {
        if ((s.axis ?? undefined) !== axisId || s.data) continue;
        const v = r[s.dataKey ?? key];
        if (!finite(v)) continue;
        if (s.stack === undefined) see(v);
        else stacks.set(s.stack, (stacks.get(s.stack) ?? 0) + v);
      }
      for (const v of stacks.values()) see(v);
    }
  return lo <= hi ? [lo, hi] : null;
}

/** Lowest and highest x of the rows (and of series with their own rows). */
export function positionExtent<R extends object>(
  rows: readonly R[],
  series: SeriesConfig<R>,
  key: string | undefined,
): Extent | null {
  if (!key) return null;
  let lo = Infinity;
  let hi = -Infinity;
  const all = [rows, ...Object.values(series).flatMap((s) => (s.data ? [s.data] : []))];
  for (const list of all)
    for (const r of list as readonly Row[]) {
      const v = r[key];
      if (!finite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  return lo <= hi ? [lo, hi] : null;
}

/** Decimals a step needs to be written exactly: 2.5 needs 1, 0.25 needs 2, 500 none. */
function decimalsOf(step: number): number {
  for (let d = 0; d < 6; d++) if (Math.abs(step * 10 ** d - Math.round(step * 10 ** d)) < 1e-6) return d;
  return 6;
}

/** Tick text with thousands separators and as many decimals as the step needs. */
function plainTick(step: number) {
  const digits = decimalsOf(step);
  return (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/**
 * The axis with round ticks (and the domain they span, for a value axis) from the data's extent.
 * An axis with its own ticks, a log scale or no ticks is left as it is. A millisecond axis whose
 * ticks reach 10,000 ms is written in seconds, title included: one unit per axis. `target` is
 * about how many ticks there are room for (fewer across a phone's width, so none is dropped).
 * `bare`: each tick a number alone, compact from 10,000 ("25 K"), its unit said once by the
 * axis's title: a phone's two value axes writing "12,500 tok/s" on every tick left the plot 160 px.
 * `"unit"`: each tick as written, less the unit the axis's title names ("500" under "TTFT (ms)"),
 * the phone's single-axis charts (`unitOnce`).
 */
export function readableAxis(
  a: AxisSpec,
  extent: Extent | null,
  role: "value" | "position",
  target?: number,
  bare: boolean | "unit" = false,
): AxisSpec {
  if (bare === "unit") return unitOnce(readableAxis(a, extent, role, target, false));
  if (a.ticks || a.log || a.noTicks || a.hide || !extent) return a;
  const minStep = a.integers ? 1 : 0;
  const d = a.domain;
  const fixed = Array.isArray(d) && typeof d[0] === "number" && typeof d[1] === "number";
  let ticks: number[];
  let domain = a.domain;
  if (fixed) ticks = ticksWithin(d[0] as number, d[1] as number, target, minStep);
  else if (role === "position") {
    ticks = ticksWithin(extent[0], extent[1], target, minStep);
    domain = domain ?? [extent[0], extent[1]];
  } else {
    // A value axis starts at 0 (a bar's length, a rate), or at its lowest value below 0.
    const lo = Math.min(0, extent[0]);
    const hi = Array.isArray(d) && typeof d[1] === "number" ? d[1] : extent[1];
    ticks = ticksCovering(lo, Math.max(hi, lo), target ?? 5, minStep);
    // A stack's short bands take their minimum length from its own longest bands
    // (lib/metrics/bar-labels.ts stackBandsPx): the scale ends on its last tick.
    domain = [ticks[0], ticks[ticks.length - 1]];
  }
  if (ticks.length === 0) return a;
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : Math.abs(ticks[0]) || 1;
  const out: AxisSpec = { ...a, ticks, domain };
  const largest = Math.max(...ticks.map(Math.abs));
  if (a.unit === "ms" && largest >= 10_000) {
    const s = plainTick(step / 1000);
    return {
      ...out,
      unit: "s",
      tickUnit: undefined,
      format: bare ? (v) => s(v / 1000) : (v) => `${s(v / 1000)} s`,
    };
  }
  if (bare)
    return { ...out, tickUnit: undefined, format: largest >= 10_000 ? compactNumber : plainTick(step) };
  if (a.unit === "ms") {
    const ms = plainTick(step);
    out.format = (v) => `${ms(v)} ms`;
  } else if (!a.format) out.format = plainTick(step);
  return out;
}

/**
 * An axis whose ticks leave out its unit, which its title names once ("TTFT (ms)": 0 / 500 /
 * 1,000): on a phone "0 ms / 500 ms / 1,000 ms" took the plot's room. Only a unit the tick text
 * ends with is cut, so a tick in another unit than the title's keeps its own; an axis without a
 * title, or a log axis (its powers of ten), is left as it is.
 */
export function unitOnce(a: AxisSpec): AxisSpec {
  const unit = a.unit?.trim();
  if (!unit || !a.title || a.hide || a.noTicks || a.log) return a;
  const cut = (text: string) =>
    text.endsWith(` ${unit}`)
      ? text.slice(0, -unit.length - 1)
      : text.endsWith(`\u00a0${unit}`)
        ? text.slice(0, -unit.length - 1)
        : unit === "%" && text.endsWith("%")
          ? text.slice(0, -1)
          : text;
  return { ...a, tickUnit: undefined, format: (v) => cut(tickText(a, v)) };
}

/** About how wide a tick's text is at the kit's 11 px axis font (digits, units, separators). */
const CHAR_PX = 7;

/** A tick as the axis writes it: the formatted value, then the tick unit. */
export function tickText(a: AxisSpec, v: number): string {
  return `${a.format ? a.format(v) : String(v)}${a.tickUnit ?? ""}`;
}

/** Room kept between two tick texts on a fitted axis. */
const FIT_GAP_PX = 8;

/**
 * Whether an axis's ticks, as drawn (the first from its position rightwards, the last ending at
 * its position, the others centred, a lone one other than the start ending at its position:
 * `edgeTick` in plot-parts.tsx), keep `FIT_GAP_PX` apart and
 * inside `plotWidth`.
 */
export function ticksFit(a: AxisSpec, ticks: readonly number[], domain: Extent, plotWidth: number): boolean {
  const [d0, d1] = domain;
  const at = a.log
    ? (v: number) => (plotWidth * Math.log10(v / d0)) / Math.log10(d1 / d0)
    : (v: number) => (plotWidth * (v - d0)) / (d1 - d0);
  if (!(d1 > d0) || (a.log && !(d0 > 0))) return ticks.length <= 1;
  let prevRight = -Infinity;
  for (let i = 0; i < ticks.length; i++) {
    const w = tickText(a, ticks[i]).length * CHAR_PX;
    const x = at(ticks[i]);
    // A lone tick other than the axis's start is its end (`edgeTick`).
    const lone = ticks.length === 1 && ticks[0] !== d0;
    const left = lone ? x - w : i === 0 ? x : i === ticks.length - 1 ? x - w : x - w / 2;
    if (left < -0.5 || left + w > plotWidth + 0.5 || left < prevRight + FIT_GAP_PX) return false;
    prevRight = left + w;
  }
  return true;
}

/**
 * A log value axis's ticks: the powers of ten from its floor (its domain's start) up to the
 * largest value, every `k`th decade, the fewest decades apart that fit `plotWidth`; the domain
 * ends at the largest value.
 */
function fittedLogAxis(a: AxisSpec, extent: Extent | null, plotWidth: number | null): AxisSpec {
  const d = a.domain;
  const lo = Array.isArray(d) && typeof d[0] === "number" ? d[0] : null;
  const top = Array.isArray(d) && typeof d[1] === "number" ? d[1] : extent?.[1];
  if (lo === null || !(lo > 0) || top === undefined || !(top > lo)) return a;
  const decades: number[] = [];
  for (let p = Math.round(Math.log10(lo)); 10 ** p <= top * (1 + 1e-9); p++) decades.push(10 ** p);
  const domain: Extent = [lo, top];
  for (let k = 1; k <= decades.length; k++) {
    const ticks = decades.filter((_, i) => i % k === 0);
    if (plotWidth === null) return { ...a, domain: [lo, top], ticks };
    if (ticksFit(a, ticks, domain, plotWidth)) return { ...a, domain: [lo, top], ticks, everyTick: true };
  }
  return { ...a, domain: [lo, top], ticks: [decades[0]], everyTick: true };
}

/**
 * A horizontal number axis whose round ticks all fit `plotWidth` px, so the library, told to draw
 * every tick, drops none: left to itself it thinned a 0 / 2.5 / 5 / 7.5 / 10 / 12.5 GB/s axis to
 * "0 / 2.5 / 5 / 7.5 / 12.5", uneven labels that read as a wrong scale. Starting from `target`
 * ticks, a coarser round step is taken until every label keeps clear of its neighbours as drawn
 * (`ticksFit`: the end ticks drawn inwards need more room than centred ones); when even two round
 * ticks do not fit (a 65 px plot's "0 ms" and "1,000 ms" touched), only the axis's two ends, then
 * its last, are written. A log axis gets its powers of ten, thinned the same way. With no width
 * known yet (before the first layout) the axis is `readableAxis`'s, left to the library.
 */
export function fittedHorizontalAxis(
  a: AxisSpec,
  extent: Extent | null,
  role: "value" | "position",
  target: number | undefined,
  plotWidth: number | null,
  bare: false | "unit" = false,
): AxisSpec {
  if (a.log && !a.ticks && !a.noTicks && !a.hide) return fittedLogAxis(a, extent, plotWidth);
  const first = readableAxis(a, extent, role, target, bare);
  if (plotWidth === null || plotWidth <= 0 || a.ticks || !first.ticks || first === a) return first;
  const domainOf = (shown: AxisSpec, ticks: readonly number[]): Extent => {
    const d = shown.domain;
    return Array.isArray(d) && typeof d[0] === "number" && typeof d[1] === "number"
      ? [d[0], d[1]]
      : [ticks[0], ticks[ticks.length - 1]];
  };
  const start = target ?? (role === "value" ? 5 : 6);
  let coarsest = first;
  for (let n = start; n >= 1; n--) {
    const shown = n === start ? first : readableAxis(a, extent, role, n, bare);
    const ticks = shown.ticks ?? [];
    if (ticks.length === 0) continue;
    coarsest = shown;
    if (ticks.length < 2) return { ...shown, everyTick: true };
    if (ticksFit(shown, ticks, domainOf(shown, ticks), plotWidth)) return { ...shown, everyTick: true };
  }
  // Not even two round ticks fit: the ends alone, then the last alone.
  const ticks = coarsest.ticks ?? [];
  const domain = domainOf(coarsest, ticks);
  const inside = ticks.filter((v) => v >= domain[0] && v <= domain[1]);
  const ends = inside.length >= 2 ? [inside[0], inside[inside.length - 1]] : inside;
  if (ends.length === 2 && ticksFit(coarsest, ends, domain, plotWidth))
    return { ...coarsest, ticks: ends, everyTick: true };
  return { ...coarsest, ticks: ends.slice(-1), everyTick: true };
}
