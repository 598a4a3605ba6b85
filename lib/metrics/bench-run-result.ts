/**
 * What one imported benchmark (vLLM, SGLang, genai-perf) yields once read (docs/metrics.md
 * §Imported benchmark tools): with per-request rows, the same requests block and latency charts
 * as an aiperf run; without, the tool's own run-level figures. Pure: the analyzer fills the log.
 */
import { LATENCY_METRICS } from "@/lib/api/aiperf-charts";
import type { ExtractedFacts } from "@/lib/api/run-facts";
import type { RequestsBlock, Stats, SummaryBlocks } from "@/lib/api/schemas";
import type { SummaryMetric } from "@/lib/formats/aiperf-summary";
import type { ThroughputInputs } from "@/lib/api/derived-throughput";
import type { BenchResult } from "@/lib/formats/bench-result";
import { throughputFromRecords } from "./aiperf-throughput";
import { compareWithTool, toolDisagreement } from "./bench-agreement";
import { computeDistribution } from "./aiperf-distribution";
import { overTimePayload, timelinePayload, ttftVsInputPayload } from "./aiperf-timeline";
import { computeRequestsBlock } from "./requests";
import type { ErrorTally } from "./requests-errors";
import { pick, type RequestLog } from "./requests-log";
import { requestWords } from "./request-words";
import { computeStats } from "./stats";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

export interface BenchRunResult {
  requests: RequestsBlock | null;
  facts: ExtractedFacts;
  info: SummaryBlocks["info"];
  charts: Record<string, unknown>;
  warnings: string[];
  backend: string | null;
  /** The run's throughput inputs (docs/metrics.md §Derived throughput), from the rows or the tool's figures */
  throughput: ThroughputInputs | null;
}

/**
 * The tool's own duration is the window its throughputs divide by (from before the first request
 * to after the last), so throughput here uses it too: first start to last end would be shorter
 * and the two tools' throughputs would not be comparable.
 */
function withToolDuration(block: RequestsBlock, durationS: number | null, log: RequestLog): RequestsBlock {
  if (durationS === null || durationS <= 0) return block;
  const ok = log.measuredIndices();
  const outputTotal = block.outputTokensTotal ?? null;
  return {
    ...block,
    durationS,
    requestThroughputPerS: ok.length / durationS,
    outputTokenThroughputPerS: outputTotal === null ? null : outputTotal / durationS,
  };
}

export function benchRunResult(
  b: BenchResult,
  log: RequestLog,
  errors: ErrorTally,
  originMs: number,
  source: string,
): BenchRunResult {
  const warnings = [...b.notes];
  const charts: Record<string, unknown> = {};
  let requests: RequestsBlock | null = null;
  if (log.length > 0) {
    const fromRows = withWarmup(withToolDuration(computeRequestsBlock(log), b.durationS, log), b);
    // A partial list (a sample) is not the run: the tool's own figures are, and the rows only
    // draw the charts, which the run's warnings call a sample.
    requests = b.partial ? withWarmup(requestsFromTool(b) ?? fromRows, b) : withToolFigures(fromRows, b);
    const ok = log.measuredIndices();
    charts[AIPERF_CHARTS.distribution.key] = {
      metrics: Object.fromEntries(
        LATENCY_METRICS.map((m) => [m, computeDistribution(pick(log.column(m), ok))]),
      ),
    };
    charts[AIPERF_CHARTS.ttftVsInput.key] = ttftVsInputPayload(log);
    const timed = Number.isFinite(log.firstProfilingStartMs());
    if (timed) {
      charts[AIPERF_CHARTS.overTime.key] = overTimePayload(log, originMs);
      charts[AIPERF_CHARTS.timeline.key] = timelinePayload(log, originMs);
    }
    const groups = errors.list(originMs);
    charts[AIPERF_CHARTS.errors.key] = {
      total: groups.reduce((a, g) => a + g.count, 0),
      groups,
      summary: [],
    };
    // The tool's TPOT is compared under its own name (aiperf's tag for it is inter-token latency);
    // a partial list (a sample) is not compared with the tool's whole-run figures.
    const itl = requestWords({ info: { benchmarkTool: b.tool }, requests: null }).itl;
    const rows = b.partial
      ? []
      : compareWithTool(requests, b.summary, b.comparable, b.comparableStats).map((r) =>
          r.metric.startsWith("Inter-token latency") ? { ...r, metric: `${itl.short} (ms)` } : r,
        );
    if (rows.length > 0) {
      charts[AIPERF_CHARTS.agreement.key] = {
        sources: [source],
        rows: rows.map((r) => ({ ...r, source })),
        disagreements: rows.filter((r) => !r.agrees).length,
      };
      const w = toolDisagreement(rows, b.tool, source);
      if (w) warnings.push(w);
    }
  } else {
    const tool = requestsFromTool(b);
    requests = tool && withWarmup(tool, b);
  }
  const info = runInfo(b);
  // Said in the run's facts so the Throughput view explains the missing timeline, not a failed fetch.
  if (log.length > 0 && !Number.isFinite(log.firstProfilingStartMs())) info.requestTimeline = false;
  // The tool's own per-user throughput where it wrote it with our definition; else from a whole
  // list's rows (1000 ÷ TPOT of each request) or the tool's run-level figures (a sample's rows are
  // not the run's).
  const throughput =
    b.throughput ??
    (requests ? throughputOf(b, b.partial ? null : log, requests, b.tokPerUser ?? null) : null);
  return {
    requests,
    facts: runFacts(b, requests),
    info,
    charts,
    warnings,
    backend: backendOf(b),
    throughput,
  };
}

