/**
 * p75 beside p50/p90/p99 wherever a statistic is chosen, by the percentile rule of
 * docs/metrics.md §Statistics (linear between closest ranks, numpy's default). The real aiperf
 * 0.6 run (test/fixtures/aiperf/real-v0.6-c4) carries aiperf's own p75, computed by its
 * `aiperf/metrics` summary with numpy, to agree with.
 */
import { describe, expect, it } from "vitest";
import { agreementPayloadSchema, distributionPayloadSchema } from "@/lib/api/aiperf-charts";
import type { SegmentsPayload } from "@/lib/api/trtllm-charts";
import { segmentBarRows } from "@/lib/metrics/compare-chart-rows";
import { runMetrics } from "@/lib/metrics/compare";
import { computeStats } from "@/lib/metrics/stats";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { requestsFromSummary } from "@/lib/metrics/requests-from-summary";
import { segmentStats } from "@/lib/metrics/time-breakdown";
import { segmentStatRows } from "@/lib/metrics/trtllm-chart-rows";
import { analyze, fixtureFile } from "./aiperf-helpers";
import { aiperfRequests, stats, summary } from "./compare-helpers";

describe("p75 by the linear percentile rule", () => {
  it("is 32.5 on 10, 20, 30, 40: rank 0.75 × 3 = 2.25, a quarter of the way from 30 to 40", () => {
    expect(computeStats([40, 10, 30, 20])!.p75).toBe(32.5);
    // rank 0.75 × 4 = 3 falls on a value: the fourth smallest.
    expect(computeStats([5, 1, 4, 2, 3])!.p75).toBe(4);
    expect(computeStats([7])!.p75).toBe(7);
  });

  it("TensorRT-LLM segments compute it from their values, leaving not-recorded ones out", () => {
    // Aggregated mode: ctx_preprocessing, ctx_queue, ctx_processing, ctx_postprocessing, decode.
    const perRequest = [
      [1, 10, null, 5, 100],
      [2, 20, null, 5, 200],
      [3, 30, null, 5, 300],
      [4, 40, null, 5, null],
    ];
    const { segments } = segmentStats("aggregated", perRequest);
    // 1..4 and 10..40: rank 2.25; decode 100, 200, 300: rank 1.5, halfway from 200 to 300.
    expect(segments.map((s) => s.p75Ms)).toEqual([3.25, 32.5, null, 5, 250]);
  });
});

describe("p75 on the real aiperf run", () => {
  it("agrees with aiperf's own p75 and is marked on the distributions", async () => {
    const { result, handle } = await analyze([
      fixtureFile("real-v0.6-c4/profile_export.jsonl", 0),
      fixtureFile("real-v0.6-c4/profile_export_aiperf.json", 1),
    ]);
    const r = result.requests!;
    // aiperf's summary: output_sequence_length p75 70.75, time_to_first_token p75 70.0027035 ms.
    expect(r.outputTokens!.p75).toBe(70.75);
    expect(r.ttftMs!.p75).toBeCloseTo(70.0027035, 9);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    const p75 = agreement.rows.filter((row) => row.stat === "p75");
    expect(p75).toHaveLength(5);
    expect(p75.every((row) => row.agrees)).toBe(true);
    const dist = distributionPayloadSchema.parse(result.charts!["aiperf-distribution"]);
    expect(dist.metrics.ttftMs!.p75).toBe(r.ttftMs!.p75);
    await handle.close();
  });

  it("a summary alone keeps aiperf's p75; a block without p75 keeps its other statistics", async () => {
    const { result, handle } = await analyze([fixtureFile("real-v0.10__profile_export_aiperf.json")]);
    expect(result.requests!.e2eMs!.p75).toEqual(expect.any(Number));
    await handle.close();
    const noP75 = parseSummaryJson({
      schema_version: "1.0",
      request_count: { unit: "requests", avg: 3 },
      time_to_first_token: { unit: "ms", avg: 2, min: 1, max: 3, p50: 2, p90: 2.8, p95: 2.9, p99: 2.98 },
    })!;
    const ttft = requestsFromSummary(noP75)!.ttftMs!;
    expect(ttft).toMatchObject({ count: 3, p50: 2, p99: 2.98 });
    expect(ttft.p75).toBeUndefined();
  });
});

describe("p75 as a chosen statistic", () => {
  it("compare reads p75, and a summary stored before p75 was kept reads missing, not 0", () => {
    const withP75 = summary("a", {
      requests: aiperfRequests({ durationS: 1, ttftMs: stats(40, { p75: 55 }), e2eMs: stats(400) }),
    });
    const m = new Map(runMetrics(withP75, "p75").map((x) => [x.key, x]));
    expect(m.get("ttft")).toMatchObject({ label: "TTFT p75", value: 55 });
    expect(m.get("e2e")!.value).toBeNull();
  });

  it("the breakdown table and compare bars read p75Ms, null as not recorded", () => {
    const seg = {
      name: "ctx_queue",
      label: "Queue",
      count: 4,
      meanMs: 25,
      p50Ms: 25,
      p75Ms: null,
      p90Ms: 37,
      p95Ms: null,
      p99Ms: 39.7,
    };
    const payload: SegmentsPayload = {
      mode: "aggregated",
      requestCount: 4,
      segments: [
        { ...seg, p75Ms: 32.5, notRecorded: 0, excluded: 0, clamped: 0 },
        { ...seg, name: "decode", label: "Decode", notRecorded: 0, excluded: 0, clamped: 0 },
      ],
    };
    expect(segmentStatRows(payload, "p75").map((r) => r.valueMs)).toEqual([32.5, null]);
    const run = summary("b", {
      timeBreakdown: {
        mode: "aggregated",
        requestCount: 4,
        segments: [
          { ...seg, p75Ms: 32.5 },
          { ...seg, name: "decode", label: "Decode" },
        ],
        kvCacheHitRate: null,
        kvBlockLookups: null,
        kvTransfer: null,
        latency: null,
      },
    });
    expect(segmentBarRows([run], "p75").rows[0]).toEqual({ runId: "b", run: "b", ctx_queue: 32.5 });
  });
});
