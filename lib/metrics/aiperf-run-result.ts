/**
 * Everything an aiperf run yields once its files are read: the requests block (ours from the
 * records, else aiperf's own from the summary), run header facts, chart payloads and warnings.
 * Pure: the analyzer reads the files and re-anchors stored rows; this decides what they mean.
 */
import { plural } from "@/lib/format-number";
import type { RequestsBlock, SummaryBlocks } from "@/lib/api/schemas";
import type { AiperfLog } from "@/lib/formats/aiperf-log";
import type { AiperfSummary } from "@/lib/formats/aiperf-summary";
import type { TimesliceExport } from "@/lib/formats/aiperf-timeslices";
import {
  compareWithSummary,
  disagreementWarning,
  recordsSample,
  type RecordsSample,
} from "./aiperf-agreement";
import { LATENCY_METRICS } from "@/lib/api/aiperf-charts";
import type { ExtractedFacts } from "@/lib/api/run-facts";
import type { ThroughputInputs } from "@/lib/api/derived-throughput";
import { gpuSummaryPayload } from "./aiperf-gpu-summary";
import { aiperfFacts } from "./aiperf-run-facts";
import { aiperfThroughputInSteps } from "./aiperf-throughput";
import { theoreticalCacheHitRate } from "./aiperf-theoretical-hit-rate";
import type { QueueWaits } from "./aiperf-queue-wait";
import { SUMMARY_CREDIT_DROP_WORDS, SUMMARY_QUEUE_WAIT_WORDS } from "@/lib/api/source-words";
import { type HeldConcurrency, SUMMARY_CONCURRENCY_SOURCE } from "./aiperf-held-concurrency";
import { AIPERF_COLUMN_CHARTS, withRecordsSample } from "./aiperf-column-charts";
import { timelinePayloadInSteps } from "./aiperf-timeline";
import { timeslicesPayload } from "./aiperf-timeslices";
import type { GpuTelemetry } from "./gpu-telemetry";
import { computeRequestsBlockInSteps } from "./requests";
import type { ErrorTally } from "./requests-errors";
import { requestsFromSummary } from "./requests-from-summary";
import { warmupFromLog, warmupFromOutputs, warmupFromSummary, withConfiguredWarmup } from "./aiperf-warmup";
import { FLAG_WARMUP, pick, RequestLog } from "./requests-log";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { atOnce, type Steps } from "./steps";

export interface SummaryFile {
  name: string;
  /** Folder within the upload: a trial's records and summary share it */
  dir: string;
  format: "json" | "csv";
  summary: AiperfSummary;
}

export interface AiperfRunState {
  log: RequestLog;
  recordDirs: Array<{ dir: string; from: number; to: number }>;
  errors: ErrorTally;
  gpu: GpuTelemetry;
  summaries: SummaryFile[];
  notes: string[];
  timeslices: TimesliceExport[];
  /** aiperf.log files read (their phases' outcome) */
  logs?: AiperfLog[];
  /** outputs.json files read: profiling responses, and warm-up responses (null: no such list) */
  outputs?: Array<{ profiling: number; warmup: number | null }>;
  /** Each profiling record's client-side queue wait, where records carry `credit_issued_ns` */
  queueWaits?: QueueWaits;
  /** Each profiling record's span, where records carry request_start_ns and request_end_ns */
  concurrency?: HeldConcurrency;
}

/** What an aiperf run contributes to the run summary; every part absent when it has no data. */
export interface AiperfRunResult {
  requests?: SummaryBlocks["requests"];
  info?: SummaryBlocks["info"];
  /** Chart payloads by key (AIPERF_CHART_KEYS) */
  charts?: Record<string, unknown>;
  warnings?: string[];
  requestCount?: number | null;
  facts?: ExtractedFacts;
  throughput?: ThroughputInputs | null;
}

/** t = 0 of the run's charts: its first request (warmup included), on the log's ms axis; 0 without records. */
export function runOriginMs(log: RequestLog): number {
  let originMs = Infinity;
  for (let i = 0; i < log.length; i++) if (log.cols.startMs[i] < originMs) originMs = log.cols.startMs[i];
  return Number.isFinite(originMs) ? originMs : 0;
}

export const GPU_OUTSIDE_WINDOW =
  "GPU telemetry does not overlap the benchmark window: every sample is from before the first or after the last profiling request";

export function aiperfRunResult(s: AiperfRunState, originMs: number): AiperfRunResult {
  return atOnce(aiperfRunResultInSteps(s, originMs));
}