const perStat = (s: Stats | null) =>
  s ? { mean: s.mean, p50: s.p50, p90: s.p90 ?? null, p99: s.p99 } : null;

/**
 * The throughput the run's per-GPU and per-user figures are made of. With per-request rows:
 * their throughput over the tool's duration and tok/s per user from each request's TPOT; the
 * tool's own total token throughput where it wrote one. Without: the tool's figures.
 */
function throughputOf(
  b: BenchResult,
  log: RequestLog | null,
  requests: RequestsBlock,
  toolTokPerUser: ThroughputInputs["tokPerUser"] | null,
): ThroughputInputs {
  const m = b.summary.metrics;
  const duration = b.durationS ?? m.benchmark_duration?.avg ?? null;
  const isl = m.total_isl?.avg;
  const osl = m.total_osl?.avg;
  const toolTotal =
    m.total_token_throughput?.avg ??
    (duration && duration > 0 && isl !== undefined && osl !== undefined ? (isl + osl) / duration : null);
  if (!toolTokPerUser && log && requests.source !== "tool-summary" && log.length > 0) {
    const t = throughputFromRecords(log, requests);
    return {
      ...t,
      source: `${b.tool} per-request arrays`,
      note: `tok/s per user is 1000 ÷ each successful request's TPOT, (E2E − TTFT) ÷ (output tokens − 1) as ${b.tool} defines it per request, then its mean and percentiles over the requests (the mean of 1000/TPOT, not 1000 ÷ mean TPOT)`,
      totalTokPerS: toolTotal ?? t.totalTokPerS,
    };
  }
  return {
    source: toolTokPerUser ? `${b.tool} summary` : `${b.tool} result`,
    note: null,
    outputTokPerS: requests.outputTokenThroughputPerS ?? null,
    totalTokPerS: toolTotal,
    requestsPerS: requests.requestThroughputPerS ?? null,
    tpotMs: perStat(requests.itlMs),
    tokPerUser: toolTokPerUser,
  };
}

/**
 * Warm-up as the tool's files say it: rows it listed outside its measurement window (GuideLLM)
 * are counted as such; else the count its configuration states (genai-perf's
 * `warmup_request_count`); else unknown, since vLLM and SGLang do not write theirs.
 */
function withWarmup(block: RequestsBlock, b: BenchResult): RequestsBlock {
  if (block.source !== "tool-summary" && block.warmupCount) return { ...block, warmupSource: "records" };
  if (b.warmupConfigured !== undefined)
    return { ...block, warmupCount: b.warmupConfigured, warmupSource: "config" };
  return { ...block, warmupCount: null, warmupSource: "tool" };
}

/** The runs table's backend column: the tool and what it drove, so compare shows which tool measured. */
function backendOf(b: BenchResult): string {
  return b.backend ? `${b.tool} (${b.backend})` : b.tool;
}

/**
 * Run facts (docs/metrics.md §Run facts) as the tool's file states them. The tool's `backend` is
 * the endpoint kind it drove (vLLM's `openai-chat`), not the serving engine, so it is no fact.
 */
