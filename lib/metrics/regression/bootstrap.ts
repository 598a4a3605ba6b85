/**
 * Bootstrap of the change in a latency statistic between two runs, resampling requests
 * (docs/metrics.md §Regressions). Pure and seeded: the same values and seed give the same interval.
 *
 * A resample of n requests is never materialised. For a percentile, the k-th smallest of n values
 * drawn with replacement from the sorted sample x is x[⌊n·U⌋] where U is the k-th smallest of n
 * uniforms, which is Beta(k, n − k + 1); the next order statistic is U + (1 − U)·Beta(1, n − k).
 * Drawing those two numbers is the same, in distribution, as sorting a real resample, at O(1)
 * instead of O(n). A mean is resampled request by request up to LITERAL_MEAN_MAX values; above
 * that the resampled mean is drawn from its normal limit with the plug-in variance s²/n.
 */
import { percentileSorted } from "@/lib/metrics/stats";
import { Random } from "./random";

export type LatencyStat = "mean" | "p50" | "p75" | "p90" | "p95" | "p99";

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_SEED = 1;
export const LITERAL_MEAN_MAX = 1_000;
/** Fewer requests than this on either side: no verdict. */
export const MIN_REQUESTS = 10;

export interface BootstrapResult {
  /** (run − baseline) / |baseline| at the full samples */
  effect: number;
  /** 95% percentile interval of the resampled relative change */
  low: number;
  high: number;
  baseline: number;
  value: number;
  method: string;
}

export function statOfSorted(sorted: Float64Array, stat: LatencyStat): number {
  if (stat === "mean") {
    let sum = 0;
    for (let i = 0; i < sorted.length; i++) sum += sorted[i];
    return sum / sorted.length;
  }
  return percentileSorted(sorted, Number(stat.slice(1)));
}

type Draw = () => number;

/** One resampled value of `stat` per call. */
function resampler(sorted: Float64Array, stat: LatencyStat, rng: Random): { draw: Draw; method: string } {
  const n = sorted.length;
  if (stat === "mean") {
    if (n <= LITERAL_MEAN_MAX)
      return {
        method: "requests resampled",
        draw: () => {
          const next = rng.next;
          let sum = 0;
          for (let i = 0; i < n; i++) sum += sorted[(next() * n) | 0];
          return sum / n;
        },
      };
    const mean = statOfSorted(sorted, "mean");
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (sorted[i] - mean) ** 2;
    const se = Math.sqrt(ss / n / n);
    return { method: "normal limit of the resampled mean", draw: () => mean + se * rng.normal() };
  }
  const rank = (Number(stat.slice(1)) / 100) * (n - 1);
  const k = Math.floor(rank) + 1;
  const frac = rank - (k - 1);
  const at = (u: number) => sorted[Math.min(n - 1, Math.floor(u * n))];
  return {
    method: "order statistics of resampled requests",
    draw: () => {
      const u = rng.beta(k, n - k + 1);
      const lo = at(u);
      if (frac === 0 || k >= n) return lo;
      const next = u + (1 - u) * (1 - Math.pow(rng.uniform(), 1 / (n - k)));
      return lo + frac * (at(next) - lo);
    },
  };
}

/**
 * The relative change of `stat` from `baseline` to `run` (both ascending, finite) with its 95%
 * bootstrap interval. Each side is resampled independently, from one seeded stream.
 */
export function bootstrapChange(
  baseline: Float64Array,
  run: Float64Array,
  stat: LatencyStat,
  { resamples = DEFAULT_RESAMPLES, seed = DEFAULT_SEED }: { resamples?: number; seed?: number } = {},
): BootstrapResult | null {
  if (baseline.length < MIN_REQUESTS || run.length < MIN_REQUESTS) return null;
  const base = statOfSorted(baseline, stat);
  const value = statOfSorted(run, stat);
  if (base === 0) return null;
  const rng = new Random(seed);
  const b = resampler(baseline, stat, rng);
  const r = resampler(run, stat, rng);
  const changes = new Float64Array(resamples);
  const scale = Math.abs(base);
  for (let i = 0; i < resamples; i++) changes[i] = (r.draw() - b.draw()) / scale;
  changes.sort();
  return {
    effect: (value - base) / scale,
    low: percentileSorted(changes, 2.5),
    high: percentileSorted(changes, 97.5),
    baseline: base,
    value,
    method: `bootstrap, ${b.method === r.method ? b.method : `${b.method} / ${r.method}`}`,
  };
}
