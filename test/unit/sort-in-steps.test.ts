/**
 * A sort in steps (lib/metrics/stats.ts `sortInSteps`) leaves what the one-piece sort leaves,
 * byte for byte: on random data with many ties, −0 and +0, infinities and NaN, at sizes below,
 * at and across its step, against `Float64Array.prototype.sort` (what `sortedFinite` used) and
 * `Array.prototype.sort` by value. `sortedFiniteInSteps` and `computeStatsInSteps` drop the
 * non-finite values first as `sortedFinite` and `computeStats` do, and give their answers.
 */
import { describe, expect, it } from "vitest";
import {
  computeStats,
  computeStatsInSteps,
  sortedFinite,
  sortedFiniteInSteps,
  sortInSteps,
} from "@/lib/metrics/stats";
import { atOnce, type Steps } from "@/lib/metrics/steps";
import {
  interactivityFromTpot,
  latencyStats,
  pointInputsFromRecordsInSteps,
} from "@/lib/metrics/sweep-point";
import { prng } from "../generators/prng.mjs";

const bytes = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** The answer, and how many steps it took. */
function run<T>(steps: Steps<T>): { value: T; steps: number } {
  let n = 0;
  for (;;) {
    const r = steps.next();
    if (r.done) return { value: r.value, steps: n };
    n++;
  }
}

/** `n` values drawn from a few kinds: ties from a small pool, wide floats, signed zeros, extremes. */
function randomValues(n: number, seed: number, special: boolean): Float64Array {
  const rand = prng(seed);
  const pool = Array.from({ length: 37 }, () => Math.round(rand() * 1000) / 8);
  const extremes = special ? [0, -0, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MAX_VALUE] : [0];
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.4) out[i] = pool[Math.floor(rand() * pool.length)];
    else if (r < 0.8) out[i] = (rand() - 0.3) * 10 ** Math.floor(rand() * 12 - 4);
    else if (r < 0.9) out[i] = Math.floor(rand() * 50) - 25;
    else out[i] = extremes[Math.floor(rand() * extremes.length)];
  }
  return out;
}

const SIZES = [0, 1, 2, 1_000, 16_384, 16_385, 40_000, 100_003];

describe("sortInSteps", () => {
  it.each(SIZES)("sorts %i values as Float64Array.prototype.sort does, byte for byte", (n) => {
    for (const special of [false, true]) {
      const values = randomValues(n, n + (special ? 1 : 0), special);
      const expected = values.slice().sort();
      const { value, steps } = run(sortInSteps(values.slice()));
      expect(bytes(value).equals(bytes(expected))).toBe(true);
      // Past one step's worth it takes many steps: that is what lets a server answer meanwhile.
      if (n > 40_000) expect(steps).toBeGreaterThan(4);
    }
  });

  it("agrees with Array.prototype.sort by value on finite values", () => {
    const values = randomValues(70_000, 11, false);
    const expected = Float64Array.from(
      Array.from(values).sort((a, b) => a - b || (Object.is(a, -0) ? -1 : Object.is(b, -0) ? 1 : 0)),
    );
    const value = atOnce(sortInSteps(values.slice()));
    expect(bytes(value).equals(bytes(expected))).toBe(true);
  });

  it("sorts a subarray in place and touches nothing around it", () => {
    const values = randomValues(60_000, 5, true);
    const whole = values.slice();
    const part = whole.subarray(7, 50_007);
    const sorted = atOnce(sortInSteps(part));
    expect(sorted).toBe(part);
    expect(bytes(part).equals(bytes(values.slice(7, 50_007).sort()))).toBe(true);
    expect(bytes(whole.subarray(0, 7)).equals(bytes(values.subarray(0, 7)))).toBe(true);
    expect(bytes(whole.subarray(50_007)).equals(bytes(values.subarray(50_007)))).toBe(true);
  });
});

describe("sortedFiniteInSteps and computeStatsInSteps", () => {
  it.each(SIZES)("drop the non-finite values and answer as the one-piece versions, %i values", (n) => {
    const values = randomValues(n, 3 * n + 2, true);
    const asNumbers = Array.from(values);
    expect(bytes(atOnce(sortedFiniteInSteps(values))).equals(bytes(sortedFinite(values)))).toBe(true);
    expect(atOnce(computeStatsInSteps(values))).toStrictEqual(computeStats(values));
    expect(atOnce(computeStatsInSteps(asNumbers))).toStrictEqual(computeStats(asNumbers));
  });

  it("answer as computeStats on integers too, where computeStats selects instead of sorting", () => {
    const rand = prng(9);
    const values = Array.from({ length: 50_001 }, () => Math.floor(rand() * 4_000));
    expect(atOnce(computeStatsInSteps(values))).toStrictEqual(computeStats(values));
  });
});

describe("the sweep point's statistics in steps", () => {
  it("are the one-piece statistics of the same columns", () => {
    const n = 60_000;
    const ttftMs = randomValues(n, 21, true);
    const e2eMs = randomValues(n, 22, false);
    const tpotMs = randomValues(n, 23, true);
    const tokens = Float64Array.from({ length: n }, (_, i) => i % 300);
    const cols = { ttftMs, e2eMs, tpotMs, inputTokens: tokens, outputTokens: tokens };
    const { value, steps } = run(pointInputsFromRecordsInSteps(cols, 120));
    expect(value.ttftMs).toStrictEqual(latencyStats(ttftMs));
    expect(value.e2eMs).toStrictEqual(latencyStats(e2eMs));
    expect(value.tpotMs).toStrictEqual(latencyStats(tpotMs));
    expect(value.tokPerSPerUser).toStrictEqual(interactivityFromTpot(tpotMs));
    expect(steps).toBeGreaterThan(12);
  });
});
