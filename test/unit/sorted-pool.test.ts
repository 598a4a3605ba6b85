/** The sliding window's pool (lib/metrics/regression/sorted-pool.ts) equals a sort of its runs. */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/metrics/regression/random";
import { mergeSorted, removeSorted, slideSorted } from "@/lib/metrics/regression/sorted-pool";

const sorted = (xs: number[]) => Float64Array.from(xs).sort();

describe("sorted pool", () => {
  it("merges and removes by hand", () => {
    expect([...mergeSorted(sorted([1, 3, 3, 7]), sorted([2, 3, 8]))]).toEqual([1, 2, 3, 3, 3, 7, 8]);
    expect([...removeSorted(sorted([1, 2, 3, 3, 3, 7, 8]), sorted([3, 7]))]).toEqual([1, 2, 3, 3, 8]);
    expect(() => removeSorted(sorted([1, 2]), sorted([5]))).toThrow(/not within the pool/);
    expect([...slideSorted(sorted([1, 2, 3, 3]), sorted([1, 3]), sorted([0, 3, 9]))]).toEqual([
      0, 2, 3, 3, 9,
    ]);
    expect(() => slideSorted(sorted([1, 2]), sorted([5]), sorted([3]))).toThrow(/not within the pool/);
  });

  it("slides a window of 3 over 8 runs with ties and matches sorting the window's values", () => {
    const rand = mulberry32(7);
    // Rounded to 0.5 so runs share values: a removal must take one copy, not every equal one.
    const runs = Array.from({ length: 8 }, () =>
      sorted(Array.from({ length: 50 }, () => Math.round(rand() * 40) / 2)),
    );
    let pool: Float64Array = new Float64Array(0);
    let slid: Float64Array = new Float64Array(0);
    for (let i = 0; i < runs.length; i++) {
      pool = mergeSorted(pool, runs[i]);
      if (i >= 3) pool = removeSorted(pool, runs[i - 3]);
      slid = i >= 3 ? slideSorted(slid, runs[i - 3], runs[i]) : mergeSorted(slid, runs[i]);
      const expected = sorted(runs.slice(Math.max(0, i - 2), i + 1).flatMap((r) => [...r]));
      expect([...pool]).toEqual([...expected]);
      expect([...slid]).toEqual([...expected]);
    }
  });
});
