/**
 * vLLM `bench serve` results (docs/formats.md §vLLM bench serve). Samples follow
 * vllm/benchmarks/serve.py (test/generators/vllm-bench.ts); the small case is computed by hand.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { detectKind } from "@/lib/formats/detect";
import { readVllmResult, vllmResultsOf } from "@/lib/formats/vllm-bench";
import { benchImportAnalyzer } from "@/lib/ingest/analyzers/bench-import";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";
import { vllmBenchResult } from "../generators/vllm-bench";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vllm-bench-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

const detect = (text: string) => detectKind(Buffer.from(text), true);

/** Three requests by hand: two served, one failed (vLLM writes 0s and the reason phrase). */
const HAND = {
  date: "20261201-101500",
  endpoint_type: "vllm",
  backend: "vllm",
  label: null,
  model_id: "m",
  tokenizer_id: "m",
  num_prompts: 3,
  request_rate: "inf",
  burstiness: 1.0,
  max_concurrency: 2,
  duration: 2.0,
  completed: 2,
  failed: 1,
  total_input_tokens: 300,
  total_output_tokens: 14,
  request_throughput: 1.0,
  output_throughput: 7.0,
  input_lens: [100, 200, 50],
  output_lens: [5, 9, 0],
  ttfts: [0.1, 0.3, 0.0],
  itls: [[0.05, 0.05, 0.05, 0.05], [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], []],
  latencies: [0.3, 1.1, 0.0],
  start_times: [10.0, 10.5, 10.25],
  errors: ["", "", "Bad Gateway"],
  // TTFT: mean (100 + 300) / 2 = 200, median 200, p99 = 100 + 0.99 × 200 = 298.
  mean_ttft_ms: 200,
  median_ttft_ms: 200,
  std_ttft_ms: 100,
  p99_ttft_ms: 298,
  // TPOT: (0.3 − 0.1) / 4 = 50 ms, (1.1 − 0.3) / 8 = 100 ms.
  mean_tpot_ms: 75,
  median_tpot_ms: 75,
  std_tpot_ms: 25,
  p99_tpot_ms: 99.5,
};