/**
 * `aiperfRunResult` in steps (./steps.ts): the latency columns sorted in steps, then a step
 * between the summary's parts (the requests block, each chart payload). At 200,000 requests the
 * whole held the event loop some 0.55 s of CPU at an upload's end (docs/reliability.md).
 */
export function* aiperfRunResultInSteps(s: AiperfRunState, originMs: number): Steps<AiperfRunResult> {
  const { log } = s;
  const warnings = [...s.notes];
  const charts: Record<string, unknown> = {};
  if (log.length === 0 && s.summaries.length === 0 && s.gpu.size === 0 && s.timeslices.length === 0)
    return {};

  let requests: RequestsBlock | null = null;
  if (log.length > 0) {
    // Sorted once, in steps: the requests block and the distribution read the same sorts.
    for (const m of LATENCY_METRICS) yield* log.sortedMeasuredInSteps(m);
    requests = yield* computeRequestsBlockInSteps(log);
    yield;
    // The charts of per-request columns alone, by the functions a read of the run's request file
    // calls (distribution, over time, TTFT vs input): the distribution reads the sorts above.
    for (const c of AIPERF_COLUMN_CHARTS) {
      charts[c.chart.key] = yield* c.compute(log, originMs);
      yield;
    }
    charts[AIPERF_CHARTS.timeline.key] = yield* timelinePayloadInSteps(log, originMs);
    yield;
  }
  const primary = primarySummary(s.summaries);
  const trialDirs = new Set(s.recordDirs.map((d) => d.dir));
  // One run's summary, not pooled trials': its own figures describe the run.
  const single =
    primary !== undefined && trialDirs.size <= 1 && new Set(s.summaries.map((x) => x.dir)).size === 1;
  if (!requests && primary) requests = requestsFromSummary(primary.summary);
  else if (requests && single && primary)
    requests = withSummaryFigures(requests, primary.summary, charts, primary.format === "json");
  if (requests)
    requests = withConfiguredWarmup(
      requests,
      trialConfigs(s.summaries).map((c) => c.warmup),
      single || trialDirs.size <= 1 ? reportedWarmup(primary?.summary, s.logs ?? [], s.outputs ?? []) : null,
    );

  if (log.length > 0 || s.summaries.some((x) => x.summary.errorSummary.length > 0)) {
    const groups = s.errors.list(originMs);
    charts[AIPERF_CHARTS.errors.key] = {
      total: groups.reduce((a, g) => a + g.count, 0),
      groups,
      summary: primary?.summary.errorSummary ?? [],
    };
  }

  yield;
  const agreement = yield* agreementInSteps(s, warnings);
  if (agreement) charts[AIPERF_CHARTS.agreement.key] = agreement;

  // JSON (unshifted first) before CSV: full precision; aiperf writes one export of each per run.
  if (s.timeslices.length > 0) charts[AIPERF_CHARTS.timeslices.key] = timeslicesPayload(s.timeslices[0]);

  const trials = [...new Set(s.recordDirs.map((d) => d.dir))];
  if (trials.length > 1) {
    charts[AIPERF_CHARTS.trials.key] = {
      trials: trials.map((dir) => ({
        name: dir,
        records: s.recordDirs.filter((d) => d.dir === dir).reduce((a, d) => a + d.to - d.from, 0),
      })),
    };
  }
  const sweep = sweepWarning(trials, s.summaries);
  if (sweep) warnings.push(sweep);

  yield;
  if (s.gpu.size > 0) {
    const window = profilingWindow(log);
    // Summed exactly, not mean × count: the product drifts by float rounding.
    let outputTotal = 0;
    for (const v of pick(log.column("outputTokens"), log.measuredIndices()))
      if (Number.isFinite(v)) outputTotal += v;
    const payload = s.gpu.payload(originMs, window, log.length > 0 ? outputTotal : null);
    charts[AIPERF_CHARTS.gpu.key] = payload;
    if (payload.overlapsWindow === false) warnings.push(GPU_OUTSIDE_WINDOW);
    if (payload.duplicateGpus > 0)
      warnings.push(
        `GPU telemetry reports ${plural(payload.duplicateGpus, "GPU")} through more than one exporter; energy counts each GPU once`,
      );
  }

  // aiperf's own GPU statistics where no per-sample export was uploaded (the GPU view's table).
  const gpuSummary =
    s.gpu.size === 0 && single && primary ? gpuSummaryPayload(primary.summary.telemetryGpus) : null;
  if (gpuSummary) charts[AIPERF_CHARTS.gpuSummary.key] = gpuSummary;

  yield;
  const info = runInfo(primary?.summary, trials.length, s.queueWaits?.info() ?? {});
  for (const [k, v] of Object.entries(
    heldConcurrencyInfo(primary?.summary, s.concurrency?.info() ?? {}, requests?.recordsSample ?? null),
  ))
    info[k] = v;
  if (gpuSummary) info.telemetryGpus = gpuSummary.gpus.length;
  // Requests aiperf cancelled at the end of profiling (in flight when its duration ran out): the
  // log counts them apart; builds that export no record for them leave them out of the records.
  const profiling = s.logs?.length === 1 ? s.logs[0].phases.profiling : undefined;
  if (profiling?.cancelled && profiling.cancelled > (requests?.cancelledCount ?? 0))
    info.profilingCancelledInLog = profiling.cancelled;
  const facts = aiperfFacts(primary?.summary, requests, s.gpu);
  yield;
  // Pooled trials have no one summary to defer to.
  const throughput = yield* aiperfThroughputInSteps(
    log,
    requests,
    trials.length > 1 ? undefined : primary?.summary,
    primary?.format === "json",
  );
  return {
    requests,
    info,
    charts,
    warnings,
    requestCount: requests?.count ?? null,
    facts,
    throughput,
  };
}

