import { describe, expect, it } from "vitest";
import { cdfRows, gpuRows, histogramRows } from "@/lib/metrics/aiperf-chart-rows";
import { computeDistribution } from "@/lib/metrics/aiperf-distribution";

describe("aiperf chart rows", () => {
  it("maps bins to centred rows and the CDF to percents", () => {
    const d = computeDistribution([1, 2, 3, 4], 2)!;
    // Span 3 in at most 2 bins → a round width of 2 from 0: [0, 2) holds 1, [2, 4] holds 2, 3, 4.
    expect(histogramRows(d)).toEqual([
      { mid: 1, start: 0, end: 2, count: 1 },
      { mid: 3, start: 2, end: 4, count: 3 },
    ]);
    expect(cdfRows(d).map((r) => r.percent)).toEqual([25, 50, 75, 100]);
  });
  it("merges GPU series on time with one column per GPU", () => {
    const rows = gpuRows(
      {
        gpus: [
          {
            id: "a",
            label: "A",
            points: [
              { tS: 0, powerW: 1, utilizationPct: 10, memoryUsedGb: 5 },
              { tS: 1, powerW: 2, utilizationPct: 20, memoryUsedGb: 5 },
            ],
          },
          { id: "b", label: "B", points: [{ tS: 1, powerW: 3, utilizationPct: 30, memoryUsedGb: 6 }] },
        ],
        energyJ: null,
        outputTokens: null,
        energyPerOutputTokenJ: null,
        duplicateGpus: 0,
        distinctGpus: 2,
        overlapsWindow: null,
      },
      "powerW",
    );
    expect(rows).toEqual([
      { tS: 0, gpu0: 1 },
      { tS: 1, gpu0: 2, gpu1: 3 },
    ]);
  });
});
