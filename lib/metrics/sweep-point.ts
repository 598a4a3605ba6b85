/**
 * A sweep point: one run's throughput per GPU, interactivity and latency at a statistic
 * (docs/metrics.md §Sweeps). Pure. Its inputs come from the run's per-request records or from
 * the producer's own summary; both give the same numbers when they describe the same requests.
 */
import type { SweepPoint, SweepStat } from "@/lib/api/sweeps";
import type { AiperfSummary, SummaryMetric, SummaryStatKey } from "@/lib/formats/aiperf-summary";
import { isTimeUnit, toMs } from "@/lib/formats/aiperf-units";
import { derivedThroughput } from "./derived-throughput";
import { tokPerUserStats, tokPerUserStatsInSteps } from "./per-user-throughput";
import { percentileSorted, sortedFinite, sortedFiniteInSteps } from "./stats";
import { atOnce, type Steps } from "./steps";

/**
 * A distribution read at the four sweep statistics; a statistic the producer did not write
 * (vLLM's default percentiles are 99 only, so no p90) is null.
 */
export type StatSet = Record<SweepStat, number | null>;

export interface PointInputs {
  outputTokPerS: number | null;
  totalTokPerS: number | null;
  requestsPerS: number | null;
  ttftMs: StatSet | null;
  e2eMs: StatSet | null;
  tpotMs: StatSet | null;
  /**
   * Interactivity (tok/s/user) per statistic of the per-request values, as aiperf takes them
   * (./per-user-throughput.ts); a statistic not known is null and the point says what it needs.
   */
  tokPerSPerUser: Partial<Record<SweepStat, number | null>> | null;
  /** The producer whose own figures these are, when they come from its summary (names what it lacks) */
  producer?: string;
  /** Successful requests, when known: with none, nothing per request was measured */
  successful?: number | null;
}

const DIRECT: Record<SweepStat, number | "mean"> = { mean: "mean", p50: 50, p90: 90, p99: 99 };

function statSet(sorted: Float64Array, at: Record<SweepStat, number | "mean">): StatSet | null {
  if (sorted.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < sorted.length; i++) sum += sorted[i];
  const read = (q: number | "mean") => (q === "mean" ? sum / sorted.length : percentileSorted(sorted, q));
  return { mean: read(at.mean), p50: read(at.p50), p90: read(at.p90), p99: read(at.p99) };
}

/** Latency read at the statistics from per-request values. */
export const latencyStats = (values: ArrayLike<number>) => statSet(sortedFinite(values), DIRECT);

/** latencyStats in steps (./stats.ts `sortInSteps`): the same numbers. */
function* latencyStatsInSteps(values: ArrayLike<number>): Steps<StatSet | null> {
  return statSet(yield* sortedFiniteInSteps(values), DIRECT);
}

/** Interactivity from per-request TPOT (ms), by the one definition of ./per-user-throughput.ts. */
export function interactivityFromTpot(tpotMs: ArrayLike<number>): StatSet | null {
  const s = tokPerUserStats(tpotMs);
  return s && { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99 };
}

function* interactivityFromTpotInSteps(tpotMs: ArrayLike<number>): Steps<StatSet | null> {
  const s = yield* tokPerUserStatsInSteps(tpotMs);
  return s && { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99 };
}

function summaryStats(
  block: SummaryMetric | undefined,
  at: Record<SweepStat, number | "mean">,
): StatSet | null {
  if (!block) return null;
  const key = (q: number | "mean") => (q === "mean" ? "avg" : (`p${q}` as SummaryStatKey));
  const conv = (v: number | undefined) =>
    v === undefined ? NaN : isTimeUnit(block.unit) ? toMs(v, block.unit) : v;
  const read = (q: number | "mean") => {
    const v = conv(block[key(q)]);
    return Number.isFinite(v) ? v : null;
  };
  const out = { mean: read(at.mean), p50: read(at.p50), p90: read(at.p90), p99: read(at.p99) };
  return Object.values(out).some((v) => v !== null) ? out : null;
}

/** Inputs from aiperf's own summary (profile_export_aiperf.json), read as aiperf wrote them. */
export function pointInputsFromAiperfSummary(summary: AiperfSummary): PointInputs {
  const m = summary.metrics;
  const duration = m.benchmark_duration
    ? toMs(m.benchmark_duration.avg ?? NaN, m.benchmark_duration.unit ?? "sec") / 1000
    : NaN;
  const tokens = (m.total_isl?.avg ?? NaN) + (m.total_osl?.avg ?? NaN);
  const total = Number.isFinite(tokens) && duration > 0 ? tokens / duration : null;
  return {
    outputTokPerS: m.output_token_throughput?.avg ?? null,
    totalTokPerS: m.total_token_throughput?.avg ?? total,
    requestsPerS: m.request_throughput?.avg ?? null,
    ttftMs: summaryStats(m.time_to_first_token, DIRECT),
    e2eMs: summaryStats(m.request_latency, DIRECT),
    tpotMs: summaryStats(m.inter_token_latency, DIRECT),
    tokPerSPerUser: summaryStats(m.output_token_throughput_per_user, DIRECT),
  };
}

/**
 * Inputs from an imported tool's own run-level figures (vLLM bench serve, SGLang bench_serving,
 * GuideLLM, genai-perf), read into aiperf's tags by its reader: the same reading as aiperf's
 * summary, with the tool named where a statistic is missing.
 */
