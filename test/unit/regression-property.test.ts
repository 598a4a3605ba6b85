/**
 * The verdicts are honest over many generated runs, not one lucky draw (docs/metrics.md
 * §Regressions): two runs from the same distribution are judged within noise at the documented
 * false-positive rate (nominal 5% per metric at threshold 0), and a shift of twice the noise
 * band is caught. Observed rates are asserted with room for the binomial spread of the trials.
 */
import { describe, expect, it } from "vitest";
import { bootstrapChange, type LatencyStat } from "@/lib/metrics/regression/bootstrap";
import { classify } from "@/lib/metrics/regression/judge";
import { bandSigmas, spreadChange } from "@/lib/metrics/regression/spread";
import { prng } from "../generators/prng.mjs";

/** Lognormal latencies (median `medianMs`, σ 0.4): the right-skewed shape TTFT has. */
function latencies(rand: () => number, n: number, medianMs: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    out[i] = medianMs * Math.exp(0.4 * z);
  }
  return out.sort();
}

const normal = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

describe("bootstrap verdicts over 200 seeds", () => {
  const TRIALS = 200;
  // At a true rate of 5%, 200 trials exceed 18 false positives (9%) with probability < 1%.
  it.each<LatencyStat>(["p50", "p99", "mean"])(
    "%s: same distribution → within noise in at most 9 percent of trials",
    (stat) => {
      let flagged = 0;
      for (let seed = 1; seed <= TRIALS; seed++) {
        const rand = prng(seed);
        const a = latencies(rand, 400, 50);
        const b = latencies(rand, 400, 50);
        const r = bootstrapChange(a, b, stat, { seed })!;
        if (classify(r.effect, r.low, r.high, 0, "lower") !== "within noise") flagged++;
      }
      expect(flagged / TRIALS).toBeLessThanOrEqual(0.09);
      // And not a test that passes by never flagging: the nominal rate is 5%.
      expect(flagged).toBeGreaterThan(0);
    },
  );

  it.each<LatencyStat>(["p50", "p99", "mean"])(
    "%s: a shift of 2× the noise band is caught in at least 90 percent",
    (stat) => {
      let caught = 0;
      for (let seed = 1; seed <= TRIALS; seed++) {
        const rand = prng(1000 + seed);
        const a = latencies(rand, 400, 50);
        const b = latencies(rand, 400, 50);
        const noise = bootstrapChange(a, b, stat, { seed })!;
        // The noise band of this comparison: the half-width of its interval under no change.
        const shift = 1 + (noise.high - noise.low);
        const shifted = b.map((v) => v * shift);
        const r = bootstrapChange(a, shifted, stat, { seed })!;
        if (classify(r.effect, r.low, r.high, 0, "lower") === "regressed") caught++;
      }
      expect(caught / TRIALS).toBeGreaterThanOrEqual(0.9);
    },
  );
});

describe("run-to-run spread verdicts over 4,000 seeds", () => {
  const TRIALS = 4000;
  it.each([3, 5, 10, 20])("%i earlier runs: same distribution → flagged in 5 ± 1.2 percent", (n) => {
    let flagged = 0;
    for (let seed = 1; seed <= TRIALS; seed++) {
      const rand = prng(seed * 7919 + n);
      const history = Array.from({ length: n }, () => 1000 + 30 * normal(rand));
      const value = 1000 + 30 * normal(rand);
      const s = spreadChange(history, value);
      if (typeof s === "object" && s && classify(s.effect, s.low, s.high, 0, "higher") !== "within noise")
        flagged++;
    }
    // 4,000 trials at 5%: sd 0.34%; ±1.2% also covers the band table's own simulation error.
    expect(Math.abs(flagged / TRIALS - 0.05)).toBeLessThanOrEqual(0.012);
  });

  it.each([5, 10, 20])(
    "%i earlier runs: a drop of 2× the noise band is caught in at least 90 percent",
    (n) => {
      let caught = 0;
      for (let seed = 1; seed <= TRIALS; seed++) {
        const rand = prng(seed * 104729 + n);
        const history = Array.from({ length: n }, () => 1000 + 30 * normal(rand));
        // The band's half-width for these runs is bandSigmas(n) σ; the drop is twice that.
        const value = 1000 + 30 * normal(rand) - 2 * bandSigmas(n) * 30;
        const s = spreadChange(history, value);
        if (typeof s === "object" && s && classify(s.effect, s.low, s.high, 0, "higher") === "regressed")
          caught++;
      }
      expect(caught / TRIALS).toBeGreaterThanOrEqual(0.9);
    },
  );
});
