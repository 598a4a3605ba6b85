/**
 * Property-based: percentiles by quickselect (lib/metrics/select.ts) are the sorted ones bit for
 * bit (numpy's linear interpolation over an ascending sort), and so are computeStats' figures.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { percentilesOf, selectRank } from "@/lib/metrics/select";
import { computeStats, percentileSorted, statsOfSorted } from "@/lib/metrics/stats";

const QS = [0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100];

/** Values with ties, signed zeros and both integers and fractions, as real columns have. */
const value = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.constantFrom(0, -0, 1e-300, -1e-300, 1e300),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const column = fc.oneof(
  fc.array(value, { minLength: 1, maxLength: 400 }),
  fc.array(fc.constantFrom(-0, 0, 1), { minLength: 1, maxLength: 50 }),
);
const same = (a: number, b: number) => Object.is(a, b);

describe("quickselect percentiles", () => {
  it("equal the sorted array's percentiles, bit for bit", () => {
    fc.assert(
      fc.property(column, (values) => {
        const sorted = Float64Array.from(values).sort();
        const got = percentilesOf(Float64Array.from(values), QS);
        QS.forEach((q, i) => expect(same(got[i], percentileSorted(sorted, q)), `p${q}`).toBe(true));
      }),
      { numRuns: 500 },
    );
  });

  it("put each rank's sorted value in place, smaller values before it and larger after", () => {
    fc.assert(
      fc.property(column, fc.nat(), (values, seed) => {
        const a = Float64Array.from(values);
        const k = seed % a.length;
        selectRank(a, k);
        const sorted = Float64Array.from(values).sort();
        // Signed zeros compare equal here; valuesAtRanks gives each rank its sign.
        expect(a[k] === sorted[k]).toBe(true);
        for (let i = 0; i < k; i++) expect(a[i] <= a[k]).toBe(true);
        for (let i = k + 1; i < a.length; i++) expect(a[i] >= a[k]).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("stay exact on inputs that defeat a median-of-three pivot (sorted, reversed, organ pipe, all equal)", () => {
    const n = 20_001;
    const shapes = [
      Array.from({ length: n }, (_, i) => i),
      Array.from({ length: n }, (_, i) => n - i),
      Array.from({ length: n }, (_, i) => (i < n / 2 ? i : n - i)),
      Array.from({ length: n }, () => 7),
    ];
    for (const values of shapes) {
      const sorted = Float64Array.from(values).sort();
      const got = percentilesOf(Float64Array.from(values), QS);
      QS.forEach((q, i) => expect(got[i]).toBe(percentileSorted(sorted, q)));
    }
  });
});

describe("computeStats", () => {
  it("gives the figures of a full sort, bit for bit, for counts and for fractional values", () => {
    const withGaps = fc.array(fc.oneof(value, fc.constantFrom(NaN, Infinity, -Infinity)), {
      maxLength: 300,
    });
    fc.assert(
      fc.property(withGaps, (values) => {
        const finite = Float64Array.from(values.filter(Number.isFinite)).sort();
        const want = statsOfSorted(finite);
        const got = computeStats(values);
        if (want === null) {
          expect(got).toBeNull();
          return;
        }
        expect(got).not.toBeNull();
        for (const k of Object.keys(want) as Array<keyof typeof want>)
          expect(same(got![k], want[k]), k).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
