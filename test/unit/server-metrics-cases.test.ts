/**
 * Hand-made server-metrics cases (issue 4), each with its answer computed by hand in a comment.
 * Exports are written inline in aiperf's JSON shape and go through the same parser as uploads.
 */
import { describe, expect, it } from "vitest";
import { WarningLog } from "@/lib/formats/json-lines";
import { parseServerMetricsJson } from "@/lib/formats/server-metrics-json";
import { summarizeServerMetrics } from "@/lib/metrics/server-metrics/summarize";
import { buildServerMetricsCharts } from "@/lib/metrics/server-metrics/charts";
import type { SmEndpointsPayload } from "@/lib/api/server-metrics-charts";
import { serverMetricsFacts } from "@/lib/metrics/server-metrics/run-facts";

type Stats = Record<string, number>;
interface S {
  ep: string;
  labels?: Record<string, string>;
  stats: Stats;
}

function doc(metrics: Record<string, { type: string; series: S[] }>, windows: Record<string, number> = {}) {
  const m: Record<string, unknown> = {};
  for (const [name, { type, series }] of Object.entries(metrics))
    m[name] = {
      type,
      series: series.map((s) => ({
        endpoint_url: `http://${s.ep}/metrics`,
        labels: s.labels ?? {},
        stats: s.stats,
      })),
    };
  const endpoint_info = Object.fromEntries(
    Object.entries(windows).map(([ep, d]) => [`http://${ep}/metrics`, { duration_seconds: d }]),
  );
  return { schema_version: "1.0", summary: { endpoint_info }, metrics: m };
}

const summarize = (d: unknown) => summarizeServerMetrics(parseServerMetricsJson(d, new WarningLog()));

describe("1 prefill / 7 decode TensorRT-LLM", () => {
  const eps = Array.from({ length: 8 }, (_, i) => `10.3.0.${i + 1}:8000`);
  const mode = (i: number) => ({ disaggregation_mode: i === 0 ? "context" : "generation" });
  const d = doc({
    trtllm_prompt_tokens: {
      type: "counter",
      series: eps.map((ep, i) => ({ ep, labels: mode(i), stats: { total: i === 0 ? 80000 : 10000 } })),
    },
    trtllm_prompt_cached_tokens: {
      type: "counter",
      series: eps.map((ep, i) => ({ ep, labels: mode(i), stats: { total: i === 0 ? 48000 : 0 } })),
    },
    trtllm_generation_tokens: {
      type: "counter",
      series: eps.map((ep, i) => ({ ep, labels: mode(i), stats: { total: i === 0 ? 80 : 1000 } })),
    },
    trtllm_kv_cache_hit_rate: {
      type: "gauge",
      series: eps.map((ep, i) => ({
        ep,
        labels: mode(i),
        stats: { avg: i === 0 ? 0.6 : 0.05, max: i === 0 ? 0.9 : 0.1 },
      })),
    },
  });

  it("hit rate is the prefill endpoint's cached / prompt, not the mean of 8 gauges", () => {
    const { block, rows } = summarize(d);
    // Peer: (0.6 + 7 × 0.05) / 8 = 0.11875 (~0.12). Ours: 48,000 / 80,000 = 0.6.
    expect(block.cache.gpuHitRate).toBeCloseTo(0.6, 10);
    // Prompt from the prefill side only (80,000), not 80,000 + 7 × 10,000 = 150,000.
    expect(block.tokens.promptTotal).toBe(80000);
    // Generation from the decode side only: 7 × 1,000 = 7,000 (the prefill's 80 first tokens are not added).
    expect(block.tokens.generationTotal).toBe(7000);
    expect(rows.filter((r) => r.role === "decode")).toHaveLength(7);
    // Per-endpoint rate from that endpoint's counters, never the gauge peak (0.9).
    expect(rows[0].cacheHitRate).toBeCloseTo(0.6, 10);
  });

  it("without counters, falls back to gauge avg weighted by prompt tokens, over prefill endpoints", () => {
    const gaugeOnly = doc({
      trtllm_prompt_tokens: {
        type: "counter",
        series: eps.map((ep, i) => ({ ep, labels: mode(i), stats: { total: 10000 } })),
      },
      trtllm_kv_cache_hit_rate: {
        type: "gauge",
        series: eps.map((ep, i) => ({ ep, labels: mode(i), stats: { avg: i === 0 ? 0.6 : 0.05 } })),
      },
    });
    const { block } = summarize(gaugeOnly);
    expect(block.cache.gpuHitRate).toBeCloseTo(0.6, 10);
    expect(block.cache.method).toBe("gauge avg weighted by prompt tokens");
  });
});

