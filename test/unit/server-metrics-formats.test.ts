/** Parsers of the server-metrics inputs, each against hand-checked values from its fixture. */
import fs from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { WarningLog } from "@/lib/formats/json-lines";
import { readPrometheusText } from "@/lib/formats/prometheus-text";
import { readServerLog } from "@/lib/formats/server-log";
import { splitCsvRecord } from "@/lib/formats/csv";
import { readServerMetricsCsv } from "@/lib/formats/server-metrics-csv";
import { readServerMetricsJson } from "@/lib/formats/server-metrics-json-stream";
import { readServerMetricsJsonl } from "@/lib/formats/server-metrics-jsonl";
import {
  counterSlices,
  counterTotal,
  gaugeSlices,
  sliceList,
} from "@/lib/formats/server-metrics/scrape-window";

const FIX = "test/fixtures/server-metrics";
const text = (s: string) => Readable.from([Buffer.from(s)]);

describe("Prometheus text", () => {
  it("reads counters, histogram sum/count, skips _created and buckets; names lose _total", async () => {
    const counts = { records: 0, skipped: 0 };
    const set = await readPrometheusText(
      fs.createReadStream(`${FIX}/dynamo_frontend_metrics.prom`),
      "frontend",
      new WarningLog(),
      counts,
    );
    const input = set.series.find((s) => s.name === "dynamo_frontend_input_sequence_tokens");
    expect(input?.type).toBe("histogram");
    expect(input?.stats).toEqual({ sum: 33, count: 1 });
    const output = set.series.find((s) => s.name === "dynamo_frontend_output_tokens");
    expect(output?.stats.total).toBe(300);
    expect(set.series.every((s) => s.endpoint === "frontend")).toBe(true);
    expect(counts.skipped).toBe(0);
  });

  it("worker scrape: trtllm_request_success_total is a counter named without _total", async () => {
    const set = await readPrometheusText(
      fs.createReadStream(`${FIX}/dynamo_trtllm_worker_metrics.prom`),
      "worker",
      new WarningLog(),
      { records: 0, skipped: 0 },
    );
    const s = set.series.find((x) => x.name === "trtllm_request_success");
    expect(s?.type).toBe("counter");
    expect(s?.stats.total).toBe(2);
    expect(set.series.some((x) => x.name.endsWith("_created"))).toBe(false);
  });

  it("reports a malformed line and keeps the rest", async () => {
    const w = new WarningLog();
    const counts = { records: 0, skipped: 0 };
    const set = await readPrometheusText(text('a_total 3\nnot a sample {\nb{x="1"} 2.5\n'), "e", w, counts);
    expect(set.series.map((s) => [s.name, s.stats.total ?? s.stats.avg])).toEqual([
      ["a", 3],
      ["b", 2.5],
    ]);
    expect(counts.skipped).toBe(1);
    expect(w.listed[0].line).toBe(2);
  });
});

describe("CSV export", () => {
  it("splits quoted cells", () => {
    expect(splitCsvRecord('a,"b, ""c""",d')).toEqual(["a", 'b, "c"', "d"]);
    expect(splitCsvRecord('a,"open')).toBeNull();
  });

  it("reads each section with its own header, labels apart from stats, and the info section", async () => {
    const set = await readServerMetricsCsv(
      fs.createReadStream(`${FIX}/server_metrics_export.sample.csv`),
      new WarningLog(),
    );
    const usage = set.series.find((s) => s.name === "vllm:kv_cache_usage_perc");
    expect(usage?.stats).toMatchObject({ avg: 0.0559, min: 0, max: 0.1697 });
    expect(usage?.labels).toEqual({ engine: "0", model_name: "Kimi" });
    const bySource = set.series.filter((s) => s.name === "vllm:prompt_tokens_by_source");
    expect(bySource.map((s) => [s.endpoint, s.labels.source, s.stats.total])).toEqual([
      ["localhost:8000", "local_compute", 700],
      ["localhost:8001", "local_compute", 300],
    ]);
    const info = set.series.find((s) => s.type === "info");
    expect(info).toMatchObject({
      name: "vllm:cache_config_info",
      endpoint: "localhost:8000",
      labels: { block_size: "64" },
    });
  });
});

