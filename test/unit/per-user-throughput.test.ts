/**
 * tok/s per user has one definition (docs/metrics.md §Per-user throughput): 1000 ÷ TPOT ms of each
 * request, as aiperf's OutputTokenThroughputPerUserMetric (aiperf/metrics/types/
 * output_token_throughput_per_user_metric.py: 1 / inter_token_latency in seconds), with its
 * statistics taken over requests as aiperf's MetricArray.to_result takes them
 * (np.percentile(arr, [1, 5, 25, 50, 75, 90, 95, 99]), linear, never mirrored for a larger-is-better
 * metric). The run's derived figures, a sweep point and a compare row give the same number. A
 * tail statistic reads the slow tail (docs/metrics.md §Per-user throughput): "p90" is 1000 ÷ TPOT
 * p90, about the p10 of the per-request values.
 */
import { describe, expect, it } from "vitest";
import { runMetrics } from "@/lib/metrics/compare";
import { derivedThroughput } from "@/lib/metrics/derived-throughput";
import {
  tokPerUserFromTpotStat,
  tokPerUserStats,
  tokPerUserStatsOfSorted,
} from "@/lib/metrics/per-user-throughput";
import { sortedFinite } from "@/lib/metrics/stats";
import { pointInputsFromRecords, sweepPoint } from "@/lib/metrics/sweep-point";
import { TrtllmLatencyColumns } from "@/lib/metrics/trtllm-latency";
import { effectiveFacts } from "@/lib/api/run-facts";
import type { RunSummary } from "@/lib/api/schemas";
import { EMPTY_BLOCKS } from "@/lib/runs/read-run";
import { runDerived } from "@/lib/runs/run-derived";

// Five requests: TPOT 10, 20, 25, 40, 50 ms → 100, 50, 40, 25, 20 tok/s/user; one without TPOT
// (a single-token answer) and one with TPOT 0 have no value.
const TPOT = [20, 10, 50, NaN, 25, 0, 40];

describe("tok/s per user", () => {
  it("from TPOTs already sorted is the same statistics, bit for bit", () => {
    // A small seeded generator: the same cases on every run.
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const cases: number[][] = [
      TPOT,
      [],
      [0, -0, -3, NaN, Infinity],
      // Integers whose reciprocals are integers: computeStats takes its order-free sum there.
      [1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000, 4, 4, 8],
      // Ties, and TPOTs so small their reciprocal is infinite.
      [5e-324, 1e-310, 3, 3, 3, 7.5, 7.5, 0, 12],
      Array.from({ length: 5000 }, () => 2 + rand() * 40),
      Array.from({ length: 5001 }, () =>
        rand() < 0.1 ? NaN : rand() < 0.05 ? 0 : Math.round(rand() * 30) / 4,
      ),
    ];
    for (const tpot of cases)
      expect(tokPerUserStatsOfSorted(sortedFinite(tpot))).toStrictEqual(tokPerUserStats(tpot));
  });

  it("is 1000 / TPOT per request, its percentiles over requests as numpy takes them", () => {
    const s = tokPerUserStats(TPOT)!;
    // sorted: 20, 25, 40, 50, 100
    expect(s.count).toBe(5);
    expect(s.mean).toBeCloseTo((20 + 25 + 40 + 50 + 100) / 5, 12); // 47, not 1000 / mean TPOT (1000/29.0 = 34.5)
    expect(s.p50).toBe(40);
    // rank 0.9 × 4 = 3.6: 50 + 0.6 × (100 − 50) = 80 — the fast tail, as aiperf's p90 is
    expect(s.p90).toBeCloseTo(80, 12);
    // rank 3.96: 50 + 0.96 × 50 = 98
    expect(s.p99).toBeCloseTo(98, 12);
    // 1000 / p90 TPOT (rank 3.6 of 10, 20, 25, 40, 50 → 46 ms) = 21.7 is a different number: not used.
    expect(s.p90).not.toBeCloseTo(1000 / 46, 3);
  });

  it("from TPOT statistics alone gives only the median", () => {
    expect(tokPerUserFromTpotStat("p50", 25)).toBe(40);
    expect(tokPerUserFromTpotStat("p90", 46)).toBeNull();
    expect(tokPerUserFromTpotStat("mean", 29)).toBeNull();
  });

  it("reads the same in derived throughput, a sweep point and a compare row", () => {
    const n = TPOT.length;
    const cols = {
      ttftMs: new Float64Array(n).fill(100),
      e2eMs: new Float64Array(n).fill(1000),
      tpotMs: Float64Array.from(TPOT),
      inputTokens: new Float64Array(n).fill(10),
      outputTokens: new Float64Array(n).fill(20),
    };
    // The point reads TPOT p90 over the records' TPOTs (the one-token request's 0 included:
    // 0, 10, 20, 25, 40, 50 → rank 4.5 → 45 ms); the worst 10% get 1000 / 45 tok/s.
    const point = sweepPoint(pointInputsFromRecords(cols, 10), 1, "p90");
    expect(point.tokPerSPerUser).toBeCloseTo(1000 / 45, 12);
    expect(sweepPoint(pointInputsFromRecords(cols, 10), 1, "mean").tokPerSPerUser).toBeCloseTo(47, 12);

    const derived = derivedThroughput({
      outputTokPerS: null,
      totalTokPerS: null,
      requestsPerS: null,
      tpotMs: { mean: 29, p50: 25, p90: 46, p99: 49.6 },
      tokPerUser: tokPerUserStats(TPOT),
      gpuCount: 1,
    });
    expect(derived.tokPerUser.p90.value).toBeCloseTo(1000 / 46, 12);
    expect(derived.tokPerUser.mean.value).toBeCloseTo(47, 12);

    const blocks = {
      ...EMPTY_BLOCKS,
      throughput: {
        source: "records",
        note: null,
        outputTokPerS: null,
        totalTokPerS: null,
        requestsPerS: null,
        tpotMs: { mean: 29, p50: 25, p90: 46, p99: 49.6 },
        tokPerUser: { mean: 47, p50: 40, p90: 80, p99: 98 },
      },
    };
    const summary = {
      requests: null,
      timeBreakdown: null,
      serverMetrics: null,
      derived: runDerived(blocks, effectiveFacts({}, null)),
    } as unknown as RunSummary;
    const row = runMetrics(summary, "p90").find((m) => m.key === "tokPerUser");
    expect(row?.value).toBeCloseTo(1000 / 46, 12);
    expect(row?.label).toBe("Tok/s per user worst 10% (p10)");
  });

  it("TensorRT-LLM runs keep it per request, TPOT = (E2E − TTFT) / (output tokens − 1)", () => {
    const cols = new TrtllmLatencyColumns(3);
    // TPOT 10 ms, 20 ms, and a one-token request without one
    cols.set(0, 50, 50 + 10 * 9, 10);
    cols.set(1, 50, 50 + 20 * 4, 5);
    cols.set(2, 50, 60, 1);
    const { block } = cols.summarize();
    expect(block.tokPerUser).toMatchObject({ count: 2, mean: 75, p50: 75, p90: 95, p99: 99.5 });
    // the served derived figure reads the same values
    const blocks = { ...EMPTY_BLOCKS, timeBreakdown: { latency: block } } as unknown as typeof EMPTY_BLOCKS;
    // …and its slow tail from the TPOT p90 of 10 and 20 ms (19 ms): 1000 / 19 tok/s.
    expect(runDerived(blocks, effectiveFacts({}, null)).tokPerUser.p90.value).toBeCloseTo(1000 / 19, 9);
  });
});
