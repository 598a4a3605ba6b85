/** Histogram and CDF of one metric, with the p50/p75/p90/p99 markers the latency view draws. */
import type { Distribution } from "@/lib/api/aiperf-charts";
import { niceBins, niceBinsInSteps } from "./nice-scale";
import { percentileSorted, sortedFinite } from "./stats";
import { atOnce, type Steps } from "./steps";

const CDF_POINTS = 200;

export function computeDistribution(values: ArrayLike<number>, binCount = 40): Distribution | null {
  return distributionOfSorted(sortedFinite(values), binCount);
}

/** The distribution of values already sorted ascending and finite. */
export function distributionOfSorted(sorted: Float64Array, binCount = 40): Distribution | null {
  return atOnce(distributionOfSortedInSteps(sorted, binCount));
}

/** `distributionOfSorted` in steps: its histogram's bins counted in steps (`niceBinsInSteps`). */
export function* distributionOfSortedInSteps(
  sorted: Float64Array,
  binCount = 40,
): Steps<Distribution | null> {
  const n = sorted.length;
  if (n === 0) return null;
  const min = sorted[0];
  const max = sorted[n - 1];
  const bins = yield* niceBinsInSteps(sorted, min, max, Math.min(binCount, n));
  const cdf: Distribution["cdf"] = [];
  // Points at evenly spaced ranks; the fraction at rank i is (i + 1) / n, so the last point is 1.
  const step = Math.max(1, (n - 1) / CDF_POINTS);
  for (let r = 0; r < n; r += step) {
    const i = Math.min(n - 1, Math.round(r));
    cdf.push({ value: sorted[i], fraction: (i + 1) / n });
  }
  if (cdf[cdf.length - 1].fraction !== 1) cdf.push({ value: max, fraction: 1 });
  return {
    count: n,
    min,
    max,
    p50: percentileSorted(sorted, 50),
    p75: percentileSorted(sorted, 75),
    p90: percentileSorted(sorted, 90),
    p99: percentileSorted(sorted, 99),
    bins,
    cdf,
  };
}

/** About `binCount` bins of one round width over [min, max] (nice-scale.ts); the maximum falls in the last. */
export function histogramBins(sorted: Float64Array, binCount: number): Distribution["bins"] {
  const n = sorted.length;
  return niceBins(sorted, sorted[0], sorted[n - 1], Math.min(binCount, n));
}
