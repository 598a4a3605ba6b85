/**
 * The statistics behind the noise-aware verdicts (docs/metrics.md §Regressions), pinned against
 * values computed by hand (written out beside each case) or by independent code in this file.
 */
import { describe, expect, it } from "vitest";
import { bootstrapChange } from "@/lib/metrics/regression/bootstrap";
import { parseFailOn, parseThresholds } from "@/lib/metrics/regression/catalog";
import { classify } from "@/lib/metrics/regression/judge";
import { mulberry32, Random } from "@/lib/metrics/regression/random";
import { bandSigmas, noiseBand, spreadChange } from "@/lib/metrics/regression/spread";
import { prng } from "../generators/prng.mjs";

/** numpy.percentile's default (linear), written here apart from lib/. */
function pct(sorted: ArrayLike<number>, q: number): number {
  const rank = (q / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

const binom10 = (k: number) => {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (10 - i)) / (i + 1);
  return c / 1024;
};

/** Exact quantile of a discrete distribution given as value → probability. */
function exactQuantile(dist: Map<number, number>, p: number): number {
  let acc = 0;
  for (const [v, w] of [...dist].sort((a, b) => a[0] - b[0])) {
    acc += w;
    if (acc >= p - 1e-12) return v;
  }
  return NaN;
}

describe("mulberry32", () => {
  it("draws what the test generators' independent copy draws for the same seed", () => {
    const ours = mulberry32(7);
    const theirs = prng(7);
    for (let i = 0; i < 1000; i++) expect(ours()).toBe(theirs());
  });

  it("Beta(k, n−k+1) draws have the mean k/(n+1)", () => {
    const r = new Random(3);
    let sum = 0;
    for (let i = 0; i < 20000; i++) sum += r.beta(3, 8);
    // Beta(3, 8) has mean 3/11 = 0.2727; the mean of 20,000 draws has sd 0.13/√20000 ≈ 0.0009.
    expect(sum / 20000).toBeCloseTo(3 / 11, 2);
  });
});

describe("bootstrapChange", () => {
  // Baseline: five requests at 10 ms and five at 20 ms; run: five at 10 ms and five at 30 ms.
  const base = Float64Array.from([10, 10, 10, 10, 10, 20, 20, 20, 20, 20]);
  const run = Float64Array.from([10, 10, 10, 10, 10, 30, 30, 30, 30, 30]);

  it("mean: the interval is the exact bootstrap distribution's 2.5% and 97.5% quantiles", () => {
    // By hand: a resample of the baseline holds K twenties, K ~ Binomial(10, ½), so its mean is
    // 10 + K; the run's is 10 + 2J, J ~ Binomial(10, ½) independent. The relative change against
    // the baseline mean 15 is (2J − K)/15. Effect: (20 − 15)/15 = 1/3.
    const dist = new Map<number, number>();
    for (let j = 0; j <= 10; j++)
      for (let k = 0; k <= 10; k++) {
        const v = (2 * j - k) / 15;
        dist.set(v, (dist.get(v) ?? 0) + binom10(j) * binom10(k));
      }
    const res = bootstrapChange(base, run, "mean", { resamples: 40000, seed: 11 })!;
    expect(res.effect).toBeCloseTo(1 / 3, 12);
    // Exact, from the enumeration above: P(2J − K ≤ −3) = 0.0158 and P(≤ −2) = 0.0322, so the
    // 2.5% point is −2/15; P(≤ 11) = 0.9678 and P(≤ 12) = 0.9842, so the 97.5% point is 12/15.
    // Both sit well inside one atom, so 40,000 resamples land on them exactly.
    expect(exactQuantile(dist, 0.025)).toBeCloseTo(-2 / 15, 12);
    expect(exactQuantile(dist, 0.975)).toBeCloseTo(12 / 15, 12);
    expect(res.low).toBeCloseTo(-2 / 15, 12);
    expect(res.high).toBeCloseTo(12 / 15, 12);
  });

  it("p50: the order-statistic draws give the exact bootstrap distribution of the median", () => {
    // By hand: p50 of 10 values interpolates the 5th and 6th smallest halfway. With K twenties in
    // the baseline resample it is 10 (K ≤ 4), 15 (K = 5) or 20 (K ≥ 6); the run's is 10, 20 or 30
    // likewise with J. P(K ≤ 4) = 386/1024, P(K = 5) = 252/1024, P(K ≥ 6) = 386/1024.
    const median = new Map([
      [0, 386 / 1024],
      [0.5, 252 / 1024],
      [1, 386 / 1024],
    ]);
    const dist = new Map<number, number>();
    for (const [a, pa] of median)
      for (const [b, pb] of median) {
        const v = (10 + 20 * a - (10 + 10 * b)) / 15;
        dist.set(v, (dist.get(v) ?? 0) + pa * pb);
      }
    const res = bootstrapChange(base, run, "p50", { resamples: 40000, seed: 5 })!;
    expect(res.effect).toBeCloseTo((20 - 15) / 15, 12);
    // Exact: P(change = −⅔) = (386/1024)² = 0.142, so the 2.5% point is −⅔; the 97.5% point is +4/3.
    expect(exactQuantile(dist, 0.025)).toBeCloseTo(-2 / 3, 12);
    expect(exactQuantile(dist, 0.975)).toBeCloseTo(4 / 3, 12);
    expect(res.low).toBeCloseTo(-2 / 3, 12);
    expect(res.high).toBeCloseTo(4 / 3, 12);
    // The frequency of each atom matches: count them in a fresh draw of the same stream.
    const counts = new Map<number, number>();
    const r = new Random(17);
    for (let i = 0; i < 40000; i++) {
      // Beta(5, 6) is the 5th smallest of 10 uniforms; ⌊10·U⌋ ≥ 5 picks a twenty.
      const u = r.beta(5, 6);
      const next = u + (1 - u) * (1 - Math.pow(r.uniform(), 1 / 5));
      const m = ((Math.floor(10 * u) >= 5 ? 1 : 0) + (Math.floor(10 * next) >= 5 ? 1 : 0)) / 2;
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
    for (const [m, p] of median) expect(counts.get(m)! / 40000).toBeCloseTo(p, 2);
  });

  it("p90 agrees with resampling requests one by one (independent code below)", () => {
    const rand = prng(99);
    const draw = (n: number, scale: number) =>
      Float64Array.from(
        { length: n },
        () => scale * Math.exp(0.5 * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())),
      ).sort();
    const a = draw(300, 50);
    const b = draw(300, 55);
    // Literal bootstrap: 4,000 resamples of each side, sorted, p90 by numpy's rule.
    const pick = prng(4);
    const changes: number[] = [];
    const base90 = pct(a, 90);
    for (let i = 0; i < 4000; i++) {
      const ra = Float64Array.from(a, () => a[Math.floor(pick() * a.length)]).sort();
      const rb = Float64Array.from(b, () => b[Math.floor(pick() * b.length)]).sort();
      changes.push((pct(rb, 90) - pct(ra, 90)) / base90);
    }
    changes.sort((x, y) => x - y);
    const literal = { low: pct(changes, 2.5), high: pct(changes, 97.5) };
    const ours = bootstrapChange(a, b, "p90", { resamples: 4000, seed: 8 })!;
    expect(ours.effect).toBeCloseTo((pct(b, 90) - base90) / base90, 12);
    const width = literal.high - literal.low;
    // Two Monte Carlo estimates of the same quantiles: within a tenth of the interval's width.
    expect(Math.abs(ours.low - literal.low)).toBeLessThan(0.1 * width);
    expect(Math.abs(ours.high - literal.high)).toBeLessThan(0.1 * width);
  });

  it("is reproducible: the same seed gives the same interval, another seed a nearby one", () => {
    const a = Float64Array.from({ length: 500 }, (_, i) => 20 + (i % 100)).sort();
    const b = Float64Array.from({ length: 500 }, (_, i) => 21 + (i % 100)).sort();
    const one = bootstrapChange(a, b, "p99", { seed: 42 })!;
    expect(bootstrapChange(a, b, "p99", { seed: 42 })).toEqual(one);
    const other = bootstrapChange(a, b, "p99", { seed: 43 })!;
    expect(other.low).not.toBe(one.low);
    expect(Math.abs(other.low - one.low)).toBeLessThan(0.02);
  });

  it("gives no verdict below ten requests a side", () => {
    expect(bootstrapChange(Float64Array.from([1, 2, 3]), Float64Array.from([1, 2, 3]), "p50")).toBeNull();
  });
});

describe("noise band and spread verdict", () => {
  it("median ± band sigmas × 1.4826 × MAD, by hand", () => {
    // History 100, 102, 98, 110, 101: median 101; deviations 1, 1, 3, 9, 0 → MAD 1 → σ 1.4826;
    // five runs → 6.01 σ → half-width 8.910426.
    const band = noiseBand([100, 102, 98, 110, 101])!;
    expect(band.center).toBe(101);
    expect(band.sigma).toBeCloseTo(1.4826, 12);
    expect(band.halfWidth).toBeCloseTo(8.910426, 6);
    // Throughput 90 against the median: change −11/101 = −0.108911, ±8.910426/101 = ±0.088222.
    const s = spreadChange([100, 102, 98, 110, 101], 90);
    if (typeof s !== "object" || !s) throw new Error("no result");
    expect(s.effect).toBeCloseTo(-0.108911, 6);
    expect(s.low).toBeCloseTo(-0.197133, 6);
    expect(s.high).toBeCloseTo(-0.020689, 6);
    expect(classify(s.effect, s.low, s.high, 0.03, "higher")).toBe("regressed");
    // 95: change −0.059406, interval −0.147628 … +0.028816 straddles 0 → within noise.
    const t = spreadChange([100, 102, 98, 110, 101], 95);
    if (typeof t !== "object" || !t) throw new Error("no result");
    expect(t.high).toBeCloseTo(0.028816, 6);
    expect(classify(t.effect, t.low, t.high, 0.03, "higher")).toBe("within noise");
  });

  it("says not enough history below three runs, and uses the given baseline when there is one", () => {
    expect(spreadChange([1, 2], 3)).toBe("not enough history");
    const s = spreadChange([100, 102, 98, 110, 101], 90, 100);
    if (typeof s !== "object" || !s) throw new Error("no result");
    expect(s.effect).toBeCloseTo(-0.1, 12);
    expect(bandSigmas(2)).toBe(bandSigmas(3));
    expect(bandSigmas(100)).toBe(bandSigmas(30));
  });
});

describe("classify", () => {
  it("needs the whole interval on one side and the change past the threshold", () => {
    expect(classify(0.1, 0.02, 0.18, 0.05, "lower")).toBe("regressed");
    expect(classify(0.04, 0.02, 0.06, 0.05, "lower")).toBe("within noise");
    expect(classify(0.1, -0.01, 0.2, 0.05, "lower")).toBe("within noise");
    expect(classify(-0.1, -0.18, -0.02, 0.05, "lower")).toBe("improved");
    expect(classify(-0.1, -0.18, -0.02, 0.05, "higher")).toBe("regressed");
    expect(classify(0.1, 0.02, 0.18, 0.05, "higher")).toBe("improved");
  });
});

describe("thresholds and gate rules", () => {
  it("parses percentages and refuses rules that point the wrong way", () => {
    expect(parseThresholds("ttft.p99: 5%, throughput:3")).toEqual({ "ttft.p99": 0.05, throughput: 0.03 });
    expect(parseFailOn("ttft.p99>5%,throughput<-3%")).toEqual([
      { metric: "ttft.p99", op: ">", limit: 0.05, text: "ttft.p99>5%" },
      { metric: "throughput", op: "<", limit: -0.03, text: "throughput<-3%" },
    ]);
    expect(() => parseFailOn("throughput>3%")).toThrow(/falls \(use <\)/);
    expect(() => parseFailOn("ttft.p42>3%")).toThrow(/unknown metric/);
    expect(() => parseThresholds("ttft.p99:lots")).toThrow(/not a percentage/);
  });
});
