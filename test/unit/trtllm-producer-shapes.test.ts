/**
 * TensorRT-LLM perf-metrics files in the shapes the producer and the scripts around it write,
 * built from generated worker records (test/generators/trtllm.mjs). The record shape follows
 * TensorRT-LLM's tensorrt_llm/serve/perf_metrics.py and its `RequestPerfMetrics` (timing_metrics,
 * kv_cache_metrics, first_iter, last_iter).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readJsonArrayElements } from "@/lib/formats/json-array";
import { computeStats } from "@/lib/metrics/stats";
import { emptyTimes, requestSegments, segmentsFor, type RequestTimes } from "@/lib/metrics/time-breakdown";
import {
  bareRequestPerfMetricsLines,
  generateTrtllmRun,
  type GenerateOptions,
  perfMetricsPollLines,
  readRecords,
} from "../generators/trtllm.mjs";
import { analyzeTrtllm, trtllmDiskFile, trtllmTextFile } from "../generators/trtllm-ingest";

function generated(opts: Omit<GenerateOptions, "dir">) {
  return generateTrtllmRun({
    dir: fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-shapes-")),
    ...opts,
  });
}

function aggregatedRecords(requests: number) {
  const gen = generated({ mode: "aggregated", requests, ctxWorkers: 1, seed: 7 });
  return { records: readRecords(gen.files[0]), truth: gen.truth.segments };
}

describe("JSONL of /perf_metrics polls (tensorrt_llm/serve/perf_metrics.py, one array per GET)", () => {
  it("reads every line's array, empty polls included", async () => {
    const { records, truth } = aggregatedRecords(6);
    const text = perfMetricsPollLines(records, [2, 0, 1, 3]);
    const run = await analyzeTrtllm([trtllmTextFile("perf_metrics_polls.jsonl", text)]);
    expect(run.reports[0]).toMatchObject({ records: 6, skipped: 0, warnings: [] });
    const tb = run.result.timeBreakdown!;
    expect(tb.requestCount).toBe(6);
    const queue = truth.ctx_queue as number[];
    const mean = queue.reduce((a, b) => a + b, 0) / queue.length;
    expect(tb.segments.find((s) => s.name === "ctx_queue")!.meanMs).toBeCloseTo(mean, 6);
  });

  it("skips a malformed line and a non-record element, and says which", async () => {
    const { records } = aggregatedRecords(3);
    const lines = perfMetricsPollLines(records, [2, 1]).trimEnd().split("\n");
    const text = [lines[0], '[{"request_id": 9, "perf', lines[1], "[42]"].join("\n") + "\n";
    const run = await analyzeTrtllm([trtllmTextFile("perf_metrics_polls.jsonl", text)]);
    expect(run.reports[0].records).toBe(3);
    expect(run.reports[0].skipped).toBe(2);
    expect(run.reports[0].warnings).toEqual([
      { line: 2, message: "skipped line: not valid JSON" },
      { line: 4, message: "skipped: not a JSON object" },
    ]);
  });
});

describe("polls read as one JSON array stream (a first line too long to sniff)", () => {
  async function elements(text: string) {
    const result = { truncated: false, trailing: false };
    const out: (string | null)[] = [];
    for await (const el of readJsonArrayElements(Readable.from([Buffer.from(text)]), result))
      out.push(el.text);
    return { out, result };
  }

  it("reads on into the arrays that follow the first", async () => {
    const { records } = aggregatedRecords(3);
    const { out, result } = await elements(perfMetricsPollLines(records, [1, 0, 2]));
    expect(out.map((t) => JSON.parse(t!))).toEqual(records);
    expect(result).toEqual({ truncated: false, trailing: false });
  });

  it("stops at content that is not an array, and says so", async () => {
    const { out, result } = await elements('[1, {"a": 2}]\n{"b": 3}\n[4]');
    expect(out).toEqual(["1", '{"a": 2}']);
    expect(result).toEqual({ truncated: false, trailing: true });
  });

  it("still reports a truncated last array", async () => {
    const { out, result } = await elements('[1]\n[2, {"a": ');
    expect(out).toEqual(["1", "2"]);
    expect(result.truncated).toBe(true);
  });
});

describe("JSONL of bare RequestPerfMetrics objects (tensorrt_llm/serve/perf_metrics.py record shape)", () => {
  it("accepts one object per line", async () => {
    const { records } = aggregatedRecords(4);
    const run = await analyzeTrtllm([
      trtllmTextFile("request_perf_metrics.jsonl", bareRequestPerfMetricsLines(records)),
    ]);
    expect(run.reports[0]).toMatchObject({ records: 4, skipped: 0 });
    expect(run.result.timeBreakdown!.requestCount).toBe(4);
  });
});

/** A disaggregated request's stamps up to the context server's first response (s). */
const CTX_STAMPS: RequestTimes = {
  ...emptyTimes(),
  disaggArrival: 100,
  ctxServerArrival: 100.001,
  ctxArrival: 100.002,
  ctxFirstScheduled: 100.004,
  ctxFirstToken: 100.05,
  ctxServerFirstToken: 100.051,
};
const DISAGG_NAMES = segmentsFor("disaggregated").map((s) => s.name);
/** The segments that stack up to TTFT (all but decode), summed over those recorded. */
const stacked = (times: RequestTimes) =>
  requestSegments(times, "disaggregated").reduce<number>(
    (sum, v, i) => (DISAGG_NAMES[i] === "decode" || typeof v !== "number" ? sum : sum + v),
    0,
  );

