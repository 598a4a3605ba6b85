/**
 * Results of other benchmark tools (docs/formats.md §Benchmark tools): vLLM `bench serve`,
 * SGLang `bench_serving` and genai-perf. Their per-request arrays are stored as aiperf request
 * rows, so the latency views, the drill-down and compare read them as they read an aiperf run;
 * a result without them gives the tool's run-level figures.
 *
 * A file of several benchmarks (an SGLang or vLLM sweep, appended results, a GuideLLM rate
 * sweep) is split at upload into one run per benchmark (lib/ingest/split-benchmarks.ts): such a
 * run's file says which benchmark is its (`IngestFile.part`). Read whole, the file's first
 * benchmark is the run, and when nothing splits it (several result files, several genai-perf
 * experiments) the run says how many were left out.
 */
import { AIPERF_SLOWEST_CHART } from "@/lib/api/aiperf-requests";
import { readWholeText } from "@/lib/formats/aiperf-read";
import type { BenchResult } from "@/lib/formats/bench-result";
import { genaiPerfResults, readGenaiPerfExport } from "@/lib/formats/genai-perf";
import { benchFileDocuments, benchResultsOf } from "@/lib/formats/bench-results";
import { runOriginMs } from "@/lib/metrics/aiperf-run-result";
import { benchRunResult } from "@/lib/metrics/bench-run-result";
import { logRequestValues } from "@/lib/metrics/regression/request-values";
import { ErrorTally } from "@/lib/metrics/requests-errors";
import { FLAG_ERROR, RequestLog } from "@/lib/metrics/requests-log";
import { reanchorRequests } from "@/lib/store/aiperf-requests";
import { BatchInserter } from "@/lib/store/batch-insert";
import { AIPERF_REQUEST_COLUMNS, type AiperfRequestsTable } from "@/lib/store/tables/aiperf";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";
import { slowestRequestsPayload } from "./aiperf-slowest";

const KINDS = new Set([
  "vllm-bench",
  "sglang-bench",
  "genai-perf-export",
  "genai-perf-summary",
  "guidellm-report",
]);

interface Chosen {
  result: BenchResult;
  /** The file whose rows are stored; null for a genai-perf summary alone */
  file: IngestFile | null;
}