function runFacts(b: BenchResult, requests: RequestsBlock | null): ExtractedFacts {
  const facts: ExtractedFacts = {};
  const source = `${b.tool} result`;
  if (b.model) facts.model = { value: b.model, source };
  if (b.concurrency !== null && b.concurrency > 0) facts.concurrency = { value: b.concurrency, source };
  if (typeof b.requestRate === "number" && b.requestRate > 0)
    facts.requestRate = { value: b.requestRate, source };
  const measured =
    requests?.source !== "tool-summary"
      ? "mean of the imported requests"
      : b.tokenLens
        ? `mean of ${b.tool}'s per-request lengths (successful requests)`
        : `${b.tool} mean`;
  if (requests?.inputTokens) facts.isl = { value: requests.inputTokens.mean, source: measured };
  if (requests?.outputTokens) facts.osl = { value: requests.outputTokens.mean, source: measured };
  if (b.gpuCount) facts.gpuCount = b.gpuCount;
  if (b.engineVersion) facts.backendVersion = b.engineVersion;
  return { ...facts, ...b.runFacts };
}

function runInfo(b: BenchResult): SummaryBlocks["info"] {
  const info: SummaryBlocks["info"] = { benchmarkTool: b.tool };
  const set = (k: string, v: string | number | boolean | null | undefined) => {
    if (v !== null && v !== undefined) info[k] = v;
  };
  set("benchmarkToolVersion", b.toolVersion);
  set("benchmark", b.label);
  set("model", b.model);
  set("endpointType", b.backend);
  set("concurrency", b.concurrency);
  set("requestRate", b.requestRate === "inf" ? "all at once" : b.requestRate);
  set("requestCount", b.numPrompts);
  for (const [k, v] of Object.entries(b.facts)) set(k, v);
  return info;
}

/** A stat the tool did not write stays absent; one without mean, median and p99 is not a statistic. */
function statsOf(block: SummaryMetric | undefined, count: number): Stats | null {
  if (!block || block.avg === undefined || block.p50 === undefined || block.p99 === undefined) return null;
  const s: Stats = { count: block.count ?? count, mean: block.avg, p50: block.p50, p99: block.p99 };
  for (const k of ["min", "max", "p75", "p90", "p95"] as const) if (block[k] !== undefined) s[k] = block[k];
  return s;
}

/**
 * Statistics the rows cannot give (genai-perf's token counts need its tokenizer) are the tool's
 * own, so a comparison still has them; every one the rows give stays ours.
 */
function withToolFigures(block: RequestsBlock, b: BenchResult): RequestsBlock {
  const tool = requestsFromTool(b);
  if (!tool) return block;
  const out = { ...block };
  for (const k of ["ttftMs", "e2eMs", "itlMs", "inputTokens", "outputTokens"] as const)
    if (out[k] === null) out[k] = tool[k];
  out.outputTokenThroughputPerS ??= tool.outputTokenThroughputPerS;
  return out;
}

const lensStats = (lens: number[] | null | undefined): Stats | null => (lens ? computeStats(lens) : null);

/** The run-level figures alone (no per-request arrays in the file), labelled as the tool's own. */
export function requestsFromTool(b: BenchResult): RequestsBlock | null {
  const m = b.summary.metrics;
  const ok = m.request_count?.avg;
  if (ok === undefined) return null;
  const errors = m.error_request_count?.avg ?? null;
  return {
    source: "tool-summary",
    count: ok + (errors ?? 0),
    errorCount: errors ?? 0,
    warmupCount: null,
    warmupSource: "tool",
    durationS: b.durationS ?? m.benchmark_duration?.avg ?? null,
    ttftMs: statsOf(m.time_to_first_token, ok),
    e2eMs: statsOf(m.request_latency, ok) ?? lensStats(b.e2eValuesMs),
    itlMs: statsOf(m.inter_token_latency, ok),
    inputTokens: statsOf(m.input_sequence_length, ok) ?? lensStats(b.tokenLens?.input),
    outputTokens: statsOf(m.output_sequence_length, ok) ?? lensStats(b.tokenLens?.output),
    requestThroughputPerS: m.request_throughput?.avg ?? null,
    outputTokenThroughputPerS: m.output_token_throughput?.avg ?? null,
    outputTokensTotal: m.total_osl?.avg ?? null,
  };
}
