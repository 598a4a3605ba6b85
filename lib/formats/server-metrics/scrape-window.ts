/**
 * Raw cumulative scrapes → aiperf-style window stats and timeslices (docs/metrics.md §Window statistics,
 * trap T17). A counter's total is the sum of its non-negative step deltas: a drop means the server
 * restarted and its counter began again, so that step is clamped to 0 instead of subtracting
 * the lifetime value. Gauge stats are plain sample means (aiperf does not time-weight either).
 */
import type { Slices } from "./types";

export interface ScrapeTrack {
  /** Sample times (ns, as floats: only differences matter) in arrival order. */
  t: ArrayLike<number>;
  v: ArrayLike<number>;
}

/** Largest number of intervals a time series is cut into (the ≤ 2,000 points per series budget). */
export const MAX_SLICES = 2000;

/** 1 s intervals (what InferenceX passes to aiperf), widened to whole seconds for long runs. */
export function sliceDurationNs(windowNs: number): number {
  const oneS = 1e9;
  return Math.max(1, Math.ceil(windowNs / oneS / MAX_SLICES)) * oneS;
}

export function counterTotal(track: ScrapeTrack): number {
  const v = track.v;
  let total = 0;
  for (let i = 1; i < v.length; i++) {
    const d = v[i] - v[i - 1];
    if (d > 0) total += d;
  }
  return total;
}

/** Interval indexes above this go through a map instead of dense arrays (only malformed times get there). */
const DENSE_LIMIT = 64 * MAX_SLICES;

/**
 * Sums `x[from…]` per interval number `ks[i]` (in arrival order, so every sum is the same float as
 * a sequential one) and returns the non-empty intervals in order; gauges get means and maxima.
 */
function bucket(
  ks: Float64Array,
  x: ArrayLike<number>,
  from: number,
  startNs: number,
  stepNs: number,
  gauge: boolean,
): Slices {
  let top = 0;
  for (let i = from; i < ks.length; i++) if (ks[i] > top) top = ks[i];
  // Cells by interval number when that is small (always, for times inside the window), else by first appearance.
  const slotOf = top <= DENSE_LIMIT ? null : new Map<number, number>();
  const cells = slotOf ? ks.length : top + 1;
  const sum = new Float64Array(cells);
  const n = new Float64Array(cells);
  const max = gauge ? new Float64Array(cells).fill(-Infinity) : sum;
  for (let i = from; i < ks.length; i++) {
    let c = ks[i];
    if (slotOf) {
      const known = slotOf.get(c);
      c = known ?? slotOf.size;
      if (known === undefined) slotOf.set(ks[i], c);
    }
    sum[c] += x[i];
    n[c]++;
    if (gauge && x[i] > max[c]) max[c] = x[i];
  }
  const ids: number[] = [];
  const at: number[] = [];
  if (slotOf)
    for (const [k, c] of [...slotOf].sort((p, q) => p[0] - q[0])) {
      ids.push(k);
      at.push(c);
    }
  else
    for (let k = 0; k <= top; k++)
      if (n[k] > 0) {
        ids.push(k);
        at.push(k);
      }
  const len = ids.length;
  const value = new Float64Array(len);
  const out: Slices = {
    startNs: new Float64Array(len),
    endNs: new Float64Array(len),
    value,
    max: gauge ? new Float64Array(len) : value,
  };
  for (let j = 0; j < len; j++) {
    const k = ids[j];
    const c = at[j];
    out.startNs[j] = startNs + k * stepNs;
    out.endNs[j] = startNs + (k + 1) * stepNs;
    value[j] = gauge ? sum[c] / n[c] : sum[c];
    if (gauge) out.max[j] = max[c];
  }
  return out;
}

export function counterSlices(track: ScrapeTrack, startNs: number, stepNs: number): Slices {
  const { t, v } = track;
  const ks = new Float64Array(v.length);
  const d = new Float64Array(v.length);
  for (let i = 1; i < v.length; i++) {
    d[i] = Math.max(0, v[i] - v[i - 1]);
    ks[i] = Math.max(0, Math.floor((t[i] - startNs - 1) / stepNs));
  }
  return bucket(ks, d, 1, startNs, stepNs, false);
}

export function gaugeStats(track: ScrapeTrack): Record<string, number> {
  const v = track.v;
  const n = v.length;
  if (n === 0) return {};
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = v[i];
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return { avg: sum / n, min, max };
}

export function gaugeSlices(track: ScrapeTrack, startNs: number, stepNs: number): Slices {
  const { t, v } = track;
  const ks = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) ks[i] = Math.max(0, Math.floor((t[i] - startNs) / stepNs));
  return bucket(ks, v, 0, startNs, stepNs, true);
}

/** The intervals as objects (tests and debugging; the pipeline reads the columns). */
export function sliceList(
  s: Slices | undefined,
): { startNs: number; endNs: number; value: number; max: number }[] {
  if (!s) return [];
  return Array.from(s.value, (value, i) => ({
    startNs: s.startNs[i],
    endNs: s.endNs[i],
    value,
    max: s.max[i],
  }));
}