describe("heterogeneous tokens_per_block", () => {
  it("multiplies each endpoint's blocks by its own block size, one from the info label", () => {
    const d = doc({
      trtllm_kv_cache_max_blocks: {
        type: "gauge",
        series: [
          { ep: "a:1", stats: { avg: 500, max: 500 } },
          { ep: "b:1", stats: { avg: 300, max: 300 } },
        ],
      },
      trtllm_kv_cache_tokens_per_block: {
        type: "gauge",
        series: [{ ep: "a:1", stats: { avg: 16, max: 16 } }],
      },
      trtllm_cache_config_info: {
        type: "gauge",
        series: [{ ep: "b:1", labels: { tokens_per_block: "128" }, stats: { avg: 1 } }],
      },
    });
    const { block, rows } = summarize(d);
    // 500 × 16 + 300 × 128 = 8,000 + 38,400 = 46,400 (peer: 800 × 128 = 102,400).
    expect(block.kvCache.gpuTotalTokens).toBe(46400);
    expect(rows.map((r) => r.kvCapacityTokens)).toEqual([8000, 38400]);
  });
});

describe("SGLang with TP=4 ranks per pool", () => {
  it("counts each (endpoint, dp_rank) pool once", () => {
    const series: S[] = [];
    for (const [ep, size] of [
      ["p:1", 1000],
      ["d:1", 3000],
    ] as const)
      for (const dp of ["0", "1"])
        for (const tp of ["0", "1", "2", "3"])
          series.push({
            ep,
            labels: { dp_rank: dp, tp_rank: tp, engine_type: ep === "p:1" ? "prefill" : "decode" },
            stats: { avg: size + Number(dp), max: size + Number(dp) },
          });
    const { block, rows } = summarize(doc({ "sglang:max_total_num_tokens": { type: "gauge", series } }));
    // Pools: p:1 dp0 1000 + dp1 1001, d:1 dp0 3000 + dp1 3001 = 8,002 (peer sums 16 series: 32,008).
    expect(block.kvCache.gpuTotalTokens).toBe(8002);
    expect(rows.map((r) => [r.endpoint, r.role, r.kvCapacityTokens])).toEqual([
      ["d:1", "decode", 6001],
      ["p:1", "prefill", 2001],
    ]);
  });
});

describe("vLLM with offload counters", () => {
  it("bandwidth = bytes / transfer time per endpoint and for the run", () => {
    const d = doc({
      "vllm:kv_offload_bytes_gpu_to_cpu": {
        type: "counter",
        series: [
          { ep: "a:1", stats: { total: 8e9 } },
          { ep: "b:1", stats: { total: 2e9 } },
        ],
      },
      "vllm:kv_offload_time_gpu_to_cpu": {
        type: "counter",
        series: [
          { ep: "a:1", stats: { total: 4 } },
          { ep: "b:1", stats: { total: 1 } },
        ],
      },
      "vllm:kv_offload_bytes_cpu_to_gpu": { type: "counter", series: [{ ep: "a:1", stats: { total: 1e9 } }] },
      "vllm:kv_offload_time_cpu_to_gpu": { type: "counter", series: [{ ep: "a:1", stats: { total: 0.5 } }] },
    });
    const { block, rows } = summarize(d);
    // a: 8e9 / 4 = 2e9 B/s, b: 2e9 / 1 = 2e9 B/s; run: 10e9 / 5 s = 2e9 B/s.
    expect(rows.map((r) => r.offloadBandwidthGpuToCpuBytesPerSecond)).toEqual([2e9, 2e9]);
    expect(block.kvOffload.bandwidthGpuToCpuBytesPerSecond).toBe(2e9);
    expect(block.kvOffload.bandwidthCpuToGpuBytesPerSecond).toBe(2e9); // 1e9 / 0.5
  });

  it("without time counters, the average rate over the profiling window (and says so)", () => {
    const d = doc(
      { trtllm_kv_cache_offload_bytes: { type: "counter", series: [{ ep: "a:1", stats: { total: 6e9 } }] } },
      { "a:1": 60 },
    );
    const s = summarize(d);
    // 6e9 B over the 60 s window = 1e8 B/s.
    expect(s.block.kvOffload.bandwidthGpuToCpuBytesPerSecond).toBe(1e8);
    expect(s.info.offloadBandwidthMethod).toBe("average rate (bytes / window)");
  });
});

