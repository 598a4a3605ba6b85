/**
 * Derived throughput (docs/metrics.md §Derived throughput) against hand-computed answers, and
 * never a GPU count taken as 1; the same figures as compare rows.
 */
import { describe, expect, it } from "vitest";
import { GPU_COUNT_UNKNOWN } from "@/lib/api/derived-throughput";
import { effectiveFacts } from "@/lib/api/run-facts";
import type { RunSummary } from "@/lib/api/schemas";
import { runMetrics } from "@/lib/metrics/compare";
import { derivedThroughput } from "@/lib/metrics/derived-throughput";
import { EMPTY_BLOCKS } from "@/lib/runs/read-run";
import { runDerived } from "@/lib/runs/run-derived";

describe("derived throughput", () => {
  it("divides by the GPU count and takes tok/s/user from the per-request figures", () => {
    // 8 GPUs serving 1,830 output tok/s and 2,600 total tok/s at 3.2 req/s.
    const d = derivedThroughput({
      outputTokPerS: 1830,
      totalTokPerS: 2600,
      requestsPerS: 3.2,
      tpotMs: { mean: 20, p50: 25, p90: 40, p99: 50 },
      tokPerUser: { mean: 51.5, p50: null, p90: 60, p99: null },
      gpuCount: 8,
    });
    expect(d.outputTokPerSPerGpu).toEqual({ value: 228.75, reason: null });
    expect(d.totalTokPerSPerGpu).toEqual({ value: 325, reason: null });
    expect(d.requestsPerSPerGpu).toEqual({ value: 0.4, reason: null });
    // Measured per request where known; 1000 / 25 ms = 40 tok/s at the median otherwise.
    expect(d.tokPerUser.mean).toEqual({ value: 51.5, reason: null });
    expect(d.tokPerUser.p50).toEqual({ value: 40, reason: null });
    // A tail is the slow one (the worst 10% / 1%): 1000 / TPOT p90 = 25, 1000 / TPOT p99 = 20,
    // never the fast tail of the per-request values (60).
    expect(d.tokPerUser.p90).toEqual({ value: 25, reason: null });
    expect(d.tokPerUser.p99).toEqual({ value: 20, reason: null });
  });

  it("says the GPU count is unknown instead of assuming one GPU", () => {
    const d = derivedThroughput({
      outputTokPerS: 100,
      totalTokPerS: null,
      requestsPerS: 1,
      tpotMs: null,
      gpuCount: null,
    });
    expect(d.outputTokPerSPerGpu).toEqual({ value: null, reason: GPU_COUNT_UNKNOWN });
    expect(d.requestsPerSPerGpu).toEqual({ value: null, reason: GPU_COUNT_UNKNOWN });
    expect(d.totalTokPerSPerGpu.reason).toBe("total token throughput not measured");
    expect(d.tokPerUser.mean.reason).toMatch(/TPOT not measured/);
    const zero = { outputTokPerS: 100, totalTokPerS: null, requestsPerS: 1, tpotMs: null, gpuCount: 0 };
    expect(derivedThroughput(zero).outputTokPerSPerGpu).toEqual({ value: null, reason: GPU_COUNT_UNKNOWN });
  });
});

describe("derived throughput in compare rows", () => {
  const blocks = {
    ...EMPTY_BLOCKS,
    throughput: {
      source: "records",
      note: null,
      outputTokPerS: 1000,
      totalTokPerS: 3000,
      requestsPerS: 4,
      tpotMs: { mean: 20, p50: 20, p90: 30, p99: 40 },
      tokPerUser: { mean: 50, p50: 50, p90: 60, p99: 70 },
    },
  };
  const run = (gpus: number | null) =>
    ({
      requests: null,
      timeBreakdown: null,
      serverMetrics: null,
      derived: runDerived(
        blocks,
        effectiveFacts(
          gpus === null ? {} : { gpuCount: { value: gpus, source: "GPU telemetry (4 distinct GPUs)" } },
          null,
        ),
      ),
    }) as unknown as RunSummary;

  it("divides by each run's GPU count, and leaves a run without one missing", () => {
    const values = (r: RunSummary) =>
      Object.fromEntries(
        runMetrics(r, "p90")
          .filter((m) => m.group === "Per GPU")
          .map((m) => [m.key, m.value]),
      );
    // tok/s per user at "p90" is its worst 10%: 1000 / TPOT p90 (30 ms).
    const worst10 = 1000 / 30;
    expect(values(run(4))).toEqual({
      gpuCount: 4,
      outputTokPerGpu: 250,
      totalTokPerGpu: 750,
      requestsPerGpu: 1,
      tokPerUser: worst10,
    });
    expect(values(run(null))).toMatchObject({ gpuCount: null, outputTokPerGpu: null, tokPerUser: worst10 });
    expect(runMetrics(run(4), "p99").find((m) => m.key === "tokPerUser")?.label).toBe(
      "Tok/s per user worst 1% (p1)",
    );
  });
});
