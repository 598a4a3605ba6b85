import { describe, expect, it } from "vitest";
import { axisUnit } from "@/lib/metrics/sweep-chart-rows";
import { fittedTicks, tickDecimals } from "@/lib/metrics/nice-scale";

describe("sweep axis unit", () => {
  it("a millisecond axis whose ticks reach 10,000 ms is written in seconds", () => {
    // A vLLM sweep's TTFT from 2.1 s to 38 s: the axis read 0 … 40,000 ms.
    const ticks = fittedTicks(2100, 38000);
    expect(axisUnit({ unit: "ms" }, ticks)).toEqual({ unit: "s", divisor: 1000 });
  });
  it("stays in ms below 10,000 ms, and other units are left alone", () => {
    expect(axisUnit({ unit: "ms" }, fittedTicks(40, 900))).toEqual({ unit: "ms", divisor: 1 });
    expect(axisUnit({ unit: "tok/s/GPU" }, [0, 20_000, 40_000])).toEqual({ unit: "tok/s/GPU", divisor: 1 });
  });
});

describe("tick decimals", () => {
  it("every tick written exactly, as many decimals as the finest needs", () => {
    // The GLM sweep's request throughput, 10.75 … 12.25 req/s: printed 10.8 / 11 / 11.3 before.
    expect(tickDecimals([10.75, 11, 11.25])).toBe(2);
    expect(tickDecimals([0, 2000, 4000])).toBe(0);
    expect(tickDecimals([0.001, 0.002, 0.005])).toBe(3);
    expect(tickDecimals([2.1, 2.2])).toBe(1);
  });
});
