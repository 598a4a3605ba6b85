/**
 * Detection of single documents larger than the detection head (docs/formats.md §Detection):
 * the head's rules never take a benchmark tool's report for aiperf records or an engine config,
 * and the whole document's outline (lib/formats/json-skeleton.ts) tells a result whose telling
 * keys come after the head. Samples follow the producers' writers (see the generators):
 * GuideLLM src/guidellm/benchmark/schemas/report.py `save_file` (json.dumps / PyYAML dump),
 * vLLM vllm/benchmarks/serve.py `--save-detailed`, SGLang python/sglang/bench_serving.py
 * `--output-details`, genai-perf's profile export (llm_profile_data_parser.py reads it).
 */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import {
  detectDocumentKind,
  detectKind,
  DETECT_HEAD_BYTES,
  isPartialJsonDocument,
} from "@/lib/formats/detect";
import { jsonSkeleton } from "@/lib/formats/json-skeleton";
import { genaiPerfArtifacts } from "../generators/genai-perf";
import { guidellmReport } from "../generators/guidellm";
import { sglangLine } from "../generators/sglang-bench";
import { vllmBenchResult } from "../generators/vllm-bench";
import { sortKeys } from "../helpers/sort-keys";

const head = (text: string) => Buffer.from(text).subarray(0, DETECT_HEAD_BYTES);

async function* chunks(text: string, size = 65536): AsyncGenerator<Buffer> {
  const b = Buffer.from(text);
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

async function outlineKind(text: string) {
  expect(Buffer.byteLength(text)).toBeGreaterThan(DETECT_HEAD_BYTES);
  expect(isPartialJsonDocument(head(text), false)).toBe(true);
  const outline = await jsonSkeleton(chunks(text));
  return outline === null ? null : detectDocumentKind(outline);
}

describe("a document larger than the detection head", () => {
  const report = guidellmReport([1, 4], { requests: 3000 });

  it("GuideLLM on one line: the head says GuideLLM report, never aiperf records", () => {
    const text = JSON.stringify(report);
    expect(text.startsWith('{"metadata":')).toBe(true);
    expect(detectKind(head(text), false)).toEqual({ kind: "guidellm-report", format: "json" });
  });

  it("GuideLLM as PyYAML's sorted dump: the head says GuideLLM report, never engine config", () => {
    const text = stringify(report, { sortMapEntries: true });
    expect(text.indexOf("type_: generative_benchmark")).toBeGreaterThan(DETECT_HEAD_BYTES);
    expect(detectKind(head(text), false)).toEqual({ kind: "guidellm-report", format: "yaml" });
  });

  it("a YAML whose top level has `benchmarks` and nothing GuideLLM's is not an engine config", () => {
    const text = `benchmarks:\n- backend: openai\n  max_batch_size: 8\n${"  x: 1\n".repeat(200_000)}`;
    expect(detectKind(head(text), false).kind).not.toBe("engine-config");
  });

  it("vLLM and SGLang results with their per-request arrays before their figures", async () => {
    const vllm = JSON.stringify(sortKeys(vllmBenchResult({ requests: 6000, detailed: true, seed: 2 })));
    expect(vllm.indexOf('"request_throughput"')).toBeGreaterThan(DETECT_HEAD_BYTES);
    expect(await outlineKind(vllm)).toEqual({ kind: "vllm-bench", format: "json" });

    const sglang = sglangLine({ requests: 6000, details: true });
    const sorted = JSON.stringify(sortKeys(sglang), null, 2);
    expect(sorted.indexOf('"mean_e2e_latency_ms"')).toBeGreaterThan(DETECT_HEAD_BYTES);
    expect(await outlineKind(sorted)).toEqual({ kind: "sglang-bench", format: "json" });
  });

  it("an outline stays bounded: a map of many keys before the figures leaves them told", async () => {
    const result = vllmBenchResult({ requests: 50, detailed: true, seed: 4 });
    const many = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, { v: i }]));
    const outline = (await jsonSkeleton(chunks(JSON.stringify({ aaa_map: many, ...result })))) as Record<
      string,
      unknown
    >;
    expect(Object.keys(outline.aaa_map as object).length).toBeLessThan(300_000);
    expect(detectDocumentKind(outline)).toEqual({ kind: "vllm-bench", format: "json" });
  });

  it("genai-perf's export and GuideLLM's report by their outline", async () => {
    const { exported } = genaiPerfArtifacts({ requests: 8000 });
    expect(await outlineKind(JSON.stringify(exported))).toEqual({
      kind: "genai-perf-export",
      format: "json",
    });
    expect(await outlineKind(JSON.stringify(sortKeys(report)))).toEqual({
      kind: "guidellm-report",
      format: "json",
    });
  });

  it("JSON lines and a cut document have no outline; JSON lines are no partial document", async () => {
    const line = JSON.stringify({ metadata: { x_request_id: "a" }, metrics: {} });
    const lines = `${line}\n`.repeat(40_000);
    expect(isPartialJsonDocument(head(lines), false)).toBe(false);
    expect(await jsonSkeleton(chunks(lines))).toBeNull();
    const cut = JSON.stringify(report).slice(0, 2 * DETECT_HEAD_BYTES);
    expect(await jsonSkeleton(chunks(cut))).toBeNull();
    expect(isPartialJsonDocument(head(cut), true)).toBe(false);
  });
});