/**
 * The summary's `warmup_metrics` (schema 1.4+), else outputs.json's warm-up list, else aiperf.log's
 * warm-up phase (one file of each only: several are several runs).
 */
function reportedWarmup(
  summary: AiperfSummary | undefined,
  logs: AiperfLog[],
  outputs: Array<{ warmup: number | null }>,
) {
  return (
    warmupFromSummary(summary?.warmupMetrics ?? null) ??
    (outputs.length === 1 ? warmupFromOutputs(outputs[0].warmup) : null) ??
    (logs.length === 1 ? warmupFromLog(logs[0]) : null)
  );
}

/**
 * The run's figures where aiperf's one summary gives them (docs/metrics.md §Records or summary):
 * - records that are a sample of what it summarised (a shared excerpt: 10 of 64 records) carry
 *   none of the run's figures, so the block is aiperf's, with `recordsSample` saying so; every
 *   chart drawn from the records says it is that sample;
 * - complete records keep their statistics, but requests/s, tok/s and the duration are aiperf's
 *   own: aiperf divides by its benchmark window, which in some versions is the profiling phase's
 *   wall time rather than first request to last response (the agreement check compares both).
 */
function withSummaryFigures(
  ours: RequestsBlock,
  summary: AiperfSummary,
  charts: Record<string, unknown>,
  exactRates: boolean,
): RequestsBlock {
  const whole = requestsFromSummary(summary);
  if (!whole) return ours;
  const part = recordsSample(ours, summary);
  if (part) {
    for (const key of RECORD_CHARTS) {
      const c = charts[key];
      if (c && typeof c === "object") charts[key] = withRecordsSample(c, part);
    }
    return {
      ...whole,
      source: "aiperf",
      warmupCount: ours.warmupCount,
      cancelledCount: ours.cancelledCount,
      recordsSample: part,
      throughputSource: "aiperf summary",
    };
  }
  // The CSV's rates are rounded to 2 decimals: the records' own agree with them within that.
  if (!exactRates || (whole.requestThroughputPerS == null && whole.outputTokenThroughputPerS == null))
    return ours;
  return {
    ...ours,
    durationS: whole.durationS ?? ours.durationS,
    requestThroughputPerS: whole.requestThroughputPerS ?? ours.requestThroughputPerS,
    outputTokenThroughputPerS: whole.outputTokenThroughputPerS ?? ours.outputTokenThroughputPerS,
    throughputSource: "aiperf summary",
  };
}

/** Charts computed from the records: each says when they are a sample of the run. */
const RECORD_CHARTS = [
  AIPERF_CHARTS.distribution.key,
  AIPERF_CHARTS.overTime.key,
  AIPERF_CHARTS.ttftVsInput.key,
  AIPERF_CHARTS.timeline.key,
];

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

/**
 * Compares each folder's records with that folder's summary (one per trial in multi-run uploads).
 * In steps: each folder's requests block is computed as the run's is (its latency columns sorted
 * in steps; for a one-folder upload, the run's own block again from the sorts already made).
 */
