/**
 * A benchmark tool's result file read into its benchmarks (docs/formats.md §Benchmark tools): the
 * one place that turns a stored vLLM, SGLang, GuideLLM or InferenceX file into `BenchResult`s, for the
 * importer and for anything that reads the tool's own figures again later (a sweep's points).
 */
import type { BenchResult } from "./bench-result";
import { guidellmResults, isGuidellmReport, parseGuidellmYaml } from "./guidellm";
import { inferencexResults, inferencexSweepCsvResults } from "./inferencex-result";
import { PARSE_FAILED, parseJsonText } from "./json-lines";
import { sglangResultsOf } from "./sglang-bench";
import { vllmResultsOf } from "./vllm-bench";

/** Kinds whose file alone holds one or more results (genai-perf pairs two files). */
export const BENCH_RESULT_KINDS = new Set([
  "vllm-bench",
  "sglang-bench",
  "guidellm-report",
  "inferencex-result",
]);

export function benchResultsOf(kind: string, docs: unknown[]): BenchResult[] {
  if (kind === "vllm-bench") return vllmResultsOf(docs);
  // InferenceX's sweep summary.csv is handed over as its text; its JSON results as documents.
  if (kind === "inferencex-result")
    return typeof docs[0] === "string" ? inferencexSweepCsvResults(docs[0]) : inferencexResults(docs[0]);
  if (kind === "sglang-bench") return sglangResultsOf(docs);
  return isGuidellmReport(docs[0]) ? guidellmResults(docs[0]) : [];
}

/** A whole JSON document, or (appended results, SGLang's JSONL) one value per non-empty line. */
export function benchDocuments(text: string): unknown[] | null {
  const whole = parseJsonText(text.trim());
  if (whole !== PARSE_FAILED) return [whole];
  const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== "");
  const values = lines.map((l) => parseJsonText(l.trim()));
  return values.some((v) => v !== PARSE_FAILED) ? values.filter((v) => v !== PARSE_FAILED) : null;
}

/** The file's documents: GuideLLM's YAML report is one document, InferenceX's CSV its text. */
export function benchFileDocuments(text: string, format: string): unknown[] | null {
  if (format === "yaml") return [parseGuidellmYaml(text)];
  if (format === "csv") return [text];
  return benchDocuments(text);
}

/** The benchmark a run holds: its part of a multi-benchmark file, or the file's first. */
export function benchResultOfText(
  kind: string,
  format: string,
  text: string,
  part: number | undefined,
): BenchResult | null {
  const docs = benchFileDocuments(text, format);
  if (!docs || docs[0] === null) return null;
  const all = benchResultsOf(kind, docs);
  return all[part ?? 0] ?? null;
}