describe("aiperf JSON and JSONL", () => {
  it("JSON: normalised endpoint, window from the profiling phase, timeslices", async () => {
    const set = await readServerMetricsJson(
      fs.createReadStream(`${FIX}/doc-vllm__server_metrics_export.json`),
      new WarningLog(),
    );
    // summary start_time 02:04:23.028529 → end_time 02:05:15.294690, not endpoint_info's 52.99 s
    // scrape span (which includes the baseline before the run).
    expect(set?.windows.get("localhost:8000")?.durationS).toBeCloseTo(52.266161, 6);
    const usage = set?.series.find((s) => s.name === "vllm:kv_cache_usage_perc");
    expect(usage?.endpoint).toBe("localhost:8000");
    expect(sliceList(usage?.slices)[1]).toMatchObject({ value: 0.192, max: 0.194 });
  });

  it("JSONL: legacy `histogram` key read as a histogram sum", async () => {
    const counts = { records: 0, skipped: 0 };
    const set = await readServerMetricsJsonl(
      fs.createReadStream(`${FIX}/doc-legacy-dynamo__server_metrics_export.jsonl`),
      new WarningLog(),
      counts,
      1 << 20,
    );
    expect(counts.records).toBe(2);
    const h = set.series.find((s) => s.name === "dynamo_component_request_duration_seconds");
    expect(h?.type).toBe("histogram");
    expect(h?.endpoint).toBe("localhost:9009");
  });

  it("JSONL: warmup lines are the reference, not part of the window", async () => {
    const line = (t: number, v: number, phase?: string) =>
      JSON.stringify({
        endpoint_url: "http://h:1/metrics",
        timestamp_ns: t * 1e9,
        ...(phase ? { benchmark_phase: phase } : {}),
        metrics: {
          "vllm:prompt_tokens_total": [{ value: v }],
          "vllm:kv_cache_usage_perc": [{ value: v / 1000 }],
        },
      });
    const src = [line(0, 100, "warmup"), line(1, 300, "warmup"), line(2, 350), line(3, 500)].join("\n");
    const set = await readServerMetricsJsonl(
      text(src),
      new WarningLog(),
      { records: 0, skipped: 0 },
      1 << 20,
    );
    const c = set.series.find((s) => s.name === "vllm:prompt_tokens");
    // Reference = last warmup sample (300): 500 − 300 = 200, not 500 − 100.
    expect(c?.stats.total).toBe(200);
    const g = set.series.find((s) => s.name === "vllm:kv_cache_usage_perc");
    // Gauge stats over the two profiling samples only: (0.35 + 0.5) / 2.
    expect(g?.stats.avg).toBeCloseTo(0.425, 12);
  });
});

describe("scrape window math", () => {
  const track = { t: [0, 1e9, 2e9, 3e9, 4e9], v: [10, 30, 5, 15, 20] };
  it("clamps a counter reset to 0 instead of subtracting the lifetime value", () => {
    // +20, reset (clamped 0), +10, +5 = 35.
    expect(counterTotal(track)).toBe(35);
  });
  it("puts each delta in the interval that holds its later sample", () => {
    expect([...counterSlices(track, 0, 2e9).value]).toEqual([20, 15]);
  });
  it("averages gauge samples per interval", () => {
    expect(sliceList(gaugeSlices(track, 0, 2e9)).map((s) => [s.value, s.max])).toEqual([
      [20, 30],
      [10, 15],
      [20, 20],
    ]);
  });
});

describe("engine logs", () => {
  it("SGLang: TP-only tags are replicas of one pool (trap T8)", async () => {
    const log = "dp_size=1\n[x TP0] max_total_num_tokens=2693376\n[x TP1] max_total_num_tokens=2693376\n";
    // The reference sums both lines (5,386,752); one pool of 2,693,376 is right.
    expect((await readServerLog(text(log)))?.tokens).toBe(2693376);
  });
  it("SGLang: a partial DP set gives no capacity", async () => {
    const log = "dp_size=4\n[DP0 TP0 EP0] max_total_num_tokens=100\n[DP1 TP1 EP1] max_total_num_tokens=90\n";
    // The reference sums the two ranks (190) as if they were all four.
    expect(await readServerLog(text(log))).toMatchObject({ tokens: null, note: "2 of 4 DP ranks logged" });
  });
  it("SGLang: attn_dp_size is not dp_size", async () => {
    const log = "attn_dp_size=8\n[DP0 TP0 EP0] max_total_num_tokens=100\n";
    expect((await readServerLog(text(log)))?.tokens).toBe(100);
  });
  it("vLLM: a partial DP set gives no capacity (trap T9)", async () => {
    const log = "data_parallel_size=4\n(EngineCore_DP0 pid=1) GPU KV cache size: 100 tokens\n";
    expect((await readServerLog(text(log)))?.tokens).toBeNull();
  });
});

