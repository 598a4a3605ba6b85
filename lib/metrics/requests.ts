/**
 * The `requests` block of the run summary (docs/metrics.md §Requests; docs/http-api.md) from aiperf
 * records. Latency and token statistics use profiling-phase successful records only; warmup and error
 * records are counted separately (counting them in would let a 20 s failed request or a cold
 * warmup request move p99). Duration and throughput follow aiperf's own definitions:
 * duration = last profiling response − first profiling request; request throughput =
 * successful requests / duration; output token throughput = Σ output tokens / duration.
 */
import type { RequestsBlock } from "@/lib/api/schemas";
import { computeStatsInSteps, finiteInSteps, sortInSteps, statsOfSortedInSteps, sumInSteps } from "./stats";
import { atOnce, type Steps } from "./steps";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP, type RequestLog } from "./requests-log";

export function computeRequestsBlock(log: RequestLog): RequestsBlock {
  return atOnce(computeRequestsBlockInSteps(log));
}

/** Requests the counting pass of `computeRequestsBlockInSteps` takes in a step. */
const COUNT_STEP = 8192;

/**
 * `computeRequestsBlock` in steps: the counts (COUNT_STEP requests a step), then each token
 * column's statistics (its values picked, sorted and summed in steps of `PASS_STEP`, ./stats.ts)
 * and the latency statistics' sums in steps (the latency columns are sorted already,
 * `sortedMeasuredInSteps`). The same block.
 */
export function* computeRequestsBlockInSteps(log: RequestLog): Steps<RequestsBlock> {
  let count = 0;
  let errorCount = 0;
  let warmupCount = 0;
  let cancelledCount = 0;
  let first = Infinity;
  let last = -Infinity;
  const { startMs, endMs } = log.cols;
  for (let i = 0; i < log.length; i++) {
    if (i > 0 && i % COUNT_STEP === 0) yield;
    const f = log.flags[i];
    if (f & FLAG_WARMUP) {
      warmupCount++;
      continue;
    }
    count++;
    if (f & FLAG_ERROR) errorCount++;
    if (f & FLAG_CANCELLED) cancelledCount++;
    if (startMs[i] < first) first = startMs[i];
    if (endMs[i] > last) last = endMs[i];
  }
  const ok = log.measuredIndices();
  yield;
  // The token statistics in steps of values read, sorted and summed (`computeStatsInSteps`): the
  // same bits as `computeStats` of the picked values, which selected the ranks in one piece.
  const inputTokens = yield* computeStatsInSteps(log.column("inputTokens"), ok);
  yield;
  const outputTokens = yield* finiteInSteps(log.column("outputTokens"), ok);
  // Summed in request order, before the sort.
  const outputTotal = yield* sumInSteps(outputTokens);
  yield;
  const outputStats = yield* statsOfSortedInSteps(yield* sortInSteps(outputTokens));
  yield;
  const ttftMs = yield* statsOfSortedInSteps(log.sortedMeasured("ttftMs"));
  const e2eMs = yield* statsOfSortedInSteps(log.sortedMeasured("e2eMs"));
  const itlMs = yield* statsOfSortedInSteps(log.sortedMeasured("itlMs"));
  const durationS =
    Number.isFinite(first) && Number.isFinite(last) && last > first ? (last - first) / 1000 : null;
  return {
    source: "aiperf",
    count,
    errorCount,
    warmupCount,
    cancelledCount,
    durationS,
    ttftMs,
    e2eMs,
    itlMs,
    inputTokens,
    outputTokens: outputStats,
    requestThroughputPerS: durationS ? ok.length / durationS : null,
    outputTokenThroughputPerS: durationS ? outputTotal / durationS : null,
    outputTokensTotal: ok.length > 0 ? outputTotal : null,
  };
}
