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
import { createHash } from "node:crypto";
import { BENCH_RESULT_KINDS } from "@/lib/api/kinds";
import { readWholeText } from "@/lib/formats/aiperf-read";
import type { BenchResult } from "@/lib/formats/bench-result";
import {
  consoleFacts,
  consoleFigures,
  figuresMatch,
  parseBenchConsole,
  type BenchConsole,
  type FigureKey,
} from "@/lib/formats/bench-console";
import { genaiPerfResults, readGenaiPerfExport } from "@/lib/formats/genai-perf";
import { benchFileDocuments, benchResultsOf } from "@/lib/formats/bench-results";
import { inferencexRunStatsFacts, isInferencexRunStats } from "@/lib/formats/inferencex-result";
import { PARSE_FAILED, parseJsonText } from "@/lib/formats/json-lines";
import { runOriginMs } from "@/lib/metrics/aiperf-run-result";
import { benchRunResult } from "@/lib/metrics/bench-run-result";
import { logRequestValues } from "@/lib/metrics/regression/request-values";
import { ErrorTally } from "@/lib/metrics/requests-errors";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP, RequestLog } from "@/lib/metrics/requests-log";
import { reanchorRequests } from "@/lib/store/aiperf-requests";
import { BatchInserter } from "@/lib/store/batch-insert";
import { AIPERF_REQUEST_COLUMNS } from "@/lib/store/tables/aiperf";
import { tooLargeDocument } from "../analyzer";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";
import { aiperfRecordRow } from "./aiperf-request-row";
import { slowestRequestsPayload } from "./aiperf-slowest";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

/** The tools' result files, and their console output read beside them */
const KINDS = new Set<string>([...BENCH_RESULT_KINDS, "bench-console"]);

/** Most benchmarks of one file whose identities are kept (a split makes at most 64 runs). */
const MAX_IDENTITIES = 64;

/** A figure rounded to 9 significant digits, so a YAML copy of a JSON report reads the same. */
const round = (v: number | null | undefined) => (typeof v === "number" ? Number(v.toPrecision(9)) : null);

/** The figures of a result a console block prints too (lib/formats/bench-console.ts), to match them. */
export function resultFigures(r: BenchResult): Partial<Record<FigureKey, number | null>> {
  const m = r.summary.metrics;
  const completed =
    m.request_count?.avg ??
    (r.records ? r.records.filter((x) => !x.error && x.phase !== "warmup").length : null);
  return {
    completed,
    failed: m.error_request_count?.avg ?? null,
    durationS: r.durationS ?? m.benchmark_duration?.avg ?? null,
    inputTokens: m.total_isl?.avg ?? null,
    outputTokens: m.total_osl?.avg ?? null,
    ttftMeanMs: m.time_to_first_token?.avg ?? null,
  };
}

/**
 * What tells one benchmark from another (`keys`: two files of the same benchmark, a report's
 * JSON and YAML copies, give the same key), which workload it ran (`workloads`: model, dataset,
 * input and output lengths as the tool states them; a sweep never mixes two) and its name
 * (`labels`), for the split of an upload into runs (lib/ingest/split-benchmarks.ts).
 */
export function benchIdentities(results: BenchResult[]): Record<string, unknown> {
  if (results.length > MAX_IDENTITIES) return {};
  const key = (r: BenchResult) =>
    createHash("sha1")
      .update(
        JSON.stringify([
          r.tool,
          r.label,
          r.model,
          r.concurrency,
          r.requestRate,
          r.numPrompts,
          round(r.durationS),
          r.records?.length ?? null,
          round(r.summary.metrics.request_count?.avg),
          round(r.summary.metrics.time_to_first_token?.avg),
          round(r.summary.metrics.request_latency?.avg),
        ]),
      )
      .digest("hex")
      .slice(0, 16);
  const workload = (r: BenchResult) =>
    [
      r.model ? `model ${r.model}` : null,
      ...["dataset", "randomInputLen", "randomOutputLen"].map((k) =>
        r.facts[k] === undefined ? null : `${k} ${String(r.facts[k])}`,
      ),
      // Configured lengths the file states as run facts (InferenceX's isl/osl); a measured mean
      // varies with the load and says nothing of the workload.
      ...(["isl", "osl"] as const).map((k) => {
        const f = r.runFacts?.[k];
        return f && /configured/.test(f.source) ? `${k.toUpperCase()} ${String(f.value)}` : null;
      }),
    ]
      .filter(Boolean)
      .join(", ");
  return {
    keys: results.map(key),
    figures: results.map(resultFigures),
    workloads: results.map(workload),
    labels: results.map((r) => r.label ?? ""),
  };
}