export function pointInputsFromToolSummary(
  summary: AiperfSummary,
  producer: string,
  e2eValuesMs?: ArrayLike<number> | null,
): PointInputs {
  const inputs = pointInputsFromAiperfSummary(summary);
  return {
    ...inputs,
    // Per-request latencies the tool listed without E2E statistics (vLLM's `latencies`).
    e2eMs: inputs.e2eMs ?? (e2eValuesMs ? latencyStats(e2eValuesMs) : null),
    producer,
    successful: summary.metrics.request_count?.avg ?? null,
  };
}

/**
 * The point at one statistic. Per-GPU figures need the GPU count: unknown, they stay null and
 * say so (never divided by an assumed 1).
 */
export function sweepPoint(inputs: PointInputs, gpuCount: number | null, stat: SweepStat): SweepPoint {
  const missing: Record<string, string> = {};
  // Per-GPU figures are the run's derived throughput (docs/metrics.md §Derived throughput).
  const derived = derivedThroughput({
    outputTokPerS: inputs.outputTokPerS,
    totalTokPerS: inputs.totalTokPerS,
    requestsPerS: inputs.requestsPerS,
    tpotMs: inputs.tpotMs,
    tokPerUser: inputs.tokPerSPerUser,
    gpuCount,
    successful: inputs.successful,
  });
  const perGpu = (key: "outputTokPerSPerGpu" | "totalTokPerSPerGpu" | "requestsPerSPerGpu") => {
    const d = derived[key];
    if (d.value === null) missing[key] = d.reason ?? "not measured";
    return d.value;
  };
  const perUser = () => {
    const d = derived.tokPerUser[stat];
    if (d.value === null)
      missing.tokPerSPerUser =
        inputs.tpotMs || inputs.tokPerSPerUser || inputs.successful === 0
          ? (d.reason ?? "not measured")
          : "no per-request TPOT in this run's files";
    return d.value;
  };
  const none = inputs.successful === 0;
  const at = (key: string, s: StatSet | null, what: string) => {
    const v = s === null ? null : s[stat];
    if (v === null)
      missing[key] = none
        ? `no successful request: no ${what}`
        : inputs.producer
          ? `${inputs.producer}'s result has no ${s === null ? what : `${stat} of ${what}`}`
          : `no ${what} in this run's files`;
    return v;
  };
  const plain = (key: string, v: number | null, what: string) => {
    if (v === null)
      missing[key] = inputs.producer
        ? `${inputs.producer}'s result has no ${what}`
        : `no ${what} in this run's files`;
    return v;
  };
  return {
    outputTokPerSPerGpu: perGpu("outputTokPerSPerGpu"),
    totalTokPerSPerGpu: perGpu("totalTokPerSPerGpu"),
    requestsPerSPerGpu: perGpu("requestsPerSPerGpu"),
    tokPerSPerUser: perUser(),
    outputTokPerS: plain("outputTokPerS", inputs.outputTokPerS, "output token throughput"),
    totalTokPerS: plain("totalTokPerS", inputs.totalTokPerS, "total token throughput"),
    requestsPerS: plain("requestsPerS", inputs.requestsPerS, "request throughput"),
    ttftMs: at("ttftMs", inputs.ttftMs, "TTFT"),
    e2eMs: at("e2eMs", inputs.e2eMs, "end-to-end latency"),
    tpotMs: at("tpotMs", inputs.tpotMs, "TPOT"),
    missing,
  };
}

/** The measured requests' columns (profiling phase, successful), as stored per request. */
export interface MeasuredColumns {
  ttftMs: ArrayLike<number>;
  e2eMs: ArrayLike<number>;
  tpotMs: ArrayLike<number>;
  inputTokens: ArrayLike<number>;
  outputTokens: ArrayLike<number>;
}

/**
 * Inputs from every recorded request. Throughputs use aiperf's window (first profiling request to
 * last profiling response, `durationS` of the requests block), so they match its summary.
 */
export function pointInputsFromRecords(cols: MeasuredColumns, durationS: number | null): PointInputs {
  return atOnce(pointInputsFromRecordsInSteps(cols, durationS));
}

/**
 * pointInputsFromRecords in steps: each statistic's sort of every request's value is itself in
 * steps (./stats.ts `sortInSteps`), so no step holds a 200,000-value sort.
 */
export function* pointInputsFromRecordsInSteps(
  cols: MeasuredColumns,
  durationS: number | null,
): Steps<PointInputs> {
  let output = 0;
  let input = 0;
  let inputKnown = true;
  for (let i = 0; i < cols.outputTokens.length; i++)
    if (Number.isFinite(cols.outputTokens[i])) output += cols.outputTokens[i];
  for (let i = 0; i < cols.inputTokens.length; i++) {
    if (Number.isFinite(cols.inputTokens[i])) input += cols.inputTokens[i];
    else inputKnown = false;
  }
  const n = cols.e2eMs.length;
  const rate = (v: number) => (durationS && durationS > 0 && n > 0 ? v / durationS : null);
  yield;
  const ttftMs = yield* latencyStatsInSteps(cols.ttftMs);
  const e2eMs = yield* latencyStatsInSteps(cols.e2eMs);
  const tpotMs = yield* latencyStatsInSteps(cols.tpotMs);
  const tokPerSPerUser = yield* interactivityFromTpotInSteps(cols.tpotMs);
  return {
    outputTokPerS: rate(output),
    totalTokPerS: inputKnown ? rate(input + output) : null,
    requestsPerS: rate(n),
    ttftMs,
    e2eMs,
    tpotMs,
    tokPerSPerUser,
  };
}
