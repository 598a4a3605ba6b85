import { describe, expect, it } from "vitest";
import {
  compareFrontiersAt,
  frontierSteps,
  paretoFrontier,
  readFrontier,
  type Axes,
} from "@/lib/metrics/pareto";

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

describe("readFrontier (the step it is drawn as)", () => {
  // Interactivity (x, max) against throughput per GPU (y, max): more interactivity, less throughput.
  const frontier = [
    { x: 20, y: 2000 },
    { x: 40, y: 1600 },
    { x: 80, y: 800 },
  ];

  it("reads the best y among the points with at least that interactivity: the next point past x", () => {
    // At 50 tok/s/user only the point at 80 reaches it: 800, not a line's 1400 between 40 and 80.
    expect(readFrontier(frontier, 50, maxMax)).toMatchObject({ y: 800, how: "step", point: { x: 80 } });
    expect(readFrontier(frontier, 40, maxMax)).toMatchObject({ y: 1600, how: "exact", point: { x: 40 } });
    expect(readFrontier(frontier, 20.5, maxMax)).toMatchObject({ y: 1600, how: "step" });
  });

  it("reads past the low end off the nearest point, and nothing past the highest interactivity", () => {
    expect(readFrontier(frontier, 10, maxMax)).toMatchObject({ y: 2000, how: "beyond", point: { x: 20 } });
    const r = readFrontier(frontier, 90, maxMax);
    expect(r.how).toBe("none");
    expect(r.y).toBeNull();
    if (r.how === "none") expect(r.reason).toBe("no point reaches it (the highest is 80.00)");
  });

  it("reads a latency budget (x minimised) off the last point within it", () => {
    // E2E ms (x, min) against throughput (y, max): more latency buys throughput.
    const lat = [
      { x: 500, y: 300 },
      { x: 900, y: 700 },
      { x: 2000, y: 1100 },
    ];
    const axes: Axes = { x: "min", y: "max" };
    expect(readFrontier(lat, 1500, axes)).toMatchObject({ y: 700, how: "step", point: { x: 900 } });
    expect(readFrontier(lat, 3000, axes)).toMatchObject({ y: 1100, how: "beyond" });
    expect(readFrontier(lat, 400, axes).how).toBe("none");
  });

  it("reads a one-point frontier at and on the good side of its point only", () => {
    expect(readFrontier([{ x: 5, y: 9 }], 5, maxMax).y).toBe(9);
    expect(readFrontier([{ x: 5, y: 9 }], 4, maxMax)).toMatchObject({ y: 9, how: "beyond" });
    expect(readFrontier([{ x: 5, y: 9 }], 6, maxMax).how).toBe("none");
    expect(readFrontier([], 6, maxMax).how).toBe("none");
  });

  it("draws the step through the corners the reading takes", () => {
    // x maximised: just past a point the next one gives the reading, so the step drops at each point.
    expect(frontierSteps(frontier, maxMax)).toEqual([
      { x: 20, y: 2000 },
      { x: 20, y: 1600 },
      { x: 40, y: 1600 },
      { x: 40, y: 800 },
      { x: 80, y: 800 },
    ]);
    // x minimised: a point's y holds until the next point.
    expect(
      frontierSteps(
        [
          { x: 500, y: 300 },
          { x: 900, y: 700 },
        ],
        { x: "min", y: "max" },
      ),
    ).toEqual([
      { x: 500, y: 300 },
      { x: 900, y: 300 },
      { x: 900, y: 700 },
    ]);
    // Every corner is read back as the step's value just inside it.
    for (const x of [25, 39.9, 41, 79])
      expect(readFrontier(frontier, x, maxMax).y).toBe(x <= 40 ? 1600 : 800);
  });

  it("compares frontiers at equal interactivity against the first", () => {
    const b = [
      { x: 30, y: 1500 },
      { x: 70, y: 900 },
    ];
    // At 50: A's step gives 800 (its point at 80), B's 900 (its point at 70): (900 − 800) / 800 = +12.5%
    const cmp = compareFrontiersAt([frontier, b], 50, maxMax);
    expect(cmp.readings.map((r) => r.y)).toEqual([800, 900]);
    expect(cmp.deltas[0]).toBeNull();
    expect(cmp.deltas[1]).toBeCloseTo(0.125, 12);
  });
});