/** The console's printed figures per block, kept in its file row for the split of an upload. */
function consoleMeta(c: BenchConsole): Record<string, unknown> {
  return { consoleFigures: c.blocks.map((b) => consoleFigures(c.tool, b)) };
}

interface Chosen {
  result: BenchResult;
  /** The file whose rows are stored; null for a genai-perf summary alone */
  file: IngestFile | null;
}

const loadsOf = (results: BenchResult[]) =>
  results.map((r) => `${r.concurrency ?? ""}@${r.requestRate ?? ""}`).join(",");

export function benchImportAnalyzer(): Analyzer {
  let chosen: Chosen | null = null;
  let left = 0;
  const leftFiles: string[] = [];
  let genaiExport: { file: IngestFile; doc: ReturnType<typeof readGenaiPerfExport> } | null = null;
  let genaiSummary: Record<string, unknown> | null = null;

  const aggregates: string[] = [];
  /** Console text the tools printed: matched to the run's benchmark in finish */
  const consoles: Array<{ name: string; console: BenchConsole }> = [];
  /** InferenceX's CI job counts (run_stats.json): facts of whatever run they join */
  const runStats: Record<string, string> = {};

  /** Benchmarks already offered, by identity: a second copy (a report's YAML beside its JSON) is read once. */
  const seen = new Map<string, string>();
  const duplicates: string[] = [];

  /** The first benchmark seen becomes the run; the others are counted for the warning. */
  function offer(all: BenchResult[], file: IngestFile | null): void {
    const keys = (benchIdentities(all).keys as string[] | undefined) ?? [];
    const results = all.filter((_, i) => {
      const key = keys[i];
      if (key === undefined || !file) return true;
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, file.name);
        return true;
      }
      duplicates.push(
        first === file.name
          ? `${file.name} holds one benchmark twice: read once`
          : `${file.name} holds the same benchmark as ${first}: read once`,
      );
      return false;
    });
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
    if (text === null) return tooLargeDocument();
    if (file.kind === "bench-console") {
      const parsed = parseBenchConsole(text);
      if (!parsed)
        return {
          records: 0,
          skipped: 1,
          warnings: [{ message: "no benchmark summary found in the console text" }],
        };
      consoles.push({ name: file.name, console: parsed });
      return {
        records: parsed.blocks.length,
        skipped: 0,
        warnings: [],
        // What the split of an upload matches it to a benchmark by (lib/ingest/split-benchmarks.ts).
        meta: { console: parsed.tool, ...consoleMeta(parsed) },
      };
    }
    if (file.kind === "inferencex-result") {
      const doc = file.format === "json" ? parseJsonText(text.trim()) : PARSE_FAILED;
      if (doc !== PARSE_FAILED && isInferencexRunStats(doc)) {
        Object.assign(runStats, inferencexRunStatsFacts(doc));
        return { records: 1, skipped: 0, warnings: [] };
      }
    }
    const yaml = file.format === "yaml";
    const csv = file.kind === "inferencex-result" && file.format === "csv";
    const docs = benchFileDocuments(text, yaml ? "yaml" : csv ? "csv" : "json");
    if (!docs || docs[0] === null)
      return {
        records: 0,
        skipped: 1,
        warnings: [{ message: yaml ? "not a GuideLLM YAML report" : "not valid JSON" }],
      };
    if (file.kind === "genai-perf-summary") {
      const doc = docs[0] as Record<string, unknown>;
      // Several summaries are several runs (split at upload); read whole, the first is the run.
      if (genaiSummary) {
        left += 1;
        leftFiles.push(file.name);
      } else genaiSummary = doc;
      const results = genaiPerfResults(null, doc);
      return {
        records: 1,
        skipped: 0,
        warnings: [],
        meta: { benchmarks: 1, loads: loadsOf(results), ...benchIdentities(results) },
      };
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
        // One run whatever its experiments (they are not split); its summary goes with it.
        meta: {
          experiments: doc.experiments.length,
          toolVersion: doc.version,
          benchmarks: 1,
          genaiExport: true,
        },
      };
    }
    const all = benchResultsOf(file.kind, docs);
    const part = file.part;
    const results = part === undefined ? all : all.slice(part, part + 1);
    const warnings =
      part !== undefined && results.length === 0
        ? [{ message: `holds ${all.length} benchmarks: benchmark ${part + 1} is not in it` }]
        : [];
    // InferenceX's sweep aggregate (agg_bmk.json) read whole is several runs, never one: the
    // upload is split into them, or (beside the aiperf files of one of them) it is only named.
    const aggregate = file.kind === "inferencex-result" && part === undefined && all.length > 1;
    if (aggregate)
      aggregates.push(
        `${file.name} is InferenceX's ${file.format === "csv" ? "sweep summary" : "aggregate"} of ${all.length} runs (${all.map((r) => r.label).join("; ")}): not read as this run; upload it alone to see each as a run`,
      );
    else offer(results, file);
    const n = results.reduce((a, r) => a + (r.records?.length ?? 0), 0);
    return {
      records: n || results.length,
      skipped: 0,
      warnings,
      meta: {
        benchmarks: all.length,
        // Each benchmark's load (concurrency@rate): a sweep varies it, repeated runs do not.
        loads: loadsOf(all),
        ...benchIdentities(all),
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
    const unmatched = (c: { name: string; console: BenchConsole }) =>
      `${c.name} is ${c.console.tool}'s console output, but no result file of this run states its numbers (successful requests, duration, token totals, mean TTFT): not read`;
    if (!pick)
      return {
        ...(aggregates.length + consoles.length > 0
          ? { warnings: [...aggregates, ...consoles.map(unmatched)] }
          : {}),
        ...(Object.keys(runStats).length > 0 ? { info: { ...runStats } } : {}),
      };
    const { result } = pick;
    const log = new RequestLog();
    const errors = new ErrorTally();
    if (result.records && pick.file) {
      const rows = new BatchInserter(ctx.db, "aiperf_requests", AIPERF_REQUEST_COLUMNS);
      let line = 0;
      for (const r of result.records) {
        line++;
        const i = log.length;
        // GuideLLM's requests outside its measurement window are listed but not measured.
        const warmup = r.phase === "warmup";
        log.add(
          r,
          (r.error ? FLAG_ERROR : 0) | (warmup ? FLAG_WARMUP : 0) | (r.cancelled ? FLAG_CANCELLED : 0),
        );
        const startMs = log.value("startMs", i);
        const endMs = log.value("endMs", i);
        if (r.error && !warmup) errors.add(r.error.type, r.error.code, r.error.message, startMs);
        const row = aiperfRecordRow(ctx.runId, pick.file.id, line, r, startMs, endMs);
        if (rows.push(row)) await rows.flush();
      }
      await rows.flush();
    }
    const originMs = runOriginMs(log);
    if (log.length > 0 && originMs !== 0) await reanchorRequests(ctx.db, ctx.runId, originMs);
    const out = benchRunResult(result, log, errors, originMs, pick.file?.name ?? result.tool);
    for (const d of new Set(duplicates)) out.warnings.push(d);
    const figures = resultFigures(result);
    for (const c of consoles) {
      const block = c.console.blocks.find((b) => figuresMatch(consoleFigures(c.console.tool, b), figures));
      if (!block) {
        out.warnings.push(unmatched(c));
        continue;
      }
      Object.assign(out.info, consoleFacts(c.console, block, figures.failed ?? null));
      out.info.consoleOutput = c.name;
    }
    for (const w of aggregates) out.warnings.push(w);
    if (left > 0)
      out.warnings.push(
        `this upload holds ${left + 1} benchmarks (${[pick.file?.name, ...leftFiles].filter(Boolean).join(", ")}); only the first${result.label ? ` (${result.label})` : ""} was imported: upload each benchmark on its own to see and compare the others`,
      );
    if (log.length > 0)
      out.charts[AIPERF_CHARTS.slowest.key] = await slowestRequestsPayload(ctx.db, ctx.runId, log);
    return {
      requests: out.requests,
      info: { ...out.info, ...runStats },
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
