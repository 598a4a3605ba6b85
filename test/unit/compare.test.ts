import { describe, expect, it } from "vitest";
import {
  collectorApplies,
  collectorMismatches,
  effectiveCollectors,
} from "@/lib/metrics/collectors-mismatch";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import { absentMetrics, compareRuns, computeDelta, runMetrics, SEGMENTS_NAME } from "@/lib/metrics/compare";
import { segmentStats } from "@/lib/metrics/time-breakdown";
import { endpointHitRates, roleHitRates } from "@/lib/metrics/compare-endpoints";
import { aiperfRequests, endpoint, stats, summary, timeBreakdown } from "./compare-helpers";

describe("computeDelta", () => {
  it("lower-is-better: a smaller latency is better, with absolute and % change", () => {
    expect(computeDelta(200, 150, "lower")).toEqual({ absolute: -50, percent: -0.25, verdict: "better" });
    expect(computeDelta(200, 250, "lower")).toEqual({ absolute: 50, percent: 0.25, verdict: "worse" });
  });

  it("higher-is-better: more throughput is better", () => {
    expect(computeDelta(1000, 1100, "higher")).toEqual({ absolute: 100, percent: 0.1, verdict: "better" });
    expect(computeDelta(0.5, 0.4, "higher").verdict).toBe("worse");
  });

  it("neutral metrics show the change without a verdict", () => {
    expect(computeDelta(0.5, 0.75, "neutral")).toEqual({ absolute: 0.25, percent: 0.5, verdict: "neutral" });
  });

  it("a zero baseline has no percent; a missing value has no delta", () => {
    expect(computeDelta(0, 3, "higher")).toEqual({ absolute: 3, percent: null, verdict: "better" });
    expect(computeDelta(null, 3, "higher")).toEqual({ absolute: null, percent: null, verdict: "missing" });
    expect(computeDelta(3, null, "lower").verdict).toBe("missing");
    expect(computeDelta(3, Number.NaN, "lower").verdict).toBe("missing");
  });

  it("percent is against |baseline| so a negative baseline keeps the sign of the change", () => {
    expect(computeDelta(-4, -2, "higher")).toEqual({ absolute: 2, percent: 0.5, verdict: "better" });
  });

  it("float noise is 'same', not better or worse", () => {
    expect(computeDelta(0.1 + 0.2, 0.3, "lower")).toEqual({ absolute: 0, percent: 0, verdict: "same" });
    expect(computeDelta(5, 5, "higher").verdict).toBe("same");
  });
});

