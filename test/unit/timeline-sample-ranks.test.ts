import { describe, expect, it } from "vitest";
import { stableRanksByStart } from "@/lib/metrics/aiperf-timeline";

/** The reference: every (n / max)-th record of a stable comparator sort of all of them by start */
function byComparator(start: Float64Array, ok: Uint32Array, max: number): number[] {
  const all = Array.from(ok).sort((a, b) => start[a] - start[b]);
  const step = all.length / max;
  return Array.from({ length: max }, (_, i) => all[Math.floor(i * step)]);
}

/** A seeded generator (mulberry32) */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("stableRanksByStart", () => {
  // Only for more records than ranks (sampledOk sorts a few records whole).
  it("takes the records a stable sort by start puts at those ranks: ties in index order, -0 as 0", () => {
    const random = rng(7);
    for (const [n, distinct, max] of [
      [5_000, 3, 2000],
      [5_000, 40, 2000],
      [9_999, 1e9, 2000],
      [2_400, 2, 2000],
      [30_000, 500, 1999],
    ]) {
      const start = new Float64Array(n + 10);
      for (let i = 0; i < start.length; i++) {
        const v = Math.floor(random() * distinct) - 1;
        // Starts before the base are negative; a zero may be -0, as a negative delta rounded can be.
        start[i] = v === 0 && random() < 0.5 ? -0 : v;
      }
      // Some indices left out, as warm-up and failed records are.
      const ok = Uint32Array.from({ length: start.length }, (_, i) => i).filter((i) => i % 7 !== 3);
      expect(stableRanksByStart(start, ok, max), `${n} records, ${distinct} starts`).toEqual(
        byComparator(start, ok, max),
      );
    }
  });
});
