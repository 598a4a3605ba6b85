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
import { setImmediate as nextTurn } from "node:timers/promises";
import { parseGpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import { parseAiperfLog, type AiperfLog } from "@/lib/formats/aiperf-log";
import { readWholeText } from "@/lib/formats/aiperf-read";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { parseSummaryCsv } from "@/lib/formats/aiperf-summary-csv";
import {
  parseTimeslicesCsv,
  readTimeslicesJson,
  type TimesliceExport,
} from "@/lib/formats/aiperf-timeslices";
import { eachRecordLine, PARSE_FAILED, parseJsonText } from "@/lib/formats/json-lines";
import { readJsonObjectMembers } from "@/lib/formats/json-object-stream";
import { JsonSyntaxError } from "@/lib/formats/json-tokens";
import {
  aiperfRunResultInSteps,
  runOriginMs,
  type AiperfRunState,
  type SummaryFile,
} from "@/lib/metrics/aiperf-run-result";
import { inTurns } from "../in-turns";
import { ingestRecordFileNative } from "./aiperf-native-ingest";
import { slowestRequestsPayload } from "./aiperf-slowest";
import { AgentSessionColumns, agentSessionsFromRecords } from "@/lib/metrics/agent-sessions";
import { QueueWaits } from "@/lib/metrics/aiperf-queue-wait";
import { HeldConcurrency } from "@/lib/metrics/aiperf-held-concurrency";
import { ConversationIndex, PossibleReuse, TurnColumns } from "@/lib/metrics/conversation-turns";
import { readInputsSessions } from "@/lib/formats/aiperf-inputs";
import { applyInputsReuse, InputsReuse, inputsTurnLines } from "@/lib/metrics/inputs-reuse";
import { ReuseFeed, type ReuseRequests } from "@/lib/metrics/reuse-intervals";
import { turnsPayload } from "@/lib/metrics/turn-stats";
import { GpuTelemetry } from "@/lib/metrics/gpu-telemetry";
import { ProfilingClock } from "@/lib/metrics/profiling-window";
import { logRequestValues } from "@/lib/metrics/regression/request-values";
import { ErrorTally } from "@/lib/metrics/requests-errors";
import { FLAG_ERROR, FLAG_WARMUP, RequestLog } from "@/lib/metrics/requests-log";
import { storeInputsTurns, type InputsTurnLine } from "@/lib/store/aiperf-inputs-reuse";
import { AiperfRequestStage } from "@/lib/store/columnar/aiperf-request-file";
import { tooLargeDocument } from "../analyzer";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { agentSessionCharts, packedPage } from "./agent-session-charts";

const KINDS = new Set([
  "aiperf-records",
  "aiperf-summary",
  "aiperf-gpu-telemetry",
  "aiperf-inputs",
  "aiperf-log",
]);

/** outputs.json's two lists (schema 1.1): profiling responses and warm-up responses */
const OUTPUT_LISTS = new Set(["data", "warmup"]);

/** The folder a file sits in within the upload: records and summary of one trial share it. */
const dirOf = (name: string) => path.posix.dirname(name.replace(/\\/g, "/"));

/**
 * `clock` learns the profiling phase from the records and the summary, `feed` the requests' possible
 * reuse (both read by the server-metrics analyzer).
 */
export function aiperfAnalyzer(clock = new ProfilingClock(), feed = new ReuseFeed()): Analyzer {
  // One shared clock: every record and GPU sample is on the same ms axis (see RequestLog.relMs).
  const log = new RequestLog();
  /** Turn, cached and possibly reusable prompt tokens of each logged request, indexed like `log` */
  const turns = new TurnColumns();
  const reuse = new PossibleReuse();
  const conversations = new ConversationIndex();
  /** Each logged request's agent session, for the session tree */
  const sessions = new AgentSessionColumns();
  /** Each profiling record's client-side queue wait (docs/metrics.md §Comparable runs) */
  const queueWaits = new QueueWaits();
  /** Each profiling record's span, per trial folder: the concurrency the run held */
  const concurrency = new HeldConcurrency();
  const recordFiles: string[] = [];
  const inputs = new InputsReuse();
  /** Record index range [from, to) per folder, for per-trial agreement */
  const recordDirs: Array<{ dir: string; from: number; to: number }> = [];
  const errors = new ErrorTally();
  const gpu = new GpuTelemetry();
  const summaries: SummaryFile[] = [];
  const notes: string[] = [];
  const timeslices: TimesliceExport[] = [];
  const logs: AiperfLog[] = [];
  const outputs: Array<{ profiling: number; warmup: number | null }> = [];
  /** The records' rows, staged until every file is read, then written as the run's Parquet file */
  let stage: AiperfRequestStage | null = null;

  async function ingestRecords(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const rows = (stage ??= new AiperfRequestStage(ctx.runId, ctx.db));
    await rows.open();
    const from = log.length;
    reuse.reset();
    concurrency.trial(dirOf(file.name));
    const report = await ingestRecordFileNative(
      file,
      ctx,
      { log, turns, reuse, conversations, errors, clock, rows, sessions, queueWaits, concurrency },
      rows,
    );
    recordDirs.push({ dir: dirOf(file.name), from, to: log.length });
    recordFiles.push(file.name);
    return report;
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

  /** inputs.json streams: it inlines images and audio and can dwarf the records. */
  async function ingestInputs(file: IngestFile): Promise<FileReport> {
    try {
      const read = await readInputsSessions(await file.open(), (s) => inputs.add(s));
      return {
        records: read.sessions,
        skipped: read.skipped,
        warnings: [],
        meta: { sessions: read.sessions },
      };
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      return { records: 0, skipped: 1, warnings: [{ message: `not valid JSON: ${err.message}` }] };
    }
  }

  /**
   * aiperf.log gives the warm-up phase's size; benchmark_command.txt and the workload
   * distribution summary are aiperf's own notes of the run, recognised and kept as uploaded.
   */
  async function ingestText(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    if (file.format === "outputs") return ingestOutputs(file);
    if (file.format !== "text") return { records: 1, skipped: 0, warnings: [], meta: { note: file.format } };
    const text = await readWholeText(await file.open(), ctx.limits.maxJsonDocumentBytes);
    if (text === null)
      return {
        records: 0,
        skipped: 1,
        warnings: [{ message: "larger than the document limit; stored but not read" }],
      };
    const log = parseAiperfLog(text);
    logs.push(log);
    return {
      records: Object.keys(log.phases).length,
      skipped: 0,
      warnings: [],
      meta: { phases: Object.keys(log.phases).join(", ") },
    };
  }

  /** outputs.json holds every response's text: streamed, only its two lists counted. */
  async function ingestOutputs(file: IngestFile): Promise<FileReport> {
    const counts: Record<string, number> = {};
    try {
      await readJsonObjectMembers(await file.open(), OUTPUT_LISTS, {
        member: () => {},
        arrayStart: (key) => {
          counts[key] = 0;
        },
        element: (key) => {
          counts[key] = (counts[key] ?? 0) + 1;
        },
      });
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      return { records: 0, skipped: 1, warnings: [{ message: `not valid JSON: ${err.message}` }] };
    }
    outputs.push({ profiling: counts.data ?? 0, warmup: counts.warmup ?? null });
    return {
      records: counts.data ?? 0,
      skipped: 0,
      warnings: [],
      meta: { responses: counts.data ?? 0, warmupResponses: counts.warmup ?? null },
    };
  }

  async function ingestDocument(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    if (file.format === "timeslices-json") return ingestTimeslicesJson(file);
    const text = await readWholeText(await file.open(), ctx.limits.maxJsonDocumentBytes);
    if (text === null) return tooLargeDocument();
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
    // aiperf_requests: rows of runs stored before the request file, replaced by it on re-ingest.
    tables: ["aiperf_requests", "aiperf_inputs_turns"],
    accepts: (file) => KINDS.has(file.kind),
    async ingestFile(file, ctx) {
      if (file.kind === "aiperf-records") return ingestRecords(file, ctx);
      if (file.kind === "aiperf-gpu-telemetry") return ingestGpu(file, ctx);
      if (file.kind === "aiperf-inputs") return ingestInputs(file);
      if (file.kind === "aiperf-log") return ingestText(file, ctx);
      return ingestDocument(file, ctx);
    },
    async finish(ctx) {
      // Every records file is read: the open conversations are forgotten, the log's columns are
      // made whole (exact arrays) before the summary's copies are made, the turn and session
      // columns only once they are read, and each structure is let go as soon as nothing below
      // reads it (docs/performance.md §Ingest memory of an aiperf upload).
      reuse.release();
      if (!turns.multiTurn) {
        // A single-turn run has no turns chart, reuse stack or sessions: nothing below reads them.
        turns.release();
        sessions.release();
        conversations.release();
      }
      await inTurns(log.compactInSteps());
      const result = await finishRun({
        log,
        recordDirs,
        errors,
        gpu,
        summaries,
        notes,
        timeslices,
        logs,
        outputs,
        queueWaits,
        concurrency,
      });
      queueWaits.release();
      await nextTurn();
      // Only the drill-down reads the request file: the slowest lists are read from it after
      // the summary (lib/ingest/drilldown.ts).
      if (log.length > 0) result.drilldown = requestDrilldown(ctx, log);
      const theoretical = result.info?.theoreticalCacheHitRate;
      const applied = turns.multiTurn ? applyInputsReuse(log, turns, conversations, inputs) : null;
      const source = applied && applied.replaced > 0 ? "inputs" : "records";
      // The rows get the same estimate the charts use, now that every file is read.
      const lines =
        applied && applied.replaced > 0
          ? [...inputsTurnLines(conversations, inputs, applied.tokensPerChar)]
          : [];
      const perTurn = turnsPayload(
        log,
        turns,
        reuse.conversations,
        typeof theoretical === "number" ? theoretical : null,
        source,
      );
      if (perTurn && applied && source === "inputs") {
        perTurn.inputsRequests = applied.profiling;
        perTurn.inputsNonText = applied.nonText;
      }
      await nextTurn();
      if (perTurn) feed.requests = reuseRequests(log, turns, source);
      feed.theoreticalBlocks = typeof theoretical === "number" ? theoretical : null;
      if (perTurn) {
        result.charts = { ...result.charts, [AIPERF_CHARTS.turns.key]: perTurn };
        // The Turns view's has-data rule (lib/api/run-views.ts) reads these.
        result.info = {
          ...result.info,
          conversations: perTurn.conversations,
          // The records' own maximum: the chart folds the long tail into its last bar.
          maxTurnIndex: maxTurnIndex(log, turns) ?? perTurn.rows[perTurn.rows.length - 1].turn,
        };
      }
      await nextTurn();
      // Agent sessions (docs/metrics.md §Agent sessions); a Dynamo trace's, stored after, replaces them.
      const agents = perTurn
        ? agentSessionsFromRecords(log, turns, sessions, conversations, recordFiles, packedPage)
        : null;
      if (agents) {
        result.charts = { ...result.charts, ...agentSessionCharts(agents) };
        result.info = { ...result.info, agentSessions: agents.count };
      }
      // Nothing below reads the turns, the sessions or the conversation ids: garbage before the
      // request file is written.
      turns.release();
      sessions.release();
      conversations.release();
      if (lines.length > 0) await storeInputsTurns(ctx.db, ctx.runId, lines);
      const inFile = await writeRequestFile(ctx, stage, log, lines);
      await nextTurn();
      return log.length > 0
        ? { ...result, requestValues: logRequestValues(log), requestValuesInFile: inFile }
        : result;
    },
  };
}

/** The run's summary, charts and facts, computed in turns of the event loop (`aiperfRunResultInSteps`). */
function finishRun(s: AiperfRunState): Promise<AnalyzerResult> {
  return inTurns(aiperfRunResultInSteps(s, runOriginMs(s.log)));
}

/**
 * Writes the staged rows as the run's Parquet file, before the summary is committed: a run is
 * `ready` only with its file stored. Rows were staged relative to the first timestamp seen; the
 * file counts them from the run's first request. True when the file is written.
 */
async function writeRequestFile(
  ctx: IngestContext,
  stage: AiperfRequestStage | null,
  log: RequestLog,
  lines: InputsTurnLine[],
): Promise<boolean> {
  if (!stage) return false;
  if (stage.length === 0) {
    stage.discard();
    return false;
  }
  await stage.write(
    ctx.db,
    runOriginMs(log),
    lines.map((l) => ({ conversationId: l.conversationId, turn: l.turn, ...l.line })),
  );
  return true;
}

/**
 * The drill-down step: the slowest lists, read from the run's request file. Made here, outside the
 * analyzer, so that the step holds the request log and nothing else of the analyzer's state (its
 * turn and reuse columns, its maps of conversation and session ids), which are garbage once the
 * summary is committed (docs/performance.md §Ingest memory of an aiperf upload).
 */
function requestDrilldown(ctx: IngestContext, log: RequestLog): () => Promise<Record<string, unknown>> {
  return async () => ({ [AIPERF_CHARTS.slowest.key]: await slowestRequestsPayload(ctx.db, ctx.runId, log) });
}

/** The highest turn index of a profiling record; null when none carries one. */
function maxTurnIndex(log: RequestLog, turns: TurnColumns): number | null {
  let max = -1;
  for (let i = 0; i < log.length; i++)
    if (!(log.flags[i] & FLAG_WARMUP) && turns.turn[i] > max) max = turns.turn[i];
  return max >= 0 ? max : null;
}

/** Successful profiling requests with a known possible reuse, for the reuse stack per interval. */
function reuseRequests(log: RequestLog, turns: TurnColumns, source: ReuseRequests["source"]): ReuseRequests {
  const c = log.cols;
  const base = log.baseNs === null ? NaN : Number(log.baseNs) / 1e6;
  let n = 0;
  const keep = (i: number) =>
    !(log.flags[i] & (FLAG_WARMUP | FLAG_ERROR)) &&
    Number.isFinite(turns.possible[i]) &&
    Number.isFinite(c.inputTokens[i]);
  for (let i = 0; i < log.length; i++) if (keep(i)) n++;
  const out: ReuseRequests = {
    length: n,
    atEpochMs: new Float64Array(n),
    prompt: new Float64Array(n),
    possible: new Float64Array(n),
    cached: new Float64Array(n),
    ttftMs: new Float64Array(n),
    source,
  };
  let j = 0;
  for (let i = 0; i < log.length; i++) {
    if (!keep(i)) continue;
    const ttft = c.ttftMs[i];
    // The engine counts a prompt when it prefills it: by the first token, or at the start at worst.
    out.atEpochMs[j] = base + c.startMs[i] + (Number.isFinite(ttft) ? ttft : 0);
    out.prompt[j] = c.inputTokens[i];
    out.possible[j] = Math.min(turns.possible[i], c.inputTokens[i]);
    out.cached![j] = turns.cached[i];
    out.ttftMs![j] = ttft;
    j++;
  }
  return out;
}