describe("runMetrics / compareRuns", () => {
  const base = summary("base", {
    requests: aiperfRequests({
      ttftMs: stats(100, { p90: 180 }),
      requestThroughputPerS: 5,
      outputTokenThroughputPerS: 500,
    }),
    timeBreakdown: {
      mode: "aggregated",
      requestCount: 10,
      segments: [
        {
          name: "ctx_queue",
          label: "Queue",
          count: 10,
          meanMs: 4,
          p50Ms: 3,
          p75Ms: null,
          p90Ms: 8,
          p95Ms: null,
          p99Ms: 9,
        },
      ],
      kvCacheHitRate: 0.5,
      kvBlockLookups: null,
      kvTransfer: null,
      latency: null,
    },
  });
  const branch = summary("branch", {
    requests: { ...base.requests!, ttftMs: stats(80, { p90: 90 }), requestThroughputPerS: 4 },
    timeBreakdown: {
      ...base.timeBreakdown!,
      segments: [
        {
          name: "ctx_queue",
          label: "Queue",
          count: 10,
          meanMs: 6,
          p50Ms: 6,
          p75Ms: null,
          p90Ms: 8,
          p95Ms: null,
          p99Ms: 9,
        },
        {
          name: "decode",
          label: "Decode",
          count: 10,
          meanMs: 50,
          p50Ms: 40,
          p75Ms: null,
          p90Ms: 60,
          p95Ms: null,
          p99Ms: 70,
        },
      ],
      kvCacheHitRate: 0.6,
    },
  });

  it("reads each metric at the chosen statistic", () => {
    const m = new Map(runMetrics(base, "p90").map((x) => [x.key, x.value]));
    expect(m.get("ttft")).toBe(180);
    expect(m.get("segment:ctx_queue")).toBe(8);
    expect(m.get("requestThroughput")).toBe(5);
    expect(m.get("cacheHitRate")).toBeNull();
  });

  it("builds rows against the baseline, keeps metrics only some runs have, drops ones none have", () => {
    const rows = compareRuns([base, branch], "base", "p50");
    const byKey = new Map(rows.map((r) => [r.key, r]));
    expect(byKey.has("itl")).toBe(false);
    const ttft = byKey.get("ttft")!;
    expect(ttft.baseline).toBe(100);
    expect(ttft.cells[0]).toMatchObject({ runId: "base", value: 100, verdict: "same" });
    expect(ttft.cells[1]).toMatchObject({
      runId: "branch",
      value: 80,
      absolute: -20,
      percent: -0.2,
      verdict: "better",
    });
    expect(byKey.get("requestThroughput")!.cells[1]).toMatchObject({
      absolute: -1,
      percent: -0.2,
      verdict: "worse",
    });
    expect(byKey.get("segment:ctx_queue")!.cells[1]).toMatchObject({
      absolute: 3,
      percent: 1,
      verdict: "worse",
    });
    expect(byKey.get("segment:decode")!.cells[1]).toMatchObject({ value: 40, verdict: "missing" });
    expect(byKey.get("kvCacheHitRate")!.cells[1].verdict).toBe("better");
  });

  it("switching the baseline flips the verdicts", () => {
    const rows = compareRuns([base, branch], "branch", "p90");
    const ttft = rows.find((r) => r.key === "ttft")!;
    expect(ttft.baseline).toBe(90);
    expect(ttft.cells[0]).toMatchObject({ runId: "base", absolute: 90, percent: 1, verdict: "worse" });
  });

  it("an unknown baseline id falls back to the first run", () => {
    expect(compareRuns([base, branch], "nope", "p50").find((r) => r.key === "ttft")!.baseline).toBe(100);
  });
});

describe("metrics no compared run has", () => {
  const aiperf = summary("aiperf", {
    requests: aiperfRequests({ requestThroughputPerS: 5 }),
  });

  it("are named once, without the statistic, and never given a row", () => {
    const absent = absentMetrics([aiperf, summary("empty")], "p95");
    expect(absent).toContain("ITL");
    expect(absent).toContain("Output token throughput");
    expect(absent).toContain("Offload CPU→GPU");
    expect(absent).not.toContain("TTFT");
    // No run has a breakdown: the segments are one entry, not one per segment of either mode.
    expect(absent.at(-1)).toBe(SEGMENTS_NAME);
    const rows = compareRuns([aiperf, summary("empty")], "aiperf", "p95");
    expect(rows.map((r) => r.key)).toEqual(["ttft", "e2e", "requestThroughput"]);
    expect(rows[0]).toMatchObject({ label: "TTFT p95", baseline: 170 });
    expect(rows.some((r) => absent.includes(r.label))).toBe(false);
  });

  it("a segment row is its words at the statistic, its name and sentence the description; p95 by the linear rule", () => {
    // Aggregated mode: ctx_queue is the second segment; 10, 20, 30, 40 ms → p95 at rank 2.85 = 38.5 ms.
    const perRequest = [10, 20, 30, 40].map((q) => [1, q, 5, 1, 100]);
    const segments = segmentStats("aggregated", perRequest).segments;
    expect(segments[1]).toMatchObject({ name: "ctx_queue", p95Ms: 38.5 });
    const run = summary("trt", {
      timeBreakdown: {
        mode: "aggregated",
        requestCount: 4,
        segments,
        kvCacheHitRate: null,
        kvBlockLookups: null,
        kvTransfer: null,
        latency: null,
      },
    });
    const queue = compareRuns([run], "trt", "p95").find((r) => r.key === "segment:ctx_queue")!;
    // In the words the Breakdown view's table names it (snake_case keys were on screen before).
    expect(queue).toMatchObject({ label: "context queue p95", baseline: 38.5 });
    expect(queue.description).toBe("ctx_queue: Wait in the scheduler queue and allocate KV blocks");
    expect(absentMetrics([run], "p95")).not.toContain(SEGMENTS_NAME);
  });
});

