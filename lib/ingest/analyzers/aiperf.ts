/**
 * aiperf exports (docs/formats.md §aiperf; docs/metrics.md §Requests): per-request records, the run summary
 * (JSON, CSV, timeslices, multi-run aggregates), GPU telemetry and inputs.json.
 *
 * Multi-run folders (`profile_runs/run_NNNN/…`) become ONE run whose statistics pool every
 * trial's profiling records, because users upload the folder to see the benchmark as a whole;
 * each trial's records are still checked against that trial's own summary, and the trial list is
 * a chart payload the latency view explains.
 */
import path from "node:path";
import { parseGpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import { readWholeText } from "@/lib/formats/aiperf-read";
import { parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { parseSummaryCsv } from "@/lib/formats/aiperf-summary-csv";
import {
  parseTimeslicesCsv,
  readTimeslicesJson,
  type TimesliceExport,
} from "@/lib/formats/aiperf-timeslices";
import { eachRecordLine, PARSE_FAILED, parseJsonText } from "@/lib/formats/json-lines";
import { JsonSyntaxError } from "@/lib/formats/json-tokens";
import {
  aiperfRunResult,
  runOriginMs,
  type AiperfRunState,
  type SummaryFile,
} from "@/lib/metrics/aiperf-run-result";
import { AIPERF_SLOWEST_CHART } from "@/lib/api/aiperf-requests";
import { slowestRequestsPayload } from "./aiperf-slowest";
import { TURNS_CHART } from "@/lib/api/turns";
import { PossibleReuse, TurnColumns } from "@/lib/metrics/conversation-turns";
import { turnsPayload } from "@/lib/metrics/turn-stats";
import { GpuTelemetry } from "@/lib/metrics/gpu-telemetry";
import { ProfilingClock } from "@/lib/metrics/profiling-window";
import { logRequestValues } from "@/lib/metrics/regression/request-values";
import { ErrorTally } from "@/lib/metrics/requests-errors";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP, RequestLog } from "@/lib/metrics/requests-log";
import { reanchorRequests } from "@/lib/store/aiperf-requests";
import { BatchInserter } from "@/lib/store/batch-insert";
import { AIPERF_REQUEST_COLUMNS, type AiperfRequestsTable } from "@/lib/store/tables/aiperf";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";

const KINDS = new Set(["aiperf-records", "aiperf-summary", "aiperf-gpu-telemetry", "aiperf-inputs"]);

/** Integer columns take whole token counts only: a fractional count from a broken writer reads as absent. */
const integerOrNull = (v: number | null) =>
  v !== null && Number.isInteger(v) && Math.abs(v) <= 0x7fffffff ? v : null;

/** The folder a file sits in within the upload: records and summary of one trial share it. */
const dirOf = (name: string) => path.posix.dirname(name.replace(/\\/g, "/"));

/** `clock` learns the profiling phase from the records and the summary (read by other analyzers). */
export function aiperfAnalyzer(clock = new ProfilingClock()): Analyzer {
  // One shared clock: every record and GPU sample is on the same ms axis (see RequestLog.relMs).
  const log = new RequestLog();
  /** Turn, cached and possibly reusable prompt tokens of each logged request, indexed like `log` */
  const turns = new TurnColumns();
  const reuse = new PossibleReuse();
  /** Record index range [from, to) per folder, for per-trial agreement */
  const recordDirs: Array<{ dir: string; from: number; to: number }> = [];
  const errors = new ErrorTally();
  const gpu = new GpuTelemetry();
  const summaries: SummaryFile[] = [];
  const notes: string[] = [];
  const timeslices: TimesliceExport[] = [];
  let inserter: BatchInserter<"aiperf_requests"> | null = null;

  async function ingestRecords(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const rows = (inserter ??= new BatchInserter(ctx.db, "aiperf_requests", AIPERF_REQUEST_COLUMNS));
    const from = log.length;
    reuse.reset();
    let records = 0;
    let warmup = 0;
    const options = { maxLineBytes: ctx.limits.maxLineBytes };
    const read = await eachRecordLine(await file.open(), options, parseAiperfRecord, (r, lineNo) => {
      records++;
      const flags =
        (r.phase === "warmup" ? FLAG_WARMUP : 0) |
        (r.error ? FLAG_ERROR : 0) |
        (r.cancelled ? FLAG_CANCELLED : 0);
      if (r.phase === "warmup") warmup++;
      else if (!r.cancelled)
        clock.noteRequest(
          r.startNs === null ? null : Number(r.startNs),
          r.endNs === null ? null : Number(r.endNs),
        );
      const i = log.length;
      log.add(r, flags);
      const conversationId = r.conversationId ?? null;
      const turnIndex = r.turnIndex ?? null;
      const cachedTokens = r.cachedTokens ?? null;
      const possible = reuse.next(
        conversationId,
        turnIndex,
        r.inputTokens,
        r.outputTokens,
        r.error !== null,
        r.phase === "profiling",
      );
      turns.add(turnIndex, cachedTokens, possible);
      const startMs = log.cols.startMs[i];
      const endMs = log.cols.endMs[i];
      if (r.error && r.phase === "profiling")
        errors.add(r.error.type, r.error.code, r.error.message, startMs);
      const row: AiperfRequestsTable = {
        run_id: ctx.runId,
        file_id: file.id,
        line: lineNo,
        request_id: r.requestId,
        phase: r.phase,
        ok: r.error ? 0 : 1,
        cancelled: r.cancelled ? 1 : 0,
        error_type: r.error?.type ?? null,
        start_ms: Number.isFinite(startMs) ? startMs : null,
        end_ms: Number.isFinite(endMs) ? endMs : null,
        ttft_ms: r.ttftMs,
        e2e_ms: r.e2eMs,
        itl_ms: r.itlMs,
        input_tokens: r.inputTokens,
        output_tokens: r.outputTokens,
        conversation_id: conversationId,
        turn_index: turnIndex,
        cached_tokens: integerOrNull(cachedTokens),
        possible_reuse_tokens: integerOrNull(possible),
        worker_id: r.workerId ?? null,
      };
      if (rows.push(row)) return rows.flush();
    });
    await rows.flush();
    recordDirs.push({ dir: dirOf(file.name), from, to: log.length });
    return {
      records,
      skipped: read.skipped,
      warnings: read.warnings.toList(),
      meta: { warmupRecords: warmup },
    };
  }

  async function ingestGpu(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    let records = 0;
    const options = { maxLineBytes: ctx.limits.maxLineBytes };
    const read = await eachRecordLine(await file.open(), options, parseGpuSample, (s) => {
      records++;
      gpu.add(s, log.relMs(s.timestampNs));
    });
    return { records, skipped: read.skipped, warnings: read.warnings.toList(), meta: { gpus: gpu.size } };
  }

  /** Timeslices grow with the run: read as they stream, no document limit (docs/formats.md §Timeslices). */
  async function ingestTimeslicesJson(file: IngestFile): Promise<FileReport> {
    let t: TimesliceExport | null;
    try {
      t = await readTimeslicesJson(await file.open());
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      return { records: 0, skipped: 1, warnings: [{ message: `not valid JSON: ${err.message}` }] };
    }
    if (t === null) return { records: 0, skipped: 1, warnings: [{ message: "not valid JSON" }] };
    timeslices.unshift(t);
    return { records: t.slices.length, skipped: 0, warnings: [], meta: { timeslices: t.slices.length } };
  }

  async function ingestDocument(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    if (file.format === "timeslices-json") return ingestTimeslicesJson(file);
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
    if (file.format === "aggregate-json") {
      notes.push(
        `${file.name}: aiperf multi-run aggregate kept as uploaded; statistics here pool the trials' records`,
      );
      return { records: 1, skipped: 0, warnings: [], meta: { aggregate: true } };
    }
    const summary = parseSummaryJson(doc);
    if (summary) clock.noteSummary(d.start_time, d.end_time, path.posix.basename(file.name));
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
      const result = finishRun({ log, recordDirs, errors, gpu, summaries, notes, timeslices });
      // Only the drill-down reads the rows: re-anchoring them and the slowest lists read back
      // from them come after the summary (lib/ingest/drilldown.ts).
      if (log.length > 0) result.drilldown = () => requestDrilldown(ctx, log);
      const theoretical = result.info?.theoreticalCacheHitRate;
      const perTurn = turnsPayload(
        log,
        turns,
        reuse.conversations,
        typeof theoretical === "number" ? theoretical : null,
      );
      if (perTurn) {
        result.charts = { ...result.charts, [TURNS_CHART]: perTurn };
        // The Turns view's has-data rule (lib/api/run-views.ts) reads these.
        result.info = {
          ...result.info,
          conversations: perTurn.conversations,
          maxTurnIndex: perTurn.rows[perTurn.rows.length - 1].turn,
        };
      }
      return log.length > 0 ? { ...result, requestValues: logRequestValues(log) } : result;
    },
  };
}

function finishRun(s: AiperfRunState): AnalyzerResult {
  return aiperfRunResult(s, runOriginMs(s.log));
}

/** The request rows re-anchored, then the slowest lists, which carry the re-anchored starts. */
async function requestDrilldown(ctx: IngestContext, log: RequestLog): Promise<Record<string, unknown>> {
  const originMs = runOriginMs(log);
  // Rows were written relative to the first timestamp seen; re-anchor them to the first request.
  if (originMs !== 0) await reanchorRequests(ctx.db, ctx.runId, originMs);
  return { [AIPERF_SLOWEST_CHART]: await slowestRequestsPayload(ctx.db, ctx.runId, log) };
}