export function benchImportAnalyzer(): Analyzer {
  let chosen: Chosen | null = null;
  let left = 0;
  const leftFiles: string[] = [];
  let genaiExport: { file: IngestFile; doc: ReturnType<typeof readGenaiPerfExport> } | null = null;
  let genaiSummary: Record<string, unknown> | null = null;

  /** The first benchmark seen becomes the run; the others are counted for the warning. */
  function offer(results: BenchResult[], file: IngestFile | null): void {
    if (results.length === 0) return;
    if (chosen === null) {
      chosen = { result: results[0], file };
      left += results.length - 1;
    } else {
      left += results.length;
      if (file) leftFiles.push(file.name);
    }
  }

  async function ingestFile(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const text = await readWholeText(await file.open(), ctx.limits.maxJsonDocumentBytes);
    if (text === null)
      return {
        records: 0,
        skipped: 1,
        warnings: [{ message: "larger than the JSON document limit; stored but not read" }],
      };
    const yaml = file.format === "yaml";
    const docs = benchFileDocuments(text, yaml);
    if (!docs || docs[0] === null)
      return {
        records: 0,
        skipped: 1,
        warnings: [{ message: yaml ? "not a GuideLLM YAML report" : "not valid JSON" }],
      };
    if (file.kind === "genai-perf-summary") {
      genaiSummary = docs[0] as Record<string, unknown>;
      return { records: 1, skipped: 0, warnings: [] };
    }
    if (file.kind === "genai-perf-export") {
      const doc = readGenaiPerfExport(docs[0] as Record<string, unknown>);
      if (!genaiExport) genaiExport = { file, doc };
      else {
        left += doc.experiments.length;
        leftFiles.push(file.name);
      }
      const n = doc.experiments.reduce((a, e) => a + e.records.length, 0);
      return {
        records: n,
        skipped: 0,
        warnings: [],
        meta: { experiments: doc.experiments.length, toolVersion: doc.version },
      };
    }
    const all = benchResultsOf(file.kind, docs);
    const part = file.part;
    const results = part === undefined ? all : all.slice(part, part + 1);
    const warnings =
      part !== undefined && results.length === 0
        ? [{ message: `holds ${all.length} benchmarks: benchmark ${part + 1} is not in it` }]
        : [];
    offer(results, file);
    const n = results.reduce((a, r) => a + (r.records?.length ?? 0), 0);
    return {
      records: n || results.length,
      skipped: 0,
      warnings,
      meta: {
        benchmarks: all.length,
        // Each benchmark's load (concurrency@rate): a sweep varies it, repeated runs do not.
        loads: all.map((r) => `${r.concurrency ?? ""}@${r.requestRate ?? ""}`).join(","),
        ...(part === undefined ? {} : { part }),
        perRequest: results.some((r) => r.records !== null),
      },
    };
  }

  async function finish(ctx: IngestContext): Promise<AnalyzerResult> {
    if (genaiExport || genaiSummary) {
      const results = genaiPerfResults(genaiExport?.doc ?? null, genaiSummary);
      // The genai-perf file stands in for the run when no other tool's result came first.
      if (chosen === null) offer(results, genaiExport?.file ?? null);
      else left += results.length;
    }
    const pick = chosen as Chosen | null;
    if (!pick) return {};
    const { result } = pick;
    const log = new RequestLog();
    const errors = new ErrorTally();
    if (result.records && pick.file) {
      const rows = new BatchInserter(ctx.db, "aiperf_requests", AIPERF_REQUEST_COLUMNS);
      let line = 0;
      for (const r of result.records) {
        line++;
        const i = log.length;
        log.add(r, r.error ? FLAG_ERROR : 0);
        const startMs = log.cols.startMs[i];
        const endMs = log.cols.endMs[i];
        if (r.error) errors.add(r.error.type, r.error.code, r.error.message, startMs);
        const row: AiperfRequestsTable = {
          run_id: ctx.runId,
          file_id: pick.file.id,
          line,
          request_id: r.requestId,
          phase: "profiling",
          ok: r.error ? 0 : 1,
          cancelled: 0,
          error_type: r.error?.type ?? null,
          start_ms: Number.isFinite(startMs) ? startMs : null,
          end_ms: Number.isFinite(endMs) ? endMs : null,
          ttft_ms: r.ttftMs,
          e2e_ms: r.e2eMs,
          itl_ms: r.itlMs,
          input_tokens: r.inputTokens,
          output_tokens: r.outputTokens,
          worker_id: null,
        };
        if (rows.push(row)) await rows.flush();
      }
      await rows.flush();
    }
    const originMs = runOriginMs(log);
    if (log.length > 0 && originMs !== 0) await reanchorRequests(ctx.db, ctx.runId, originMs);
    const out = benchRunResult(result, log, errors, originMs, pick.file?.name ?? result.tool);
    if (left > 0)
      out.warnings.push(
        `this upload holds ${left + 1} benchmarks (${[pick.file?.name, ...leftFiles].filter(Boolean).join(", ")}); only the first${result.label ? ` (${result.label})` : ""} was imported: upload each benchmark on its own to see and compare the others`,
      );
    if (log.length > 0)
      out.charts[AIPERF_SLOWEST_CHART] = await slowestRequestsPayload(ctx.db, ctx.runId, log);
    return {
      requests: out.requests,
      info: out.info,
      charts: out.charts,
      warnings: out.warnings,
      backend: out.backend,
      facts: out.facts,
      ...(out.throughput ? { throughput: out.throughput } : {}),
      requestCount: out.requests?.count ?? null,
      ...(log.length > 0 ? { requestValues: logRequestValues(log) } : {}),
    };
  }

  return {
    name: "bench-import",
    tables: ["aiperf_requests"],
    accepts: (f) => KINDS.has(f.kind),
    ingestFile,
    finish,
  };
}
