/**
 * Values no writer or server can mean: a negative token count, a counter below 0, a KV usage
 * gauge outside its range. Each is left out with a warning counted per file (docs/metrics.md),
 * never averaged into a statistic or a rate.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import type { Analyzer } from "@/lib/ingest/analyzer";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-bad-values-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function analyzeText(analyzer: Analyzer, name: string, text: string) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  const run = await runAnalyzer(analyzer, [diskIngestFile(file, 0, name)]);
  await run.handle.close();
  expect(run.accepted).toEqual([name]);
  return { result: run.result, report: run.reports[0] };
}

const messages = (report: { warnings: Array<{ message: string }> }) => report.warnings.map((w) => w.message);

function record(i: number, isl: number, osl = 200): string {
  return JSON.stringify({
    metadata: {
      x_request_id: `r${i}`,
      request_start_ns: 1_000_000_000_000 + i * 1e9,
      request_end_ns: 1_000_000_000_000 + i * 1e9 + 5e8,
      benchmark_phase: "profiling",
    },
    metrics: {
      input_sequence_length: { value: isl, unit: "tokens" },
      output_sequence_length: { value: osl, unit: "tokens" },
      time_to_first_token: { value: 30, unit: "ms" },
      request_latency: { value: 500, unit: "ms" },
    },
  });
}

describe("aiperf records", () => {
  it("a negative token count is not recorded, with one counted warning for the file", async () => {
    const lines = [record(0, 100), record(1, -5), record(2, 120, -3), record(3, -1)];
    const { result, report } = await analyzeText(
      aiperfAnalyzer(),
      "profile_export.jsonl",
      lines.join("\n") + "\n",
    );
    expect(report.records).toBe(4);
    expect(report.skipped).toBe(0);
    expect(result.requests?.inputTokens?.min).toBe(100);
    expect(result.requests?.inputTokens?.max).toBe(120);
    expect(result.requests?.outputTokens?.min).toBe(200);
    expect(messages(report)).toEqual(["negative token count read as not recorded (3×)"]);
  });
});

const URL = "http://localhost:8000/metrics";
const T0 = 1763591215220757503;

function scrapes(values: Array<Record<string, number>>): string {
  return (
    values
      .map((metrics, i) =>
        JSON.stringify({
          endpoint_url: URL,
          timestamp_ns: T0 + i * 1e9,
          metrics: Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, [{ value: v }]])),
        }),
      )
      .join("\n") + "\n"
  );
}

describe("server-metrics JSONL scrapes", () => {
  it("an all-negative hits counter is ignored, not a 50 % hit rate", async () => {
    const vals = [100, 150, 200, 250];
    const text = scrapes(
      vals.map((v) => ({
        "vllm:prompt_tokens_total": v,
        "vllm:prefix_cache_queries_total": v * 2,
        "vllm:prefix_cache_hits_total": -v + (v % 100),
      })),
    );
    const { result, report } = await analyzeText(
      serverMetricsAnalyzer(),
      "server_metrics_export.jsonl",
      text,
    );
    expect(result.serverMetrics?.cache.gpuHitRate ?? null).toBeNull();
    expect(messages(report)).toEqual(["vllm:prefix_cache_hits: negative counter value ignored (4×)"]);
  });

  it("negative samples leave a counter; a drop between valid samples is a restart", async () => {
    const text = scrapes([100, 150, -20, 40, 90].map((v) => ({ "vllm:prompt_tokens_total": v })));
    const { result, report } = await analyzeText(
      serverMetricsAnalyzer(),
      "server_metrics_export.jsonl",
      text,
    );
    // 100 → 150 (+50) → 40 (restart: 0) → 90 (+50); the −20 never enters.
    expect(result.serverMetrics?.tokens.promptTotal).toBe(100);
    expect(messages(report)).toEqual(["vllm:prompt_tokens: negative counter value ignored (1×)"]);
  });

  it("a usage fraction outside 0..1 is ignored; an overshoot to 1.2 is clamped", async () => {
    const text = scrapes([0.5, -1.5, 7.0, 1.2, 0.3].map((v) => ({ "vllm:kv_cache_usage_perc": v })));
    const { result, report } = await analyzeText(
      serverMetricsAnalyzer(),
      "server_metrics_export.jsonl",
      text,
    );
    expect(result.serverMetrics?.kvCache.gpuUsageAvg).toBeCloseTo((0.5 + 1.2 + 0.3) / 3, 9);
    expect(result.serverMetrics?.kvCache.gpuUsageMax).toBe(1);
    expect(messages(report)).toEqual(["vllm:kv_cache_usage_perc: usage fraction outside 0..1 ignored (2×)"]);
  });
});

describe("series with their statistics made (JSON export, Prometheus text)", () => {
  function exportDoc(hitsTotal: number, usage: { avg: number; min: number; max: number }, slices: number[]) {
    const series = (stats: Record<string, number>, timeslices?: unknown[]) => [
      { endpoint_url: URL, labels: {}, stats, ...(timeslices ? { timeslices } : {}) },
    ];
    return JSON.stringify({
      schema_version: "1.0",
      summary: { endpoint_info: { [URL]: { duration_seconds: 10 } } },
      metrics: {
        "vllm:prefix_cache_queries": {
          type: "counter",
          series: series(
            { total: 1000, rate: 100 },
            slices.map((v, i) => ({ start_ns: T0 + i * 1e9, end_ns: T0 + (i + 1) * 1e9, total: v })),
          ),
        },
        "vllm:prefix_cache_hits": {
          type: "counter",
          series: series({ total: hitsTotal, rate: hitsTotal / 10 }),
        },
        "vllm:kv_cache_usage_perc": { type: "gauge", series: series(usage) },
      },
    });
  }

  it("a negative counter total and an out-of-range usage gauge are ignored with a warning", async () => {
    const doc = exportDoc(-501, { avg: -1, min: -1.5, max: -0.5 }, [600, 400]);
    const { result, report } = await analyzeText(serverMetricsAnalyzer(), "server_metrics_export.json", doc);
    expect(result.serverMetrics?.cache.gpuHitRate ?? null).toBeNull();
    expect(result.serverMetrics?.kvCache.gpuUsageAvg ?? null).toBeNull();
    expect(messages(report)).toEqual([
      "vllm:prefix_cache_hits: negative counter value ignored (1×)",
      "vllm:kv_cache_usage_perc: usage fraction outside 0..1 ignored (1×)",
    ]);
  });

  it("a counter interval that went down counts 0, as a restart", async () => {
    const doc = exportDoc(500, { avg: 0.5, min: 0.4, max: 0.6 }, [600, -50, 450]);
    const { result, report } = await analyzeText(serverMetricsAnalyzer(), "server_metrics_export.json", doc);
    expect(result.serverMetrics?.cache.gpuHitRate).toBeCloseTo(0.5, 9);
    expect(messages(report)).toEqual([]);
    const points = JSON.stringify(result.charts ?? {});
    expect(points).not.toContain('"promptTokens":-50');
  });

  it("a negative counter in one Prometheus scrape is ignored with a warning", async () => {
    const text = [
      "# TYPE vllm:prompt_tokens_total counter",
      "vllm:prompt_tokens_total -5",
      "# TYPE vllm:generation_tokens_total counter",
      "vllm:generation_tokens_total 70",
      "# TYPE vllm:kv_cache_usage_perc gauge",
      "vllm:kv_cache_usage_perc 7.0",
      "",
    ].join("\n");
    const { result, report } = await analyzeText(serverMetricsAnalyzer(), "worker.prom", text);
    expect(result.serverMetrics?.tokens.promptTotal ?? null).toBeNull();
    expect(result.serverMetrics?.tokens.generationTotal).toBe(70);
    expect(result.serverMetrics?.kvCache.gpuUsageMax ?? null).toBeNull();
    expect(messages(report)).toEqual([
      "vllm:prompt_tokens: negative counter value ignored (1×)",
      "vllm:kv_cache_usage_perc: usage fraction outside 0..1 ignored (1×)",
    ]);
  });
});