describe("collector mismatch", () => {
  const on = { returnPerfMetrics: true, enableIterPerfStats: false, publishKvEvents: null };
  it("flags a collector that is on in one run and off in another", () => {
    const a = summary("a", { collectors: on });
    const b = summary("b", { collectors: { ...on, returnPerfMetrics: false } });
    const m = collectorMismatches([a, b]);
    expect(m).toEqual([
      {
        collector: "returnPerfMetrics",
        flag: "return_perf_metrics",
        onRunIds: ["a"],
        offRunIds: ["b"],
        unknownRunIds: [],
        kind: "differs",
      },
    ]);
  });

  it("infers return_perf_metrics from a TRT-LLM time breakdown", () => {
    const tb = timeBreakdown("aggregated", 3);
    const a = summary("a", { timeBreakdown: tb });
    expect(effectiveCollectors(a).returnPerfMetrics).toEqual({
      value: true,
      source: "inferred",
      evidence:
        "inferred from the TensorRT-LLM time breakdown of 3 requests: per-request perf metrics exist only with return_perf_metrics on",
    });
    const b = summary("b", {
      collectors: { returnPerfMetrics: false, enableIterPerfStats: null, publishKvEvents: null },
    });
    expect(collectorMismatches([a, b]).map((x) => [x.flag, x.kind])).toEqual([
      ["return_perf_metrics", "differs"],
    ]);
  });

  it("notes a collector known in some runs only, and says nothing when all agree or none know", () => {
    const a = summary("a", { collectors: on });
    const b = summary("b", { collectors: { ...on, returnPerfMetrics: null } });
    expect(collectorMismatches([a, b]).map((x) => [x.flag, x.kind])).toEqual([
      ["return_perf_metrics", "unknown"],
    ]);
    expect(collectorMismatches([a, summary("c", { collectors: on })])).toEqual([]);
    expect(collectorMismatches([a])).toEqual([]);
  });

  it("a TensorRT-LLM collector does not apply to a vLLM or SGLang run: no note of it there", () => {
    const backend = (value: string) => ({
      ...EMPTY_FACTS,
      backend: { value, source: "server metrics", edited: false },
    });
    const trt = summary("trt", { collectors: on, facts: backend("dynamo+trtllm") });
    const vllm = summary("vllm", {
      collectors: { returnPerfMetrics: null, enableIterPerfStats: null, publishKvEvents: null },
      facts: backend("vllm"),
    });
    const sglang = summary("sglang", {
      collectors: { returnPerfMetrics: null, enableIterPerfStats: null, publishKvEvents: null },
      facts: backend("SGLang"),
    });
    expect(collectorMismatches([trt, vllm, sglang])).toEqual([]);
    expect(collectorApplies("returnPerfMetrics", "vllm")).toBe(false);
    expect(collectorApplies("enableIterPerfStats", "dynamo+sglang")).toBe(false);
    expect(collectorApplies("returnPerfMetrics", "TensorRT-LLM")).toBe(true);
    // An unknown backend may be TensorRT-LLM: the collector may apply.
    expect(collectorApplies("returnPerfMetrics", null)).toBe(true);
    expect(collectorApplies("returnPerfMetrics", "dynamo")).toBe(true);
    // Among the runs it applies to, a collector known in some and not others is still noted, naming only those.
    const trtUnknown = summary("trt2", {
      collectors: { ...on, returnPerfMetrics: null },
      facts: backend("trtllm"),
    });
    expect(
      collectorMismatches([trt, trtUnknown, vllm]).map((x) => [x.flag, x.kind, x.unknownRunIds]),
    ).toEqual([["return_perf_metrics", "unknown", ["trt2"]]]);
  });
});