describe("vLLM bench serve result", () => {
  it("is detected by its keys, on one line, indented (sweep run=N.json), appended or as a sweep summary", () => {
    const one = JSON.stringify(HAND);
    expect(detect(one).kind).toBe("vllm-bench");
    expect(detect(JSON.stringify(HAND, null, 4)).kind).toBe("vllm-bench");
    expect(detect(`${one}\n${one}\n`).kind).toBe("vllm-bench");
    expect(detect(JSON.stringify([HAND, HAND], null, 4)).kind).toBe("vllm-bench");
  });

  it("maps the per-request arrays: seconds to ms, failed requests as errors, TPOT as inter-token latency", () => {
    const r = readVllmResult(HAND);
    expect(r.records).toHaveLength(3);
    const [a, b, c] = r.records!;
    expect(a.ttftMs).toBeCloseTo(100, 9);
    expect(a.e2eMs).toBeCloseTo(300, 9);
    expect(a.itlMs).toBeCloseTo(50, 9);
    expect(b.itlMs).toBeCloseTo(100, 9);
    expect(a.inputTokens).toBe(100);
    expect(b.outputTokens).toBe(9);
    expect(Number(b.startNs! - a.startNs!) / 1e6).toBeCloseTo(500, 6);
    expect(c.error).toMatchObject({ type: "Bad Gateway", message: "Bad Gateway" });
    expect(c.ttftMs).toBeNull();
    expect(r.summary.metrics.time_to_first_token).toMatchObject({ unit: "ms", avg: 200, p50: 200, p99: 298 });
    expect(r.summary.metrics.inter_token_latency).toMatchObject({ avg: 75, p99: 99.5 });
    expect(r.summary.config).toMatchObject({ model: "m", concurrency: 2 });
    expect(r.requestRate).toBe("inf");
  });

  it("stores the requests and agrees with vLLM's own figures, throughput over vLLM's duration", async () => {
    const file = diskIngestFile(write("hand.json", JSON.stringify(HAND)));
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [file]);
    const r = result.requests!;
    expect(r).toMatchObject({ source: "aiperf", count: 3, errorCount: 1, warmupCount: null, durationS: 2 });
    expect(r.ttftMs).toMatchObject({ count: 2, mean: 200, p50: 200 });
    expect(r.ttftMs!.p99).toBeCloseTo(298, 9);
    expect(r.itlMs!.mean).toBeCloseTo(75, 9);
    expect(r.requestThroughputPerS).toBe(1);
    expect(r.outputTokenThroughputPerS).toBe(7);
    expect(result.warnings).toEqual([]);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.disagreements).toBe(0);
    expect(agreement.rows.map((x) => `${x.metric} ${x.stat}`)).toEqual(
      expect.arrayContaining(["TTFT (ms) p99", "TPOT (ms) mean", "Request throughput (req/s) value"]),
    );
    expect(result.backend).toBe("vLLM bench serve (vllm)");
    expect(result.facts).toMatchObject({
      model: { value: "m", source: "vLLM bench serve result" },
      concurrency: { value: 2 },
      isl: { value: 150 },
    });
    expect(result.info).toMatchObject({ benchmarkTool: "vLLM bench serve", model: "m", concurrency: 2 });
    const rows = await handle.db.selectFrom("aiperf_requests").selectAll().orderBy("line").execute();
    expect(rows.map((x) => [x.ok, x.start_ms, x.error_type])).toEqual([
      [1, 0, null],
      [1, 500, null],
      [0, 250, "Bad Gateway"],
    ]);
    await handle.close();
  });

  it("agrees exactly with the generator's numpy figures on a larger run, errors included", async () => {
    const doc = vllmBenchResult({
      requests: 400,
      concurrency: 8,
      errorEvery: 25,
      detailed: true,
      percentileMetrics: ["ttft", "tpot", "itl", "e2el"],
      percentiles: [50, 90, 95, 99],
    });
    const file = diskIngestFile(write("gen.json", JSON.stringify(doc)));
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [file]);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.rows.filter((x) => !x.agrees)).toEqual([]);
    // Counts (2), mean p50 p90 p95 p99 of TTFT, ITL and E2E (15), two throughputs.
    expect(agreement.rows.length).toBe(19);
    expect(result.requests).toMatchObject({ count: 400, errorCount: 16 });
    expect(result.requests!.e2eMs!.p90).toBeCloseTo(doc.p90_e2el_ms as number, 6);
    await handle.close();
  });

  it("warns when the rows disagree with the figures (a hand-edited or truncated file)", async () => {
    const doc = { ...vllmBenchResult({ requests: 50, detailed: true }), mean_ttft_ms: 999 };
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      diskIngestFile(write("bad.json", JSON.stringify(doc))),
    ]);
    expect(result.warnings!.join("\n")).toMatch(
      /vLLM bench serve's own figures disagree: 1 of .* TTFT \(ms\) mean/,
    );
    await handle.close();
  });

  it("reads the older benchmark_serving.py result: E2E from TTFT + Σ ITL, no timeline", async () => {
    const doc = vllmBenchResult({ requests: 30, detailed: true, legacy: true });
    const [r] = vllmResultsOf([doc]);
    expect(r.notes.join(" ")).toMatch(/no per-request start times/);
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      diskIngestFile(write("legacy.json", JSON.stringify(doc))),
    ]);
    expect(result.charts!["aiperf-timeline"]).toBeUndefined();
    expect(result.charts!["aiperf-distribution"]).toBeDefined();
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.rows.filter((x) => !x.agrees)).toEqual([]);
    await handle.close();
  });

  it("without --save-detailed gives vLLM's own run-level figures, absent stats left absent", async () => {
    const doc = vllmBenchResult({ requests: 40, errorEvery: 10 });
    expect(doc.ttfts).toBeUndefined();
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      diskIngestFile(write("plain.json", JSON.stringify(doc))),
    ]);
    const r = result.requests!;
    expect(r).toMatchObject({ source: "tool-summary", count: 40, errorCount: 4, warmupCount: null });
    expect(r.ttftMs).toEqual({
      count: 36,
      mean: doc.mean_ttft_ms,
      p50: doc.median_ttft_ms,
      p99: doc.p99_ttft_ms,
    });
    // No E2EL statistics, but vLLM keeps `latencies` without --save-detailed: E2E is theirs.
    const ok = (doc.latencies as number[]).filter((v) => v > 0);
    expect(r.e2eMs).toMatchObject({ count: 36 });
    expect(r.e2eMs!.mean).toBeCloseTo((ok.reduce((x, y) => x + y, 0) / ok.length) * 1000, 9);
    expect(r.requestThroughputPerS).toBe(doc.request_throughput);
    expect(result.charts!["aiperf-distribution"]).toBeUndefined();
    await handle.close();
  });

  it("imports the first benchmark of a sweep summary and says how many were left out", async () => {
    const runs = [0, 1, 2].map((n) => ({ ...vllmBenchResult({ requests: 10, seed: n + 1 }), run_number: n }));
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      diskIngestFile(write("summary.json", JSON.stringify(runs, null, 4))),
    ]);
    expect(result.info).toMatchObject({ benchmark: "run 0", sweepRun: 0 });
    expect(result.warnings!.join("\n")).toMatch(
      /holds 3 benchmarks .* only the first \(run 0\) was imported/,
    );
    await handle.close();
  });
});
