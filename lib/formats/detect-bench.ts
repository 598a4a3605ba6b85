/**
 * Detection of other benchmark tools' results (docs/formats.md §Benchmark tools), by the keys
 * each tool writes. Asked before the aiperf rules: these results also carry a bare-number
 * `request_throughput`, which alone would read as a minimal aiperf summary.
 */
import { isGenaiPerfExport, isGenaiPerfSummary, sniffGenaiPerfExport } from "./genai-perf";
import { isGuidellmReport, sniffGuidellmReport } from "./guidellm";
import {
  isInferencexAggregate,
  isInferencexResult,
  isInferencexRunStats,
  sniffInferencexResult,
} from "./inferencex-result";
import type { Detected } from "./kinds";
import { isSglangBenchResult, sniffSglangBench } from "./sglang-bench";
import { isVllmBenchResult, sniffVllmBench } from "./vllm-bench";

/** A JSONL line: SGLang appends one per benchmark, vLLM one per --append-result. */
export function benchLineKind(v: Record<string, unknown>): Detected | null {
  if (isSglangBenchResult(v)) return { kind: "sglang-bench", format: "jsonl" };
  if (isVllmBenchResult(v)) return { kind: "vllm-bench", format: "jsonl" };
  return null;
}

/** A whole JSON document: one result, a vLLM sweep summary's first entry, a genai-perf file. */
export function benchDocumentKind(doc: Record<string, unknown>): Detected | null {
  if (isInferencexResult(doc) || isInferencexRunStats(doc))
    return { kind: "inferencex-result", format: "json" };
  if (isSglangBenchResult(doc)) return { kind: "sglang-bench", format: "json" };
  if (isVllmBenchResult(doc)) return { kind: "vllm-bench", format: "json" };
  if (isGenaiPerfExport(doc)) return { kind: "genai-perf-export", format: "json" };
  if (isGenaiPerfSummary(doc)) return { kind: "genai-perf-summary", format: "json" };
  if (isGuidellmReport(doc)) return { kind: "guidellm-report", format: "json" };
  return null;
}

/** A document larger than the detection head, by the key names in its first megabyte. */
export function sniffBenchDocument(text: string): Detected | null {
  if (sniffInferencexResult(text)) return { kind: "inferencex-result", format: "json" };
  if (sniffSglangBench(text)) return { kind: "sglang-bench", format: "json" };
  if (sniffVllmBench(text)) return { kind: "vllm-bench", format: "json" };
  if (sniffGenaiPerfExport(text)) return { kind: "genai-perf-export", format: "json" };
  if (sniffGuidellmReport(text)) return { kind: "guidellm-report", format: "json" };
  return null;
}

/** A JSON array of benchmark results: InferenceX's sweep aggregate (`agg_bmk.json`). */
export function benchArrayKind(doc: unknown[]): Detected | null {
  return isInferencexAggregate(doc) ? { kind: "inferencex-result", format: "json" } : null;
}