function* agreementInSteps(s: AiperfRunState, warnings: string[]) {
  const rows = [];
  const sources: string[] = [];
  // Summed over the folders whose records are a sample of their summary's requests; aiperf's own
  // statistics of the whole only where there is one summary (pooled trials have one each).
  const sample = { records: 0, described: 0, summary: null as SampleSummary | null };
  const dirs = new Set(s.summaries.map((x) => x.dir));
  const recordDirs = new Set(s.recordDirs.map((d) => d.dir));
  // One summary and one records file in different folders (hand-assembled upload): still a pair.
  const loosePair = dirs.size === 1 && recordDirs.size === 1 && ![...dirs].some((d) => recordDirs.has(d));
  for (const dir of dirs) {
    const summary = primarySummary(s.summaries.filter((x) => x.dir === dir));
    const ranges = loosePair ? s.recordDirs : s.recordDirs.filter((d) => d.dir === dir);
    if (!summary || ranges.length === 0) continue;
    const sub = subLog(s.log, ranges);
    for (const m of LATENCY_METRICS) yield* sub.sortedMeasuredInSteps(m);
    const ours = yield* computeRequestsBlockInSteps(sub);
    const compared = compareWithSummary(ours, summary.summary);
    if (compared.length === 0) continue;
    sources.push(summary.name);
    const part = recordsSample(ours, summary.summary);
    for (const r of compared) rows.push({ ...r, source: summary.name, sample: part !== null });
    if (part) {
      sample.records += part.records;
      sample.described += part.described;
      sample.summary = dirs.size === 1 ? sampleSummary(summary.summary) : null;
      continue;
    }
    const w = disagreementWarning(compared, summary.name);
    if (w) warnings.push(w);
  }
  if (sources.length === 0) return null;
  return {
    sources,
    rows,
    disagreements: rows.filter((r) => !r.agrees && !r.sample).length,
    sample: sample.described > 0 ? sample : null,
  };
}

type SampleSummary = Pick<RequestsBlock, "ttftMs" | "e2eMs" | "itlMs" | "inputTokens" | "outputTokens">;

function sampleSummary(summary: AiperfSummary): SampleSummary | null {
  const b = requestsFromSummary(summary);
  return (
    b && {
      ttftMs: b.ttftMs,
      e2eMs: b.e2eMs,
      itlMs: b.itlMs,
      inputTokens: b.inputTokens,
      outputTokens: b.outputTokens,
    }
  );
}

function subLog(log: RequestLog, ranges: Array<{ from: number; to: number }>): RequestLog {
  if (ranges.length === 1 && ranges[0].from === 0 && ranges[0].to === log.length) return log;
  const out = new RequestLog();
  out.baseNs = log.baseNs;
  for (const { from, to } of ranges) for (let i = from; i < to; i++) out.copyFrom(log, i);
  return out;
}

function runInfo(
  summary: AiperfSummary | undefined,
  trials: number,
  fromRecords: Record<string, number | string>,
): SummaryBlocks["info"] {
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
    set("theoreticalCacheHitRate", theoreticalCacheHitRate(summary.metrics.theoretical_prefix_cache_hit));
    set("schemaVersion", summary.schemaVersion);
    // aiperf's time-weighted total tokens/s over the time requests were in flight (0.8+); its
    // effective concurrency is read by heldConcurrencyInfo.
    set("effectiveTotalTokensPerS", summary.metrics.effective_total_throughput?.avg);
    for (const [k, v] of Object.entries(summary.runConfig ?? {})) set(k, v);
  }
  for (const [k, v] of Object.entries(queueWaitInfo(summary?.metrics ?? {}, fromRecords))) set(k, v);
  if (trials > 1) set("trials", trials);
  return info;
}

/**
 * The concurrency the run held, the doctor's other evidence of a saturated load generator
 * (docs/metrics.md §Comparable runs, "Held concurrency"): aiperf's own `effective_concurrency`
 * average (0.8+); else the same figure from the records (`fromRecords`,
 * aiperf-held-concurrency.ts), unless the records are a sample of the run the summary describes
 * (fewer records than its requests: their span is not the run's), which is then said. Records
 * without the stamps are counted (`effectiveConcurrencyMissing`), never read as a concurrency.
 */
