import { ticksCovering, ticksWithin } from "@/lib/metrics/nice-scale";
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
 */
export function readableAxis(
  a: AxisSpec,
  extent: Extent | null,
  role: "value" | "position",
  target?: number,
): AxisSpec {
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
    domain = [ticks[0], ticks[ticks.length - 1]];
  }
  if (ticks.length === 0) return a;
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : Math.abs(ticks[0]) || 1;
  const out: AxisSpec = { ...a, ticks, domain };
  if (a.unit === "ms" && Math.max(...ticks.map(Math.abs)) >= 10_000) {
    const s = plainTick(step / 1000);
    return { ...out, unit: "s", tickUnit: undefined, format: (v) => `${s(v / 1000)} s` };
  }
  if (a.unit === "ms") {
    const ms = plainTick(step);
    out.format = (v) => `${ms(v)} ms`;
  } else if (!a.format) out.format = plainTick(step);
  return out;
}

/** About how wide a tick's text is at the kit's 11 px axis font (digits, units, separators). */
const CHAR_PX = 7;
/** Room kept between two tick texts. */
const TICK_GAP_PX = 12;

/** A tick as the axis writes it: the formatted value, then the tick unit. */
export function tickText(a: AxisSpec, v: number): string {
  return `${a.format ? a.format(v) : String(v)}${a.tickUnit ?? ""}`;
}

/**
 * A horizontal number axis whose round ticks all fit `plotWidth` px, so the library, told to draw
 * every tick, drops none: left to itself it thinned a 0 / 2.5 / 5 / 7.5 / 10 / 12.5 GB/s axis to
 * "0 / 2.5 / 5 / 7.5 / 12.5", uneven labels that read as a wrong scale. Starting from `target`
 * ticks, a coarser round step is taken until the widest label fits between its neighbours. With
 * no width known yet (before the first layout) the axis is `readableAxis`'s, left to the library.
 */
export function fittedHorizontalAxis(
  a: AxisSpec,
  extent: Extent | null,
  role: "value" | "position",
  target: number | undefined,
  plotWidth: number | null,
): AxisSpec {
  const first = readableAxis(a, extent, role, target);
  if (plotWidth === null || plotWidth <= 0 || a.ticks || !first.ticks || first === a) return first;
  for (let n = target ?? (role === "value" ? 5 : 6); n >= 1; n--) {
    const shown = n === (target ?? (role === "value" ? 5 : 6)) ? first : readableAxis(a, extent, role, n);
    const ticks = shown.ticks ?? [];
    if (ticks.length < 2) return { ...shown, everyTick: true };
    const d = shown.domain;
    const span =
      Array.isArray(d) && typeof d[0] === "number" && typeof d[1] === "number"
        ? d[1] - d[0]
        : ticks[ticks.length - 1] - ticks[0];
    const step = ticks[1] - ticks[0];
    const spacing = span > 0 ? (plotWidth * step) / span : plotWidth;
    const widest = Math.max(...ticks.map((v) => tickText(shown, v).length)) * CHAR_PX;
    if (spacing >= widest + TICK_GAP_PX) return { ...shown, everyTick: true };
  }
  return first;
}
