/**
 * The throughput a run's derived figures are made of (docs/metrics.md §Derived throughput), from
 * aiperf's records or its summary, whichever ./records-or-summary.ts picks. Pure.
 */
import type { ThroughputInputs } from "@/lib/api/derived-throughput";
import type { RequestsBlock, Stats } from "@/lib/api/schemas";
import type { AiperfSummary, SummaryMetric } from "@/lib/formats/aiperf-summary";
import { isTimeUnit, toMs } from "@/lib/formats/aiperf-units";
import { tokPerUserStatsOfSortedInSteps } from "./per-user-throughput";
import { recordsOrSummary } from "./records-or-summary";
import type { RequestLog } from "./requests-log";
import { atOnce, type Steps } from "./steps";

// p90 is optional in stored statistics (imported tools may not write it): absent stays null, never 0.
const fromStats = (s: Stats | null) =>
  s ? { mean: s.mean, p50: s.p50, p90: s.p90 ?? null, p99: s.p99 } : null;

function fromBlock(b: SummaryMetric | undefined, ms: boolean) {
  if (!b || b.avg === undefined) return null;
  const conv = (v: number | undefined) =>
    v === undefined ? null : ms && isTimeUnit(b.unit) ? toMs(v, b.unit) : v;
  return { mean: conv(b.avg), p50: conv(b.p50), p90: conv(b.p90), p99: conv(b.p99) };
}

/** From the records: successful profiling requests over aiperf's benchmark window. */
export function throughputFromRecords(log: RequestLog, requests: RequestsBlock): ThroughputInputs {
  return atOnce(throughputFromRecordsInSteps(log, requests));
}

/** Requests a step of `throughputFromRecordsInSteps`' pass over the token columns reads. */
const TOKENS_STEP = 16_384;

/**
 * `throughputFromRecords` in steps: the token columns summed TOKENS_STEP requests a step (in the
 * same order: the same bits), the per-user values made and summed in steps
 * (`tokPerUserStatsOfSortedInSteps`).
 */
export function* throughputFromRecordsInSteps(
  log: RequestLog,
  requests: RequestsBlock,
): Steps<ThroughputInputs> {
  const ok = log.measuredIndices();
  let tokens = 0;
  let anyTokens = false;
  for (const name of ["inputTokens", "outputTokens"] as const) {
    const col = log.column(name);
    for (let i = 0; i < ok.length; i++) {
      if (i > 0 && i % TOKENS_STEP === 0) yield;
      const v = col[ok[i]];
      if (Number.isFinite(v)) {
        tokens += v;
        anyTokens = true;
      }
    }
    yield;
  }
  const tokPerUser = yield* tokPerUserStatsOfSortedInSteps(log.sortedMeasured("itlMs"));
  const d = requests.durationS;
  return {
    source: "records",
    note: null,
    outputTokPerS: requests.outputTokenThroughputPerS ?? null,
    totalTokPerS: d && anyTokens ? tokens / d : null,
    requestsPerS: requests.requestThroughputPerS ?? null,
    tpotMs: fromStats(requests.itlMs),
    // The ITL values the requests block sorted already (the same population: `ok`).
    tokPerUser: fromStats(tokPerUser),
  };
}

/** From aiperf's summary: its own request_throughput, output_token_throughput and per-user figures. */
export function throughputFromSummary(summary: AiperfSummary, note: string | null): ThroughputInputs {
  const m = summary.metrics;
  const durationS = m.benchmark_duration?.avg
    ? toMs(m.benchmark_duration.avg, m.benchmark_duration.unit ?? "sec") / 1000
    : null;
  const isl = m.total_isl?.avg;
  const osl = m.total_osl?.avg;
  const total =
    m.total_token_throughput?.avg ??
    (durationS && isl !== undefined && osl !== undefined ? (isl + osl) / durationS : null);
  return {
    source: "aiperf summary",
    note,
    outputTokPerS: m.output_token_throughput?.avg ?? null,
    totalTokPerS: total,
    requestsPerS: m.request_throughput?.avg ?? null,
    tpotMs: fromBlock(m.inter_token_latency, true),
    tokPerUser: fromBlock(m.output_token_throughput_per_user, false),
  };
}

/** Records or summary, as ./records-or-summary.ts chooses for every consumer. */
export function aiperfThroughput(
  log: RequestLog,
  requests: RequestsBlock | null,
  summary: AiperfSummary | undefined,
  /** Whether the summary's rates are full precision (JSON); the CSV rounds them to 2 decimals */
  exactRates = true,
): ThroughputInputs | null {
  return atOnce(aiperfThroughputInSteps(log, requests, summary, exactRates));
}

/** `aiperfThroughput` in steps (`throughputFromRecordsInSteps`): the same inputs. */
export function* aiperfThroughputInSteps(
  log: RequestLog,
  requests: RequestsBlock | null,
  summary: AiperfSummary | undefined,
  exactRates = true,
): Steps<ThroughputInputs | null> {
  const hasRecords = log.length > 0 && requests?.source === "aiperf";
  const choice = recordsOrSummary(
    hasRecords ? log.measuredIndices().length : null,
    summary?.metrics.request_count?.avg,
    summary !== undefined,
  );
  if (choice?.from === "records" && requests) {
    const ours = yield* throughputFromRecordsInSteps(log, requests);
    return summary && exactRates ? withAiperfRates(ours, throughputFromSummary(summary, null)) : ours;
  }
  if (choice?.from === "summary" && summary) return throughputFromSummary(summary, choice.note);
  return null;
}

export const AIPERF_WINDOW_NOTE =
  "requests/s and tokens/s are aiperf's own, over its benchmark window (benchmark_duration); latency and per-user figures are the records'";

/**
 * Complete records beside their summary: the rates are aiperf's (its window may be the profiling
 * phase's wall time rather than first request to last response), the rest the records'. A rate
 * the summary lacks stays the records'.
 */
function withAiperfRates(ours: ThroughputInputs, theirs: ThroughputInputs): ThroughputInputs {
  if (theirs.requestsPerS === null && theirs.outputTokPerS === null) return ours;
  return {
    ...ours,
    // Still "records": the requests measured are the records' (a sample is "aiperf summary").
    note: AIPERF_WINDOW_NOTE,
    outputTokPerS: theirs.outputTokPerS ?? ours.outputTokPerS,
    totalTokPerS: theirs.totalTokPerS ?? ours.totalTokPerS,
    requestsPerS: theirs.requestsPerS ?? ours.requestsPerS,
  };
}