describe("Dynamo frontend + TensorRT-LLM workers", () => {
  const d = doc({
    dynamo_frontend_input_sequence_tokens: {
      type: "histogram",
      series: [{ ep: "fe:8000", stats: { count: 10, sum: 50000 } }],
    },
    dynamo_frontend_output_tokens: { type: "counter", series: [{ ep: "fe:8000", stats: { total: 2500 } }] },
    trtllm_prompt_tokens: {
      type: "counter",
      series: [
        { ep: "w1:9000", labels: { dynamo_component: "prefill" }, stats: { total: 50000 } },
        { ep: "w2:9000", labels: { dynamo_component: "backend" }, stats: { total: 50000 } },
      ],
    },
    trtllm_prompt_cached_tokens: {
      type: "counter",
      series: [
        { ep: "w1:9000", labels: { dynamo_component: "prefill" }, stats: { total: 20000 } },
        { ep: "w2:9000", labels: { dynamo_component: "backend" }, stats: { total: 50000 } },
      ],
    },
    trtllm_generation_tokens: {
      type: "counter",
      series: [{ ep: "w2:9000", labels: { dynamo_component: "backend" }, stats: { total: 2400 } }],
    },
    dynamo_component_router_kv_hit_rate: {
      type: "histogram",
      series: [{ ep: "fe:8000", stats: { count: 4, sum: 1, avg: 0.25 } }],
    },
  });

  it("roles from labels, tokens from the frontend, hit rate from the prefill worker", () => {
    const s = summarize(d);
    expect(s.block.backend).toBe("dynamo+trtllm");
    expect(s.rows.map((r) => [r.endpoint, r.role])).toEqual([
      ["fe:8000", "frontend"],
      ["w1:9000", "prefill"],
      ["w2:9000", "decode"],
    ]);
    // Frontend histogram sum 50,000 prompt tokens; output 2,500.
    expect(s.block.tokens.promptTotal).toBe(50000);
    expect(s.block.tokens.generationTotal).toBe(2500);
    // The decode worker's "cached" tokens are KV received from prefill: 20,000 / 50,000 = 0.4 only.
    expect(s.block.cache.gpuHitRate).toBeCloseTo(0.4, 10);
    expect(s.info.routerKvHitRate).toBeCloseTo(0.25, 10);
  });

  it("role subtotals in the endpoints chart payload", () => {
    const charts = buildServerMetricsCharts(summarize(d));
    const payload = charts["sm-endpoints"] as SmEndpointsPayload;
    const prefill = payload.roles.find((r) => r.role === "prefill");
    expect(prefill?.hitRate).toBeCloseTo(0.4, 10);
    expect(payload.roles.map((r) => r.role)).toEqual(["prefill", "decode", "frontend"]);
  });
});

/**
 * Dynamo names a worker's component `prefill` for a prefill worker and `backend` (vLLM, SGLang:
 * `components/src/dynamo/{vllm,sglang}/args.py`) or `tensorrt_llm` (TensorRT-LLM:
 * `components/src/dynamo/trtllm/args.py`, `DEFAULT_ENDPOINT_COMPONENT`) for every other one,
 * aggregated or decode, in ai-dynamo/dynamo.
 */
