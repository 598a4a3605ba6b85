/**
 * One verdict per metric for a run against its baseline (docs/metrics.md §Regressions). Pure:
 * the caller loads the per-request values and the series history; this decides.
 */
import { bootstrapChange, DEFAULT_RESAMPLES, DEFAULT_SEED } from "./bootstrap";
import type { Thresholds, VerdictMetric } from "./catalog";
import { spreadChange } from "./spread";

export type VerdictKind = "improved" | "regressed" | "within noise" | "not enough history" | "not measured";

export interface MetricVerdict {
  metric: string;
  label: string;
  unit: string;
  direction: "lower" | "higher";
  kind: "requests" | "run";
  verdict: VerdictKind;
  /** Relative change (run − baseline) / |baseline| and its 95% interval; null without a verdict */
  effect: number | null;
  low: number | null;
  high: number | null;
  baseline: number | null;
  value: number | null;
  threshold: number;
  method: string;
  /** Requests (bootstrap) or earlier runs (spread) on each side */
  samples: { run: number; baseline: number; unit: "requests" | "runs" };
  seed: number | null;
  resamples: number | null;
  /** Why there is no verdict, when there is none */
  note?: string;
}

/** What a metric is judged from: sorted per-request values, or run-level values with history. */
export type MetricInput =
  | { kind: "requests"; run: Float64Array; baseline: Float64Array }
  | { kind: "run"; value: number | null; baseline: number | null; history: number[]; pooled: boolean };

export interface JudgeOptions {
  thresholds?: Thresholds;
  seed?: number;
  resamples?: number;
}

/**
 * Regressed: the interval lies wholly on the worse side of 0 and the change is at least the
 * threshold; improved likewise on the better side; otherwise within noise.
 */
export function classify(
  effect: number,
  low: number,
  high: number,
  threshold: number,
  direction: "lower" | "higher",
) {
  const sign = direction === "lower" ? 1 : -1;
  const worse = sign * effect;
  const [lo, hi] = sign === 1 ? [low, high] : [-high, -low];
  if (lo > 0 && worse >= threshold) return "regressed";
  if (hi < 0 && -worse >= threshold) return "improved";
  return "within noise";
}

export function judgeMetric(
  metric: VerdictMetric,
  input: MetricInput,
  opts: JudgeOptions = {},
): MetricVerdict {
  const threshold = opts.thresholds?.[metric.id] ?? metric.threshold;
  const seed = opts.seed ?? DEFAULT_SEED;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const head = {
    metric: metric.id,
    label: metric.label,
    unit: metric.unit,
    direction: metric.direction,
    kind: metric.kind,
    threshold,
  };
  const none = (verdict: VerdictKind, note: string, rest: Partial<MetricVerdict>): MetricVerdict => ({
    ...head,
    verdict,
    effect: null,
    low: null,
    high: null,
    baseline: null,
    value: null,
    method: metric.kind === "requests" ? "bootstrap" : "median absolute deviation",
    samples: { run: 0, baseline: 0, unit: metric.kind === "requests" ? "requests" : "runs" },
    seed: null,
    resamples: null,
    note,
    ...rest,
  });
  if (input.kind === "requests") {
    const samples = { run: input.run.length, baseline: input.baseline.length, unit: "requests" as const };
    if (samples.run === 0 || samples.baseline === 0)
      return none("not measured", "no per-request values on one side", { samples });
    const b = bootstrapChange(input.baseline, input.run, metric.stat!, { seed, resamples });
    if (!b) return none("not measured", "too few requests, or a zero baseline", { samples });
    return {
      ...head,
      verdict: classify(b.effect, b.low, b.high, threshold, metric.direction),
      effect: b.effect,
      low: b.low,
      high: b.high,
      baseline: b.baseline,
      value: b.value,
      method: b.method,
      samples,
      seed,
      resamples,
    };
  }
  const samples = { run: 1, baseline: input.history.length, unit: "runs" as const };
  if (input.value === null || input.baseline === null)
    return none("not measured", "the run or its baseline has no value", { samples });
  const s = spreadChange(input.history, input.value, input.pooled ? undefined : input.baseline);
  if (s === "not enough history")
    return none(
      "not enough history",
      `${input.history.length} earlier runs in the series; the spread needs 3`,
      {
        samples,
        value: input.value,
        baseline: input.baseline,
      },
    );
  if (!s) return none("not measured", "a zero baseline", { samples });
  return {
    ...head,
    verdict: classify(s.effect, s.low, s.high, threshold, metric.direction),
    effect: s.effect,
    low: s.low,
    high: s.high,
    baseline: s.baseline,
    value: s.value,
    method: `median absolute deviation of ${s.band.runs} earlier runs (band ±${formatSigma(s.band.halfWidth / s.band.sigma)}σ)`,
    samples,
    seed: null,
    resamples: null,
  };
}

function formatSigma(k: number): string {
  return Number.isFinite(k) ? k.toFixed(2) : "∞";
}