describe("gen_queue: gen arrival to first scheduling without KV-transfer stamps (tensorrt_llm/serve/scripts/time_breakdown)", () => {
  it("is recorded exactly for the requests without transfer stamps, with the generator's values", async () => {
    const gen = generated({ mode: "disaggregated", requests: 300, seed: 11, noTransferStampsRate: 0.3 });
    const run = await analyzeTrtllm(gen.files.map((f, i) => trtllmDiskFile(f, i)));
    const tb = run.result.timeBreakdown!;
    expect(tb.segments.map((s) => s.name)).toEqual(Object.keys(gen.truth.segments));
    const without = gen.truth.segments.gen_queue.filter((v) => v !== null).length;
    expect(without).toBeGreaterThan(50);
    expect(without).toBeLessThan(250);
    for (const s of tb.segments) {
      const known = gen.truth.segments[s.name].filter((v): v is number => v !== null);
      const want = computeStats(known);
      expect(s.count, s.name).toBe(known.length);
      if (want) expect(s.meanMs!, s.name).toBeCloseTo(want.mean, 6);
    }
  });

  it("tiles TTFT with or without the transfer stamps, never counting both", () => {
    const t: RequestTimes = {
      ...CTX_STAMPS,
      genServerArrival: 100.053,
      genArrival: 100.054,
      genKvTransferStart: 100.056,
      genKvTransferEnd: 100.062,
      genFirstScheduled: 100.064,
      genFirstToken: 100.07,
      genServerFirstToken: 100.072,
      genLastToken: 101,
      disaggFirstToken: 100.073,
    };
    const ttft = (100.073 - 100) * 1000;
    expect(stacked(t)).toBeCloseTo(ttft, 9);
    expect(requestSegments(t, "disaggregated")[DISAGG_NAMES.indexOf("gen_queue")]).toBeNull();
    const bare = { ...t, genKvTransferStart: null, genKvTransferEnd: null };
    expect(stacked(bare)).toBeCloseTo(ttft, 9);
    expect(requestSegments(bare, "disaggregated")[DISAGG_NAMES.indexOf("gen_queue")]).toBeCloseTo(10, 9);
  });

  it("never stacks a request past its own TTFT and E2E, clock skew clamped to 0 included", () => {
    // The gen server's clock runs 3 ms behind the ctx server's: disagg_relay reads −3 ms, which
    // is clamped to 0 as skew, so the raw spans add up to TTFT + 3 ms.
    const t: RequestTimes = {
      ...CTX_STAMPS,
      genServerArrival: 100.048,
      genArrival: 100.049,
      genFirstScheduled: 100.06,
      genFirstToken: 100.065,
      genServerFirstToken: 100.07,
      genLastToken: 101,
      disaggFirstToken: 100.071,
    };
    const v = requestSegments(t, "disaggregated");
    const at = (n: string) => v[DISAGG_NAMES.indexOf(n)] as number;
    const ttftPart = stacked(t);
    expect(at("disagg_relay")).toBe(0);
    expect(ttftPart).toBeCloseTo(71, 9);
    // The 3 ms too many come off the end of the stack: disagg_postprocessing (1 ms) and 2 ms of
    // gen_postprocessing.
    expect(at("disagg_postprocessing")).toBeCloseTo(0, 9);
    expect(at("gen_postprocessing")).toBeCloseTo(8, 9);
    // decode = E2E − TTFT: the gen server's first response (100.070) to its last token.
    expect(at("decode")).toBeCloseTo(930, 9);
    // A response not streamed (last token before the first response): decode 0, not excluded.
    expect(
      requestSegments({ ...t, genLastToken: 100.06 }, "disaggregated")[DISAGG_NAMES.indexOf("decode")],
    ).toBe(0);
  });
});