export function heldConcurrencyInfo(
  summary: AiperfSummary | undefined,
  fromRecords: Record<string, number | string>,
  sample: RecordsSample | null,
): Record<string, number | string> {
  const own = summary?.metrics.effective_concurrency?.avg;
  if (typeof own === "number" && Number.isFinite(own))
    return { effectiveConcurrency: own, effectiveConcurrencySource: SUMMARY_CONCURRENCY_SOURCE };
  if (sample && fromRecords.effectiveConcurrency !== undefined) {
    const out: Record<string, number | string> = {
      effectiveConcurrencyUnmeasured: `the records hold ${sample.records} of the ${sample.described} requests aiperf's summary describes`,
    };
    if (fromRecords.effectiveConcurrencyMissing !== undefined)
      out.effectiveConcurrencyMissing = fromRecords.effectiveConcurrencyMissing;
    return out;
  }
  return fromRecords;
}

/**
 * Client-side queueing, the doctor's evidence of a saturated load generator (docs/metrics.md
 * §Comparable runs): aiperf's `credit_to_start_latency` (0.8+, src/aiperf/metrics/derived_latency.py:
 * `request_start_ns − credit_issued_ns` per profiling record, the wait between when the scheduler
 * issued a request and when a worker sent it); else the same wait computed from the records
 * (`fromRecords`, aiperf-queue-wait.ts: aiperf 0.6 and 0.7 records carry both stamps, their
 * summaries no such metric); else the older `credit_drop_latency` (from when a worker received
 * the credit to the send: the worker's part of that wait only). The records' share of requests
 * that waited is kept beside the summary's figures, being in no summary.
 */
export function queueWaitInfo(
  metrics: AiperfSummary["metrics"],
  fromRecords: Record<string, number | string> = {},
): Record<string, number | string> {
  const full = metrics.credit_to_start_latency;
  const fromSummary = (block: NonNullable<typeof full>, source: string) => {
    if (typeof block.p50 !== "number") return null;
    const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000, sec: 1000 }[block.unit ?? "ms"];
    if (toMs === undefined) return null;
    const out: Record<string, number | string> = {
      queueWaitP50Ms: block.p50 * toMs,
      queueWaitSource: source,
    };
    if (typeof block.p90 === "number") out.queueWaitP90Ms = block.p90 * toMs;
    if (typeof block.p99 === "number") out.queueWaitP99Ms = block.p99 * toMs;
    if (typeof block.max === "number") out.queueWaitMaxMs = block.max * toMs;
    if (typeof block.count === "number") out.queueWaitCount = block.count;
    return out;
  };
  const summary = full && fromSummary(full, SUMMARY_QUEUE_WAIT_WORDS);
  if (summary) {
    for (const k of ["queueWaitJudged", "queueWaited"])
      if (fromRecords[k] !== undefined) summary[k] = fromRecords[k];
    return summary;
  }
  if (fromRecords.queueWaitP50Ms !== undefined) return fromRecords;
  const drop = metrics.credit_drop_latency;
  const older = drop && fromSummary(drop, SUMMARY_CREDIT_DROP_WORDS);
  // Neither: at most how many records lack the stamp (queueWaitMissing), never a wait of 0.
  return older ?? fromRecords;
}

/** One configuration per trial folder, from its JSON summary (the CSV carries none). */
function trialConfigs(summaries: SummaryFile[]) {
  const dirs = [...new Set(summaries.filter((x) => x.format === "json").map((x) => x.dir))];
  return dirs.map((dir) => primarySummary(summaries.filter((x) => x.dir === dir))!.summary.config);
}

/** JSON before CSV: the CSV rounds to 2 decimals and has no configuration. */
function primarySummary(summaries: SummaryFile[]): SummaryFile | undefined {
  return summaries.find((s) => s.format === "json") ?? summaries[0];
}

const TRIAL_DIR = /(^|\/)profile_runs\/(run|trial)_\d+$/;

/**
 * Pooling is right for repeated trials of one configuration, wrong for a sweep (one folder per
 * concurrency or ISL/OSL point): say so when folders are not aiperf trial folders or when their
 * summaries were run with different settings.
 */
export function sweepWarning(dirs: string[], summaries: SummaryFile[]): string | null {
  if (dirs.length < 2) return null;
  const settings = new Set(
    summaries
      .filter((x) => x.format === "json")
      .map((x) =>
        JSON.stringify([x.summary.config.concurrency, x.summary.config.requestRate, x.summary.config.model]),
      ),
  );
  if (dirs.every((d) => TRIAL_DIR.test(d)) && settings.size <= 1) return null;
  return `this upload holds ${dirs.length} aiperf runs in different folders${settings.size > 1 ? " with different settings (concurrency, rate or model)" : ""}; their requests are pooled here — upload each folder as its own run to compare them side by side`;
}
