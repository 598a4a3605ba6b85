/**
 * The reuse charts by turn and over time draw one stack from one parts table: each series names a
 * key of the chart's rows, in the order the parts stack, in the same colour on both charts.
 */
import { describe, expect, it } from "vitest";
import { REUSE_PARTS, reuseAreaSeries } from "@/components/charts/reuse-series";
import { intervalReuseRows, type IntervalReuseRow } from "@/lib/metrics/turn-chart-rows";

describe("reuse area series", () => {
  it("stacks the served part, the external tier when counted, recomputed, new, under the ceiling", () => {
    expect(Object.keys(reuseAreaSeries("gpu", true))).toEqual([
      "gpu",
      "external",
      "recomputed",
      "fresh",
      "ceiling",
    ]);
    expect(Object.keys(reuseAreaSeries("cached", false))).toEqual([
      "cached",
      "recomputed",
      "fresh",
      "ceiling",
    ]);
    const line = reuseAreaSeries("gpu", false).ceiling;
    expect(line).toMatchObject({ mark: "line", dots: false });
    expect(line.stack).toBeUndefined();
  });

  it("gives a part one colour on both charts", () => {
    const byTurn = reuseAreaSeries("cached", false);
    const overTime = reuseAreaSeries("gpu", true);
    expect(byTurn.cached.color).toBe(overTime.gpu.color);
    for (const part of ["recomputed", "fresh", "ceiling"] as const) {
      expect(byTurn[part]).toEqual(overTime[part]);
      expect(overTime[part].color).toBe(REUSE_PARTS[part].color);
    }
    expect(overTime.external.color).not.toBe(overTime.gpu.color);
  });

  it("names keys the interval rows carry", () => {
    const [row] = intervalReuseRows({
      startEpochMs: 0,
      servedSource: "vllm",
      externalSource: "vllm external_prefix_cache_hits",
      possibleSource: "records",
      requestsOutside: 0,
      points: [
        {
          t: 0,
          durationS: 2,
          promptTokens: 1000,
          gpuTokens: 600,
          externalTokens: 100,
          recomputedReusableTokens: 100,
          newTokens: 200,
          possibleTokens: 800,
          clientPromptTokens: 1000,
          requests: 4,
        },
      ],
      endpoints: [],
    });
    const drawn = Object.fromEntries(
      Object.keys(reuseAreaSeries("gpu", true)).map((k) => [k, row[k as keyof IntervalReuseRow]]),
    );
    // Tokens per second of the 2 s interval.
    expect(drawn).toEqual({ gpu: 300, external: 50, recomputed: 50, fresh: 100, ceiling: 400 });
  });
});
