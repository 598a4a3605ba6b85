/** Small readers over a list of series: the only places that decide which stat key to trust. */
import type { MetricSeries } from "@/lib/formats/server-metrics/types";
import { sumKnown } from "../stats";

export function ofNames(series: readonly MetricSeries[], names: readonly string[] | string): MetricSeries[] {
  const set = new Set(typeof names === "string" ? [names] : names);
  return series.filter((s) => set.has(s.name));
}

/**
 * A counter series' window delta: `total` (counter) or `sum` (histogram of token counts, e.g.
 * Dynamo's input_sequence_tokens). A counter exported as a gauge (untyped `_total`) has only
 * sample stats; its window delta is max − min, never its lifetime max.
 */
export function counterValue(s: MetricSeries): number | null {
  if (s.stats.total !== undefined) return s.stats.total;
  if (s.stats.sum !== undefined) return s.stats.sum;
  if (s.stats.max !== undefined && s.stats.min !== undefined) return s.stats.max - s.stats.min;
  return null;
}

/** Σ window deltas; null when no series had a usable value (0 is a real answer, trap T19). */
export function sumCounters(series: readonly MetricSeries[]): number | null {
  return sumKnown(series.map(counterValue));
}

/** Percent-valued gauges (0..100) become fractions; fractions are clamped to 1. Decided per series so avg and max agree. */
export function fractionScale(s: MetricSeries): number {
  const peak = Math.max(s.stats.max ?? -Infinity, s.stats.avg ?? -Infinity);
  // 1.5 like the reference (trap T11): a fraction slightly above 1 is an overshoot, not 1.2 %.
  return peak > 1.5 ? 100 : 1;
}

export function clampFraction(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/** Mean of the series' `avg` (histograms: sum/count), as fractions. */
export function gaugeAvgFraction(series: readonly MetricSeries[]): number | null {
  const vals: number[] = [];
  for (const s of series) {
    const avg = s.stats.avg ?? (s.stats.count ? (s.stats.sum ?? NaN) / s.stats.count : undefined);
    if (avg !== undefined && Number.isFinite(avg)) vals.push(clampFraction(avg / fractionScale(s)));
  }
  return vals.length === 0 ? null : vals.reduce((a, b) => a + b, 0) / vals.length;
}

export function gaugeMaxFraction(series: readonly MetricSeries[]): number | null {
  let best: number | null = null;
  for (const s of series) {
    const v = s.stats.max ?? s.stats.avg;
    if (v !== undefined) best = Math.max(best ?? -Infinity, clampFraction(v / fractionScale(s)));
  }
  return best;
}

/** Σ of the series' mean values (e.g. running requests over several engines of one endpoint). */
export function gaugeAvgSum(series: readonly MetricSeries[]): number | null {
  return sumKnown(series.map((s) => s.stats.avg));
}

export function rate(num: number | null, den: number | null): number | null {
  return num === null || den === null || !(den > 0) ? null : num / den;
}
