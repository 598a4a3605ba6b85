import { describe, expect, it } from "vitest";
import { niceTicks } from "@/lib/metrics/nice-ticks";

describe("nice ticks", () => {
  it("step by 1, 2, 2.5 or 5 × 10ⁿ from 0 to just above the maximum", () => {
    expect(niceTicks(105)).toEqual([0, 25, 50, 75, 100, 125]);
    expect(niceTicks(570)).toEqual([0, 200, 400, 600]);
    expect(niceTicks(16_000)).toEqual([0, 5000, 10_000, 15_000, 20_000]);
    expect(niceTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(7.2)).toEqual([0, 2, 4, 6, 8]);
  });
  it("give a 0–1 axis when there is nothing above 0", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(NaN)).toEqual([0, 1]);
  });
});