describe("Prometheus scrapes through the analyzer", () => {
  it("a Dynamo frontend + TensorRT-LLM worker pair: backend, roles, tokens, and the collector warning", async () => {
    const { analyzeFiles } = await import("./server-metrics-helpers");
    const r = await analyzeFiles([
      `${FIX}/dynamo_frontend_metrics.prom`,
      `${FIX}/dynamo_trtllm_worker_metrics.prom`,
    ]);
    expect(r.serverMetrics?.backend).toBe("dynamo+trtllm");
    expect(r.endpoints?.map((e) => [e.endpoint, e.role])).toEqual([
      ["dynamo_frontend_metrics", "frontend"],
      ["dynamo_trtllm_worker_metrics", "combined"],
    ]);
    // Frontend histogram sum: 33 input tokens; output counter 300 (lifetime values of one scrape).
    expect(r.serverMetrics?.tokens.promptTotal).toBe(33);
    expect(r.serverMetrics?.tokens.generationTotal).toBe(300);
    // The worker's TRT-LLM exports request metrics only: iteration stats were off.
    expect(r.warnings?.some((w) => w.includes("enable_iter_perf_stats"))).toBe(true);
  });
  it("a frontend-only run's hit rate stays with that run, not the next one the process analyzes", async () => {
    // The frontend's cached / input tokens stand in when no engine exports a cache; that stand-in
    // was written into the one shared "no cache" result, so every later run without a cache got it.
    const { analyzeFiles, caseFiles } = await import("./server-metrics-helpers");
    const frontendOnly = await analyzeFiles(
      caseFiles("test/fixtures/inferencex-aggregation/cases/trap-dynamo-vllm-frontend-only"),
    );
    expect(frontendOnly.serverMetrics?.cache.method).toBe("dynamo frontend cached / input tokens");
    const next = await analyzeFiles([`${FIX}/dynamo_trtllm_worker_metrics.prom`]);
    expect(next.serverMetrics?.cache).toMatchObject({ overallHitRate: null, method: null });
  });
  it("the worker's kvstats gauges at their unset 0 are not exported, never a 0 % hit rate or usage", async () => {
    // The scrape holds dynamo_component_kvstats_{total_blocks,active_blocks,gpu_cache_usage_percent,
    // gpu_prefix_cache_hit_rate} = 0. ai-dynamo/dynamo lib/llm/src/kv_router/publisher.rs registers
    // these gauges at 0 (WorkerMetricsPublisher starts from ForwardPassMetrics::default()) and sets
    // them only in update_from_kvstats, when the engine publishes; a 0-block pool means it never did.
    const { analyzeFiles } = await import("./server-metrics-helpers");
    const r = await analyzeFiles([
      `${FIX}/dynamo_frontend_metrics.prom`,
      `${FIX}/dynamo_trtllm_worker_metrics.prom`,
    ]);
    expect(r.serverMetrics?.cache).toMatchObject({
      gpuHitRate: null,
      cpuHitRate: null,
      overallHitRate: null,
      method: null,
      externalHitRate: null,
      lookupTokens: null,
      gaugeHitRateAvg: null,
      countersExported: [],
    });
    expect(r.serverMetrics?.kvCache).toEqual({ gpuTotalTokens: null, gpuUsageAvg: null, gpuUsageMax: null });
    const worker = r.endpoints?.find((e) => e.endpoint === "dynamo_trtllm_worker_metrics");
    expect(worker?.cacheHitRate).toBeNull();
    expect(worker?.kvUsageAvg).toBeNull();
    expect(r.warnings?.some((w) => w.includes("kvstats_* gauges were never set"))).toBe(true);
  });
});