describe("Dynamo workers named backend", () => {
  const workers = (component: string, eps: string[], prefill: string[] = []) =>
    doc({
      "vllm:prompt_tokens": {
        type: "counter",
        series: [
          ...eps.map((ep) => ({ ep, labels: { dynamo_component: component }, stats: { total: 10000 } })),
          ...prefill.map((ep) => ({ ep, labels: { dynamo_component: "prefill" }, stats: { total: 30000 } })),
        ],
      },
      "vllm:prefix_cache_queries": {
        type: "counter",
        series: [
          ...eps.map((ep) => ({ ep, labels: { dynamo_component: component }, stats: { total: 10000 } })),
          ...prefill.map((ep) => ({ ep, labels: { dynamo_component: "prefill" }, stats: { total: 30000 } })),
        ],
      },
      "vllm:prefix_cache_hits": {
        type: "counter",
        series: [
          ...eps.map((ep, i) => ({
            ep,
            labels: { dynamo_component: component },
            stats: { total: i === 0 ? 2000 : 6000 },
          })),
          ...prefill.map((ep) => ({ ep, labels: { dynamo_component: "prefill" }, stats: { total: 9000 } })),
        ],
      },
    });

  it("two backend workers and no prefill component are two aggregated workers, not decode ×2", () => {
    const s = summarize(workers("backend", ["w1:9000", "w2:9000"]));
    expect(s.rows.map((r) => r.role)).toEqual(["combined", "combined"]);
    // Both own their cache hits: (2,000 + 6,000) / (10,000 + 10,000) = 0.4.
    expect(s.block.cache.gpuHitRate).toBeCloseTo(0.4, 10);
    expect(s.info.cacheHitRateScope).toBe("all engine endpoints");
    const facts = serverMetricsFacts([], s.rows, s.block.backend);
    expect(facts.roles?.value).toEqual([
      { role: "combined", count: 2, tp: null, pp: null, ep: null, dp: null },
    ]);
  });

  it("beside a prefill worker, backend workers decode and the hit rate is the prefill side's", () => {
    const s = summarize(workers("backend", ["w1:9000", "w2:9000"], ["p1:9000"]));
    expect(s.rows.map((r) => [r.endpoint, r.role])).toEqual([
      ["p1:9000", "prefill"],
      ["w1:9000", "decode"],
      ["w2:9000", "decode"],
    ]);
    // 9,000 / 30,000 = 0.3; the decode workers' cached tokens are KV received from prefill.
    expect(s.block.cache.gpuHitRate).toBeCloseTo(0.3, 10);
  });

  it("TensorRT-LLM's tensorrt_llm component reads the same way", () => {
    expect(summarize(workers("tensorrt_llm", ["w1:9000"])).rows.map((r) => r.role)).toEqual(["combined"]);
    const disagg = summarize(workers("tensorrt_llm", ["w1:9000"], ["p1:9000"]));
    expect(disagg.rows.map((r) => r.role)).toEqual(["prefill", "decode"]);
  });
});

describe("Dynamo worker without engine series", () => {
  it("its Dynamo usage gauge (percent) still counts, and the missing engine series are named", () => {
    const s = summarize(
      doc({
        dynamo_component_kvstats_gpu_cache_usage_percent: {
          type: "gauge",
          series: [{ ep: "w:1", labels: { dynamo_component: "backend" }, stats: { avg: 40, max: 90 } }],
        },
      }),
    );
    // 40 % → 0.4 mean, 90 % → 0.9 peak.
    expect(s.block.kvCache.gpuUsageAvg).toBeCloseTo(0.4, 10);
    expect(s.block.kvCache.gpuUsageMax).toBeCloseTo(0.9, 10);
    expect(s.warnings.some((w) => w.includes("publish_events_and_metrics"))).toBe(true);
  });
  it("a published pool (total_blocks > 0) keeps its measured 0 % usage and hit rate", () => {
    // The gauges are set from the engine's KvStats once it publishes (ai-dynamo/dynamo
    // lib/llm/src/kv_router/publisher.rs, update_from_kvstats): 1,000 blocks, nothing cached yet.
    const gauge = (avg: number) => ({
      type: "gauge",
      series: [{ ep: "w:1", labels: { dynamo_component: "backend" }, stats: { avg, max: avg } }],
    });
    const s = summarize(
      doc({
        dynamo_component_kvstats_total_blocks: gauge(1000),
        dynamo_component_kvstats_gpu_cache_usage_percent: gauge(0),
        dynamo_component_kvstats_gpu_prefix_cache_hit_rate: gauge(0),
      }),
    );
    expect(s.block.kvCache.gpuUsageAvg).toBe(0);
    expect(s.rows[0].cacheHitRate).toBe(0);
    expect(s.warnings.some((w) => w.includes("never set"))).toBe(false);
  });
  it("an unpublished pool (total_blocks 0 in every scrape) leaves usage and hit rate null", () => {
    const gauge = (avg: number) => ({
      type: "gauge",
      series: [{ ep: "w:1", labels: { dynamo_component: "backend" }, stats: { avg, max: avg } }],
    });
    const s = summarize(
      doc({
        dynamo_component_kvstats_total_blocks: gauge(0),
        dynamo_component_kvstats_gpu_cache_usage_percent: gauge(0),
        dynamo_component_kvstats_gpu_prefix_cache_hit_rate: gauge(0),
      }),
    );
    expect(s.block.kvCache.gpuUsageAvg).toBeNull();
    expect(s.block.kvCache.gpuUsageMax).toBeNull();
    expect(s.block.cache.gpuHitRate).toBeNull();
    expect(s.rows[0].cacheHitRate).toBeNull();
    expect(s.warnings.some((w) => w.includes("never set (total_blocks is 0)"))).toBe(true);
  });
});
