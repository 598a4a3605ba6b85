/**
 * aiperf exports (reference/aiperf.md §2; design.md §5.1): per-request records, the run summary
 * (JSON, CSV, timeslices, multi-run aggregates), GPU telemetry and inputs.json.
 *
 * Multi-run folders (`profile_runs/run_NNNN/…`) become ONE run whose statistics pool every
 * trial's profiling records, because users upload the folder to see the benchmark as a whole;
 * each trial's records are still checked against that trial's own summary, and the trial list is
 * a chart payload the latency view explains.
 */
import path from "node:path";
import type { RequestsBlock, SummaryBlocks } from "@/lib/api/schemas";
import { parseGpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import { readJsonLinesWithText, readWholeText } from "@/lib/formats/aiperf-read";
import { parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { parseSummaryJson, type AiperfSummary } from "@/lib/formats/aiperf-summary";
import { parseSummaryCsv } from "@/lib/formats/aiperf-summary-csv";
import {
  parseTimeslicesCsv,
  parseTimeslicesJson,
  type TimesliceExport,
} from "@/lib/formats/aiperf-timeslices";
import { PARSE_FAILED, parseJsonText, WarningLog } from "@/lib/formats/json-lines";
import { compareWithSummary, disagreementWarning } from "@/lib/metrics/aiperf-agreement";
import { AIPERF_CHART_KEYS, LATENCY_METRICS } from "@/lib/metrics/aiperf-chart-schemas";
import { computeDistribution } from "@/lib/metrics/aiperf-distribution";
import { overTimePayload, timelinePayload, ttftVsInputPayload } from "@/lib/metrics/aiperf-timeline";
import { timeslicesPayload } from "@/lib/metrics/aiperf-timeslices";
import { GpuTelemetry } from "@/lib/metrics/gpu-telemetry";
import { computeRequestsBlock } from "@/lib/metrics/requests";
import { ErrorTally } from "@/lib/metrics/requests-errors";
import { requestsFromSummary } from "@/lib/metrics/requests-from-summary";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP, pick, RequestLog } from "@/lib/metrics/requests-log";
import { BatchInserter } from "@/lib/store/batch-insert";
import type { AiperfRequestsTable } from "@/lib/store/tables/aiperf";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";

const KINDS = new Set(["aiperf-records", "aiperf-summary", "aiperf-gpu-telemetry", "aiperf-inputs"]);

interface SummaryFile {
  name: string;
  dir: string;
  format: "json" | "csv";
  summary: AiperfSummary;
}

/** The folder a file sits in within the upload: records and summary of one trial share it. */
const dirOf = (name: string) => path.posix.dirname(name.replace(/\\/g, "/"));

export function aiperfAnalyzer(): Analyzer {
  // One shared clock: every record and GPU sample is on the same ms axis (see RequestLog.relMs).
  const log = new RequestLog();
  /** Record index range [from, to) per folder, for per-trial agreement */
  const recordDirs: Array<{ dir: string; from: number; to: number }> = [];
  const errors = new ErrorTally();
  const gpu = new GpuTelemetry();
  const summaries: SummaryFile[] = [];
  const notes: string[] = [];
  const timeslices: TimesliceExport[] = [];
  let inserter: BatchInserter<"aiperf_requests"> | null = null;

  async function ingestRecords(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const warnings = new WarningLog();
    const result = { skipped: 0 };
    inserter ??= new BatchInserter(ctx.db, "aiperf_requests", 15);
    const from = log.length;
    let records = 0;
    let warmup = 0;
    for await (const line of readJsonLinesWithText(
      await file.open(),
      warnings,
      result,
      ctx.limits.maxLineBytes,
    )) {
      const r = parseAiperfRecord(line.value, line.text);
      if (typeof r === "string") {
        result.skipped++;
        warnings.add(`skipped line: ${r}`, line.lineNo);
        continue;
      }
      records++;
      const flags =
        (r.phase === "warmup" ? FLAG_WARMUP : 0) |
        (r.error ? FLAG_ERROR : 0) |
        (r.cancelled ? FLAG_CANCELLED : 0);
      if (r.phase === "warmup") warmup++;
      const i = log.length;
      log.push({ ...r, flags });
      const startMs = log.cols.startMs[i];
      if (r.error && r.phase === "profiling")
        errors.add(r.error.type, r.error.code, r.error.message, startMs);
      const row: AiperfRequestsTable = {
        run_id: ctx.runId,
        file_id: file.id,
        line: line.lineNo,
        request_id: r.requestId,
        phase: r.phase,
        ok: r.error ? 0 : 1,
        cancelled: r.cancelled ? 1 : 0,
        error_type: r.error?.type ?? null,
        start_ms: Number.isFinite(startMs) ? startMs : null,
        end_ms: Number.isFinite(log.cols.endMs[i]) ? log.cols.endMs[i] : null,
        ttft_ms: r.ttftMs,
        e2e_ms: r.e2eMs,
        itl_ms: r.itlMs,
        input_tokens: r.inputTokens,
        output_tokens: r.outputTokens,
      };
      await inserter.add(row);
    }
    await inserter.flush();
    recordDirs.push({ dir: dirOf(file.name), from, to: log.length });
    return { records, skipped: result.skipped, warnings: warnings.toList(), meta: { warmupRecords: warmup } };
  }

  async function ingestGpu(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const warnings = new WarningLog();
    const result = { skipped: 0 };
    let records = 0;
    for await (const line of readJsonLinesWithText(
      await file.open(),
      warnings,
      result,
      ctx.limits.maxLineBytes,
    )) {
      const s = parseGpuSample(line.value, line.text);
      if (typeof s === "string") {
        result.skipped++;
        warnings.add(`skipped line: ${s}`, line.lineNo);
        continue;
      }
      records++;
      gpu.add(s, log.relMs(s.timestampNs));
    }
    return { records, skipped: result.skipped, warnings: warnings.toList(), meta: { gpus: gpu.size } };
  }

  async function ingestDocument(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const text = await readWholeText(await file.open(), ctx.limits.maxJsonDocumentBytes);
    if (text === null) {
      return {
        records: 0,
        skipped: 1,
        warnings: [{ message: "larger than the JSON document limit; stored but not read" }],
      };
    }
    if (file.format === "csv") {
      const summary = parseSummaryCsv(text);
      summaries.push({ name: file.name, dir: dirOf(file.name), format: "csv", summary });
      return { records: Object.keys(summary.metrics).length, skipped: 0, warnings: [] };
    }
    if (file.format === "timeslices-csv") {
      const t = parseTimeslicesCsv(text);
      timeslices.push(t);
      return { records: t.slices.length, skipped: 0, warnings: [], meta: { timeslices: t.slices.length } };
    }
    const doc = parseJsonText(text.trim());
    if (doc === PARSE_FAILED || typeof doc !== "object" || doc === null) {
      return { records: 0, skipped: 1, warnings: [{ message: "not valid JSON" }] };
    }
    const d = doc as Record<string, unknown>;
    if (file.kind === "aiperf-inputs") {
      const n = Array.isArray(d.data) ? d.data.length : 0;
      return { records: n, skipped: 0, warnings: [], meta: { sessions: n } };
    }
    if (file.format === "timeslices-json") {
      const t = parseTimeslicesJson(doc);
      timeslices.unshift(t);
      return { records: t.slices.length, skipped: 0, warnings: [], meta: { timeslices: t.slices.length } };
    }
    if (file.format === "aggregate-json") {
      notes.push(
        `${file.name}: aiperf multi-run aggregate kept as uploaded; statistics here pool the trials' records`,
      );
      return { records: 1, skipped: 0, warnings: [], meta: { aggregate: true } };
    }
    const summary = parseSummaryJson(doc);
    if (!summary) return { records: 0, skipped: 1, warnings: [{ message: "not an aiperf summary object" }] };
    summaries.push({ name: file.name, dir: dirOf(file.name), format: "json", summary });
    return {
      records: Object.keys(summary.metrics).length,
      skipped: 0,
      warnings: [],
      meta: { schemaVersion: summary.schemaVersion, aiperfVersion: summary.aiperfVersion },
    };
  }

  return {
    name: "aiperf",
    tables: ["aiperf_requests"],
    accepts: (file) => KINDS.has(file.kind),
    async ingestFile(file, ctx) {
      if (file.kind === "aiperf-records") return ingestRecords(file, ctx);
      if (file.kind === "aiperf-gpu-telemetry") return ingestGpu(file, ctx);
      return ingestDocument(file, ctx);
    },
    async finish(ctx) {
      return finishRun(ctx, { log, recordDirs, errors, gpu, summaries, notes, timeslices });
    },
  };
}

interface RunState {
  log: RequestLog;
  recordDirs: Array<{ dir: string; from: number; to: number }>;
  errors: ErrorTally;
  gpu: GpuTelemetry;
  summaries: SummaryFile[];
  notes: string[];
  timeslices: TimesliceExport[];
}

/** JSON before CSV: the CSV rounds to 2 decimals and has no configuration. */
function primarySummary(summaries: SummaryFile[]): SummaryFile | undefined {
  return summaries.find((s) => s.format === "json") ?? summaries[0];
}

async function finishRun(ctx: IngestContext, s: RunState): Promise<AnalyzerResult> {
  const { log } = s;
  const warnings = [...s.notes];
  const charts: Record<string, unknown> = {};
  if (log.length === 0 && s.summaries.length === 0 && s.gpu.size === 0 && s.timeslices.length === 0)
    return {};

  // t = 0 is the run's first request (warmup included); without records, the first GPU sample.
  let originMs = Infinity;
  for (let i = 0; i < log.length; i++) if (log.cols.startMs[i] < originMs) originMs = log.cols.startMs[i];
  if (!Number.isFinite(originMs)) originMs = 0;
  if (log.length > 0 && originMs !== 0) {
    await ctx.db
      .updateTable("aiperf_requests")
      .set((eb) => ({ start_ms: eb("start_ms", "-", originMs), end_ms: eb("end_ms", "-", originMs) }))
      .where("run_id", "=", ctx.runId)
      .execute();
  }

  let requests: RequestsBlock | null = null;
  if (log.length > 0) {
    requests = computeRequestsBlock(log);
    const ok = log.measuredIndices();
    charts[AIPERF_CHART_KEYS.distribution] = {
      metrics: Object.fromEntries(
        LATENCY_METRICS.map((m) => [m, computeDistribution(pick(log.column(m), ok))]),
      ),
    };
    charts[AIPERF_CHART_KEYS.overTime] = overTimePayload(log, originMs);
    charts[AIPERF_CHART_KEYS.ttftVsInput] = ttftVsInputPayload(log);
    charts[AIPERF_CHART_KEYS.timeline] = timelinePayload(log, originMs);
  }
  const primary = primarySummary(s.summaries);
  if (!requests && primary) requests = requestsFromSummary(primary.summary);

  if (log.length > 0 || s.summaries.some((x) => x.summary.errorSummary.length > 0)) {
    const groups = s.errors.list(originMs);
    charts[AIPERF_CHART_KEYS.errors] = {
      total: groups.reduce((a, g) => a + g.count, 0),
      groups,
      summary: primary?.summary.errorSummary ?? [],
    };
  }

  const agreement = agreementFor(s, warnings);
  if (agreement) charts[AIPERF_CHART_KEYS.agreement] = agreement;

  // JSON (unshifted first) before CSV: full precision; aiperf writes one export of each per run.
  if (s.timeslices.length > 0) charts[AIPERF_CHART_KEYS.timeslices] = timeslicesPayload(s.timeslices[0]);

  const trials = [...new Set(s.recordDirs.map((d) => d.dir))];
  if (trials.length > 1) {
    charts[AIPERF_CHART_KEYS.trials] = {
      trials: trials.map((dir) => ({
        name: dir,
        records: s.recordDirs.filter((d) => d.dir === dir).reduce((a, d) => a + d.to - d.from, 0),
      })),
    };
  }

  if (s.gpu.size > 0) {
    const window = profilingWindow(log);
    // Summed exactly, not mean × count: the product drifts by float rounding.
    let outputTotal = 0;
    for (const v of pick(log.column("outputTokens"), log.measuredIndices()))
      if (Number.isFinite(v)) outputTotal += v;
    const payload = s.gpu.payload(originMs, window, log.length > 0 ? outputTotal : null);
    charts[AIPERF_CHART_KEYS.gpu] = payload;
    if (payload.duplicateGpus > 0)
      warnings.push(
        `GPU telemetry reports ${payload.duplicateGpus} GPU(s) through more than one exporter; energy counts each GPU once`,
      );
  }

  return {
    requests,
    info: runInfo(primary?.summary, trials.length),
    charts,
    warnings,
    requestCount: requests?.count ?? null,
  };
}

function profilingWindow(log: RequestLog): [number, number] | null {
  let a = Infinity;
  let b = -Infinity;
  for (let i = 0; i < log.length; i++) {
    if (log.flags[i] & FLAG_WARMUP) continue;
    a = Math.min(a, log.cols.startMs[i]);
    b = Math.max(b, log.cols.endMs[i]);
  }
  return Number.isFinite(a) && Number.isFinite(b) ? [a, b] : null;
}

/** Compares each folder's records with that folder's summary (one per trial in multi-run uploads). */
function agreementFor(s: RunState, warnings: string[]) {
  const rows = [];
  const sources: string[] = [];
  const dirs = new Set(s.summaries.map((x) => x.dir));
  const recordDirs = new Set(s.recordDirs.map((d) => d.dir));
  // One summary and one records file in different folders (hand-assembled upload): still a pair.
  const loosePair = dirs.size === 1 && recordDirs.size === 1 && ![...dirs].some((d) => recordDirs.has(d));
  for (const dir of dirs) {
    const summary = primarySummary(s.summaries.filter((x) => x.dir === dir));
    const ranges = loosePair ? s.recordDirs : s.recordDirs.filter((d) => d.dir === dir);
    if (!summary || ranges.length === 0) continue;
    const sub = subLog(s.log, ranges);
    const compared = compareWithSummary(computeRequestsBlock(sub), summary.summary);
    if (compared.length === 0) continue;
    sources.push(summary.name);
    rows.push(...compared.map((r) => ({ ...r, source: summary.name })));
    const w = disagreementWarning(compared, summary.name);
    if (w) warnings.push(w);
  }
  if (sources.length === 0) return null;
  return { sources, rows, disagreements: rows.filter((r) => !r.agrees).length };
}

function subLog(log: RequestLog, ranges: Array<{ from: number; to: number }>): RequestLog {
  if (ranges.length === 1 && ranges[0].from === 0 && ranges[0].to === log.length) return log;
  const out = new RequestLog();
  out.baseNs = log.baseNs;
  for (const { from, to } of ranges) for (let i = from; i < to; i++) out.copyFrom(log, i);
  return out;
}

function runInfo(summary: AiperfSummary | undefined, trials: number): SummaryBlocks["info"] {
  const info: SummaryBlocks["info"] = {};
  const set = (k: string, v: string | number | boolean | null | undefined) => {
    if (v !== null && v !== undefined) info[k] = v;
  };
  if (summary) {
    const c = summary.config;
    set("model", c.model);
    set("endpoint", c.endpointUrl);
    set("endpointType", c.endpointType);
    set("streaming", c.streaming);
    set("concurrency", c.concurrency);
    set("requestRate", c.requestRate);
    set("requestCount", c.requestCount);
    set("aiperfVersion", summary.aiperfVersion);
    set("schemaVersion", summary.schemaVersion);
  }
  if (trials > 1) set("trials", trials);
  return info;
}
