/**
 * Round numbers for axes and histogram bins: a step of 1, 2, 2.5 or 5 × 10ⁿ. Equal splits of the
 * data's range read 70.4 / 110.4 / 150.4 ms or 0 / 650 / 1,300 ms; these read 50 / 100 / 150 and
 * 0 / 500 / 1,000 (docs/metrics.md §Readable numbers).
 */
import { atOnce, type Steps } from "./steps";

const MULTIPLES = [1, 2, 2.5, 5, 10];

/** Values a step of `niceBinsInSteps` counts into their bins. */
const BIN_STEP = 16_384;

/** Multiplying rather than summing keeps 0.1 × 3 from drifting to 0.30000000000000004. */
const at = (i: number, step: number) => Number((i * step).toPrecision(12));

/**
 * The smallest round step giving at most `target` intervals over `span` (at least `minStep`). A
 * `minStep` of 1 or more marks a count axis: its step is a whole number, so 2.5 is skipped (ticks
 * 0 / 2.5 / 5 / 7.5 requests read as fractions of a request).
 */
export function niceStep(span: number, target = 5, minStep = 0): number {
  if (!(span > 0) || !Number.isFinite(span)) return Math.max(1, minStep);
  const raw = Math.max(span / target, minStep);
  const p = 10 ** Math.floor(Math.log10(raw));
  return MULTIPLES.map((m) => m * p).find(
    (s) => s >= raw * (1 - 1e-9) && (minStep < 1 || Number.isInteger(s)),
  )!;
}

/** Round ticks from at or below `lo` to at or above `hi`: a value axis whose domain they set. */
export function ticksCovering(lo: number, hi: number, target = 5, minStep = 0): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo) return [0, 1];
  if (hi === lo) return lo === 0 ? [0, 1] : ticksCovering(Math.min(0, lo), Math.max(0, hi), target, minStep);
  const step = niceStep(hi - lo, target, minStep);
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  return Array.from({ length: last - first + 1 }, (_, i) => at(first + i, step));
}

/** Round ticks inside [lo, hi]: a position axis (time, a latency range) that keeps the data's span. */
// Inside a span the end ticks are lost to rounding, so it is split finer than a value axis.
export function ticksWithin(lo: number, hi: number, target = 6, minStep = 0): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo) return [];
  if (hi === lo) return [lo];
  const step = niceStep(hi - lo, target, minStep);
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => at(first + i, step));
}

/**
 * Round ticks around the data, not from 0 (a sweep's Pareto axes): a frontier at 54–55 tok/s/user
 * on a 0–60 axis was a sliver at its edge. The span is padded by 8% on each side (one value by 5%)
 * so end points are not on the frame, and never crosses below 0 for data that does not.
 */
export function fittedTicks(min: number, max: number, target = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return [0, 1];
  const pad = max > min ? (max - min) * 0.08 : Math.abs(max) * 0.05;
  const lo = min >= 0 ? Math.max(0, min - pad) : min - pad;
  return pad === 0 ? ticksCovering(lo, max, target) : ticksCovering(lo, max + pad, target);
}

/**
 * Decimals that write every tick exactly: 11.25 needs 2, so a 0.25 step is not printed as
 * 10.8 / 11 / 11.3 (uneven labels for even ticks). At most 6.
 */
export function tickDecimals(ticks: readonly number[]): number {
  let most = 0;
  for (const t of ticks) {
    let d = 0;
    while (
      d < 6 &&
      Math.abs(t * 10 ** d - Math.round(t * 10 ** d)) > 1e-6 * Math.max(1, Math.abs(t) * 10 ** d)
    )
      d++;
    most = Math.max(most, d);
  }
  return most;
}

/** Round ticks from 0 to just above `max`. */
export function niceTicks(max: number, target = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  return ticksCovering(0, max, target);
}

/**
 * Bins of a histogram at round edges: about `target` bins of one round width, the first starting
 * at a multiple of it at or below the minimum, the maximum inside the last (so edges read 60, 65,
 * 70 ms, never 70.4, 74.4). A single value gets one bin of zero width.
 */
export function niceBins(
  values: ArrayLike<number>,
  min: number,
  max: number,
  target: number,
): Array<{ start: number; end: number; count: number }> {
  return atOnce(niceBinsInSteps(values, min, max, target));
}

/**
 * `niceBins` in steps (./steps.ts): the values counted into their bins BIN_STEP a step. The same
 * bins.
 */
export function* niceBinsInSteps(
  values: ArrayLike<number>,
  min: number,
  max: number,
  target: number,
): Steps<Array<{ start: number; end: number; count: number }>> {
  const n = values.length;
  if (n === 0) return [];
  if (max === min) return [{ start: min, end: max, count: n }];
  const step = niceStep(max - min, Math.max(1, target));
  const first = Math.floor(min / step + 1e-9);
  const k = Math.max(1, Math.ceil(max / step - 1e-9) - first);
  // Near the largest doubles a round edge overflows to ±Infinity (stored as null): split evenly.
  if (
    !Number.isFinite(max - min) ||
    !Number.isFinite(at(first, step)) ||
    !Number.isFinite(at(first + k, step))
  )
    return yield* evenBins(values, min, max, Math.max(1, target));
  const bins = Array.from({ length: k }, (_, i) => ({
    start: at(first + i, step),
    end: at(first + i + 1, step),
    count: 0,
  }));
  const start = bins[0].start;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % BIN_STEP === 0) yield;
    // The epsilon keeps a value on an edge (0.3 / 0.1 = 2.9999…) in the bin the edge starts.
    const b = Math.floor((values[i] - start) / step + 1e-9);
    bins[Math.min(k - 1, Math.max(0, b))].count++;
  }
  return bins;
}

/** `target` bins of equal width over [min, max], for ranges no round edge can span. */
function* evenBins(
  values: ArrayLike<number>,
  min: number,
  max: number,
  target: number,
): Steps<Array<{ start: number; end: number; count: number }>> {
  // Scaled before subtracting, so a span past the largest double stays finite.
  const width = max / target - min / target;
  // A weighted mean of the ends, whose terms stay finite where min + i × width would not.
  const edge = (i: number) => (i === target ? max : min * (1 - i / target) + max * (i / target));
  const bins = Array.from({ length: target }, (_, i) => ({ start: edge(i), end: edge(i + 1), count: 0 }));
  for (let i = 0; i < values.length; i++) {
    if (i > 0 && i % BIN_STEP === 0) yield;
    const b = Math.floor(values[i] / width - min / width);
    bins[Math.min(target - 1, Math.max(0, b))].count++;
  }
  return bins;
}

/** Round ticks of a log axis: 1, 2 and 5 of each decade the values span. */
export function logTicks(min: number, max: number): number[] {
  if (!(min > 0) || !(max > 0)) return [];
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++)
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** e).toPrecision(12));
      if (v >= min / 2 && v <= max * 2) out.push(v);
    }
  return out;
}
