/**
 * The uncertainty rule of the Pareto front (docs/metrics.md §Sweeps, "Repeated runs"): repeated
 * runs of one sweep point are one point at their median with their min–max on both axes, and two
 * readings are within each other's spread when those intervals overlap.
 */
import { describe, expect, it } from "vitest";
import type { Sweep, SweepPoint, SweepRun } from "@/lib/api/sweeps";
import { compareSpreads, spreadOf } from "@/lib/metrics/run-spread";
import { chartAxes, readSweepsAt, sweepSeries } from "@/lib/metrics/sweep-chart-rows";

describe("spreadOf", () => {
  it("is the median with the min and max, numpy's median for an even count", () => {
    expect(spreadOf([1200, 1000, 1350])).toEqual({ value: 1200, lo: 1000, hi: 1350, runs: 3 });
    expect(spreadOf([10, 20, 40, 30])).toEqual({ value: 25, lo: 10, hi: 40, runs: 4 });
    expect(spreadOf([7])).toEqual({ value: 7, lo: 7, hi: 7, runs: 1 });
    expect(spreadOf([NaN])).toBeNull();
  });
});

describe("compareSpreads", () => {
  const s = (lo: number, hi: number, runs = 3) => ({ value: (lo + hi) / 2, lo, hi, runs });
  it("is within when the min–max ranges overlap, touching included", () => {
    expect(compareSpreads(s(1000, 1200), s(1150, 1300))).toBe("within");
    expect(compareSpreads(s(1000, 1200), s(1200, 1300))).toBe("within");
  });
  it("is apart when both are repeated and the ranges do not overlap", () => {
    expect(compareSpreads(s(1000, 1200), s(1201, 1300))).toBe("apart");
    expect(compareSpreads(s(1000, 1200, 2), s(800, 999, 2))).toBe("apart");
  });
  it("is unknown with a single run outside the other's range, or single runs on both sides", () => {
    expect(compareSpreads(s(1000, 1200), s(1300, 1300, 1))).toBe("unknown");
    expect(compareSpreads(s(1000, 1000, 1), s(1000, 1000, 1))).toBe("unknown");
    // A single run inside the other's range is within it.
    expect(compareSpreads(s(1000, 1200), s(1100, 1100, 1))).toBe("within");
  });
});

const point = (o: Partial<SweepPoint>): SweepPoint => ({
  outputTokPerSPerGpu: null,
  totalTokPerSPerGpu: null,
  requestsPerSPerGpu: null,
  tokPerSPerUser: null,
  outputTokPerS: null,
  totalTokPerS: null,
  requestsPerS: null,
  ttftMs: null,
  e2eMs: null,
  tpotMs: null,
  missing: {},
  ...o,
});

function run(id: string, c: number, user: number, gpu: number, setup = "a"): SweepRun {
  const p = point({ tokPerSPerUser: user, outputTokPerSPerGpu: gpu });
  return {
    id,
    name: `run ${id}`,
    status: "ready",
    concurrency: c,
    requestRate: null,
    gpuCount: null,
    setup,
    source: "records",
    sourceNote: null,
    points: { mean: p, p50: p, p90: p, p99: p },
  };
}

describe("sweepSeries with repeated runs", () => {
  const { x, y } = chartAxes("interactivity", "output");
  const sweep: Pick<Sweep, "runs"> = {
    runs: [
      run("a1", 1, 100, 400),
      run("a4", 4, 60, 1000),
      run("b4", 4, 64, 1350),
      run("c4", 4, 58, 1200),
      run("a16", 16, 30, 2000),
      // Same load, another setup (another model): its own point, never pooled.
      run("other", 4, 10, 50, "b"),
    ],
  };
  const s = sweepSeries(sweep, "p50", x, y);

  it("draws the three c4 runs of one setup as one point: median on both axes, min–max as its interval", () => {
    const c4 = s.points.find((p) => p.label === "c4 ×3")!;
    expect(c4.runIds).toEqual(["a4", "b4", "c4"]);
    expect([c4.x, c4.y]).toEqual([60, 1200]);
    expect(c4.xSpread).toEqual({ value: 60, lo: 58, hi: 64, runs: 3 });
    expect(c4.ySpread).toEqual({ value: 1200, lo: 1000, hi: 1350, runs: 3 });
    expect(c4.xErr).toEqual([2, 4]);
    expect(c4.yErr).toEqual([200, 150]);
    expect(s.points.map((p) => p.label)).toEqual(["c1", "c4 ×3", "c16", "c4"]);
  });

  it("takes the frontier over the medians and draws it as a step", () => {
    expect(s.frontier.map((p) => p.label)).toEqual(["c16", "c4 ×3", "c1"]);
    expect(s.steps).toEqual([
      { x: 30, y: 2000 },
      { x: 30, y: 1200 },
      { x: 60, y: 1200 },
      { x: 60, y: 400 },
      { x: 100, y: 400 },
    ]);
  });

  it("says at equal interactivity when two sweeps are within each other's spread, and when not", () => {
    // B: its c4 repeated at 1,300–1,500 tok/s/GPU, overlapping A's 1,000–1,350 → within.
    const b = sweepSeries(
      { runs: [run("b1", 4, 62, 1300), run("b2", 4, 61, 1500), run("b3", 4, 65, 1400)] },
      "p50",
      x,
      y,
    );
    // C: its c4 at 1,600–1,700: apart from A, and C is ahead.
    const c = sweepSeries({ runs: [run("c1", 4, 62, 1600), run("c2", 4, 63, 1700)] }, "p50", x, y);
    // D: one run: its spread is not known.
    const d = sweepSeries({ runs: [run("d1", 4, 62, 1600)] }, "p50", x, y);
    const r = readSweepsAt([s, b, c, d], 50, x, y);
    expect(r.readings.map((q) => q.y)).toEqual([1200, 1400, 1650, 1600]);
    expect(r.verdicts).toEqual([null, "within", "apart", "unknown"]);
    expect(r.deltas[1]).toBeCloseTo(200 / 1200, 12);
  });
});