describe("hit rates by endpoint and role", () => {
  const a = summary("a", {
    endpoints: [
      endpoint({
        endpoint: "p0:8000",
        role: "prefill",
        cacheHitRate: 0.5,
        promptTokens: 1000,
        cachedTokens: 500,
      }),
      endpoint({
        endpoint: "p1:8000",
        role: "prefill",
        cacheHitRate: 0.1,
        promptTokens: 9000,
        cachedTokens: 900,
      }),
      endpoint({ endpoint: "d0:8000", role: "decode" }),
    ],
  });
  const b = summary("b", {
    endpoints: [
      endpoint({ endpoint: "w0", role: "combined", kvCacheHitRate: 0.2, requestCount: 3 }),
      endpoint({ endpoint: "w1", role: "combined", kvCacheHitRate: 0.6, requestCount: 1 }),
    ],
  });

  it("per role is token-weighted, not a mean of endpoint rates", () => {
    const rows = roleHitRates([a, b]);
    // (500 + 900) / (1000 + 9000) = 0.14, where a plain mean would say 0.3
    expect(rows.find((r) => r.key === "prefill")!.values).toEqual({ a: 0.14, b: null });
    // perf-metrics fallback weighted by requests: (0.2·3 + 0.6·1) / 4 = 0.3
    expect(rows.find((r) => r.key === "combined")!.values.b).toBeCloseTo(0.3, 12);
    expect(rows.some((r) => r.key === "decode")).toBe(false);
  });

  it("per endpoint lists every endpoint with a rate, null where a run lacks it", () => {
    const rows = endpointHitRates([a, b]);
    expect(rows.map((r) => r.key)).toEqual(["p0:8000", "p1:8000", "w0", "w1"]);
    expect(rows[0].values).toEqual({ a: 0.5, b: null });
    expect(rows[2].values).toEqual({ a: null, b: 0.2 });
  });

  // Review of 3 Dec 2026, item 15: a generation worker's block reuse stood beside another run's
  // prefill rate; the run's Cache view calls a decode hit rate n/a, and so does compare now.
  it("per endpoint and per role leaves out a disaggregated run's decode rates (n/a), block reuse included", () => {
    const withDecodeRate = summary("a", {
      endpoints: [
        ...a.endpoints,
        endpoint({ endpoint: "d1:8000", role: "decode", cacheHitRate: 0, promptTokens: 10, cachedTokens: 0 }),
        // TensorRT-LLM perf metrics: the generation worker's own KV block reuse.
        endpoint({ endpoint: "gen0", role: "decode", kvCacheHitRate: 0.9, requestCount: 2 }),
      ],
    });
    expect(endpointHitRates([withDecodeRate]).map((r) => r.key)).toEqual(["p0:8000", "p1:8000"]);
    expect(roleHitRates([withDecodeRate]).map((r) => r.key)).toEqual(["prefill"]);
  });

  it("never groups a prefill endpoint with a decode one of the same address in another run", () => {
    const one = summary("one", {
      endpoints: [endpoint({ endpoint: "w:8000", role: "prefill", kvCacheHitRate: 0.615, requestCount: 5 })],
    });
    const two = summary("two", {
      endpoints: [endpoint({ endpoint: "w:8000", role: "combined", kvCacheHitRate: 0.947, requestCount: 5 })],
    });
    const rows = endpointHitRates([one, two]);
    expect(rows.map((r) => [r.key, r.values])).toEqual([
      ["w:8000 (prefill)", { one: 0.615, two: null }],
      ["w:8000 (combined)", { one: null, two: 0.947 }],
    ]);
  });
});
