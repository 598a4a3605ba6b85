/**
 * Derived throughput (docs/metrics.md §Derived throughput) against hand-computed answers, and
 * never a GPU count taken as 1.
 */
import { describe, expect, it } from "vitest";
import { GPU_COUNT_UNKNOWN } from "@/lib/api/derived-throughput";
import { derivedThroughput } from "@/lib/metrics/derived-throughput";

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
    expect(d.tokPerUser.p90).toEqual({ value: 60, reason: null });
    expect(d.tokPerUser.p50).toEqual({ value: 40, reason: null });
    // p99 of 1000/TPOT is 1000 / p1 of TPOT, which the statistics do not hold.
    expect(d.tokPerUser.p99.value).toBeNull();
    expect(d.tokPerUser.p99.reason).toMatch(/per-request TPOT/);
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
