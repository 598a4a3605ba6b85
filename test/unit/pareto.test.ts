import { describe, expect, it } from "vitest";
import { compareFrontiersAt, paretoFrontier, readFrontier, type Axes } from "@/lib/metrics/pareto";

// Throughput per GPU (y, higher is better) against interactivity (x, higher is better).
const maxMax: Axes = { x: "max", y: "max" };
const pts = (xs: Array<[number, number, string]>) => xs.map(([x, y, item]) => ({ x, y, item }));

describe("paretoFrontier", () => {
  it("drops points dominated on both axes and sorts the rest by x", () => {
    const f = paretoFrontier(
      pts([
        [100, 500, "c1"],
        [80, 900, "c2"],
        [50, 1500, "c4"],
        [40, 1400, "c8 (worse on both than c4)"],
        [90, 400, "dominated by c1"],
      ]),
      maxMax,
    );
    expect(f.map((p) => p.item)).toEqual(["c4", "c2", "c1"]);
  });

  it("keeps both points of an exact tie, and drops the worse of two at the same x", () => {
    const f = paretoFrontier(
      pts([
        [50, 1000, "a"],
        [50, 1000, "b"],
        [50, 800, "same x, lower y"],
        [20, 1200, "c"],
      ]),
      maxMax,
    );
    expect(f.map((p) => p.item)).toEqual(["c", "a", "b"]);
  });

  it("honours minimised axes (TTFT against request throughput)", () => {
    // x = requests/s (max), y = TTFT ms (min)
    const f = paretoFrontier(
      pts([
        [1, 30, "c1"],
        [2, 35, "c2"],
        [1.5, 40, "dominated by c2"],
      ]),
      { x: "max", y: "min" },
    );
    expect(f.map((p) => p.item)).toEqual(["c1", "c2"]);
  });

  it("has one point for a one-point sweep and none for unmeasured values", () => {
    expect(paretoFrontier(pts([[10, 20, "only"]]), maxMax).map((p) => p.item)).toEqual(["only"]);
    expect(paretoFrontier(pts([[NaN, 20, "x"]]), maxMax)).toEqual([]);
  });
});

describe("readFrontier", () => {
  const frontier = [
    { x: 20, y: 2000 },
    { x: 40, y: 1600 },
    { x: 80, y: 800 },
  ];

  it("interpolates linearly between the neighbours", () => {
    // 50 lies a quarter of the way from 40 to 80: 1600 + (800 − 1600) × 0.25 = 1400
    expect(readFrontier(frontier, 50)).toEqual({ y: 1400, how: "interpolated", from: [40, 80] });
    expect(readFrontier(frontier, 40)).toEqual({ y: 1600, how: "exact", from: [40, 40] });
  });

  it("says when it extrapolates beyond the measured range", () => {
    // past 80 along the last segment: slope −20 per unit → at 90: 800 − 200 = 600
    expect(readFrontier(frontier, 90)).toEqual({ y: 600, how: "extrapolated", from: [40, 80] });
    // before 20 along the first segment: slope −20 → at 10: 2000 + 200 = 2200
    expect(readFrontier(frontier, 10)).toEqual({ y: 2200, how: "extrapolated", from: [20, 40] });
  });

  it("reads a one-point frontier only at its point", () => {
    expect(readFrontier([{ x: 5, y: 9 }], 5).y).toBe(9);
    expect(readFrontier([{ x: 5, y: 9 }], 6).how).toBe("none");
    expect(readFrontier([], 6).how).toBe("none");
  });

  it("compares frontiers at equal interactivity against the first", () => {
    const b = [
      { x: 30, y: 1500 },
      { x: 70, y: 900 },
    ];
    // B at 50: 1500 + (900 − 1500) × 0.5 = 1200; A at 50: 1400 → (1200 − 1400) / 1400 = −14.2857…%
    const cmp = compareFrontiersAt([frontier, b], 50);
    expect(cmp.readings.map((r) => r.y)).toEqual([1400, 1200]);
    expect(cmp.deltas[0]).toBeNull();
    expect(cmp.deltas[1]).toBeCloseTo(-200 / 1400, 12);
  });
});
