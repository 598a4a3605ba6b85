/**
 * Raw cumulative scrapes → aiperf-style window stats and timeslices (design.md §5.3, trap T17).
 * A counter's total is the sum of its non-negative step deltas: a drop means the server
 * restarted and its counter began again, so that step is clamped to 0 instead of subtracting
 * the lifetime value. Gauge stats are plain sample means (aiperf does not time-weight either).
 */
import type { Slice } from "./types";

export interface ScrapeTrack {
  /** Sample times (ns, as floats: only differences matter) in arrival order. */
  t: number[];
  v: number[];
}

/** Largest number of intervals a time series is cut into (the ≤ 2,000 points per series budget). */
export const MAX_SLICES = 2000;

/** 1 s intervals (what InferenceX passes to aiperf), widened to whole seconds for long runs. */
export function sliceDurationNs(windowNs: number): number {
  const oneS = 1e9;
  return Math.max(1, Math.ceil(windowNs / oneS / MAX_SLICES)) * oneS;
}

export function counterTotal(track: ScrapeTrack): number {
  let total = 0;
  for (let i = 1; i < track.v.length; i++) {
    const d = track.v[i] - track.v[i - 1];
    if (d > 0) total += d;
  }
  return total;
}

export function counterSlices(track: ScrapeTrack, startNs: number, stepNs: number): Slice[] {
  const sums = new Map<number, number>();
  for (let i = 1; i < track.v.length; i++) {
    const d = Math.max(0, track.v[i] - track.v[i - 1]);
    const k = Math.max(0, Math.floor((track.t[i] - startNs - 1) / stepNs));
    sums.set(k, (sums.get(k) ?? 0) + d);
  }
  return [...sums.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, value]) => ({ startNs: startNs + k * stepNs, endNs: startNs + (k + 1) * stepNs, value }));
}

export function gaugeStats(track: ScrapeTrack): Record<string, number> {
  const n = track.v.length;
  if (n === 0) return {};
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of track.v) {
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return { avg: sum / n, min, max };
}

export function gaugeSlices(track: ScrapeTrack, startNs: number, stepNs: number): Slice[] {
  const acc = new Map<number, { sum: number; n: number; max: number }>();
  for (let i = 0; i < track.v.length; i++) {
    const k = Math.max(0, Math.floor((track.t[i] - startNs) / stepNs));
    const a = acc.get(k) ?? { sum: 0, n: 0, max: -Infinity };
    a.sum += track.v[i];
    a.n++;
    a.max = Math.max(a.max, track.v[i]);
    acc.set(k, a);
  }
  return [...acc.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, a]) => ({
      startNs: startNs + k * stepNs,
      endNs: startNs + (k + 1) * stepNs,
      value: a.sum / a.n,
      max: a.max,
    }));
}
