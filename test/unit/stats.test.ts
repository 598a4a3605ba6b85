import { describe, expect, it } from "vitest";
import { computeStats, percentile } from "@/lib/metrics/stats";

describe("percentiles interpolate linearly like numpy", () => {
  // np.percentile([1, 2, 3, 4], [50, 90, 99]) → [2.5, 3.7, 3.97]
  it("matches numpy on a small set", () => {
    expect(percentile([4, 1, 3, 2], 50)).toBeCloseTo(2.5, 12);
    expect(percentile([4, 1, 3, 2], 90)).toBeCloseTo(3.7, 12);
    expect(percentile([4, 1, 3, 2], 99)).toBeCloseTo(3.97, 12);
  });
  it("handles one value and drops non-finite ones", () => {
    expect(percentile([7], 99)).toBe(7);
    expect(computeStats([1, NaN, 3, Infinity])).toMatchObject({ count: 2, mean: 2, min: 1, max: 3, p50: 2 });
    expect(computeStats([])).toBeNull();
  });
  it("p50 of 0..100 is 50 and p99 is 99", () => {
    const xs = Array.from({ length: 101 }, (_, i) => 100 - i);
    expect(computeStats(xs)).toMatchObject({ p50: 50, p90: 90, p95: 95, p99: 99, mean: 50 });
  });
});
