/**
 * The in-memory half of the latency view's stored "slowest requests" lists: from the request
 * columns, each list's cut-off value and the start times of the requests that can be on it, so
 * the stored rows need only be read for those few.
 */
import { SLOWEST_LIMIT, type SLOWEST_SORTS } from "@/lib/api/aiperf-requests";
import { FLAG_ERROR, FLAG_WARMUP, type RequestColumn, type RequestLog } from "./requests-log";
import { atOnce, type Steps } from "./steps";

const LOG_COLUMN: Record<(typeof SLOWEST_SORTS)[number], RequestColumn> = {
  ttft: "ttftMs",
  e2e: "e2eMs",
  itl: "itlMs",
};

/** Beyond this many tied candidates the list is read by the cut-off alone (a scan of the run's rows). */
const MAX_CANDIDATES = 1000;

/**
 * Requests a step of the passes below takes: a server building the lists of a 200,000-request
 * upload gives other requests a turn between the steps (lib/ingest/in-turns.ts).
 */
export const SLOWEST_STEP = 8192;

const measured = (log: RequestLog, i: number) => (log.flags[i] & (FLAG_WARMUP | FLAG_ERROR)) === 0;

/**
 * The `limit` largest values of `col` over profiling requests without an error (the population
 * of the request list), smallest last; fewer when fewer requests recorded the value.
 */
export function largestMeasured(log: RequestLog, col: Float64Array, limit: number): number[] {
  return atOnce(largestMeasuredInSteps(log, col, limit));
}

/** `largestMeasured` in steps of SLOWEST_STEP requests: the same values. */
export function* largestMeasuredInSteps(log: RequestLog, col: Float64Array, limit: number): Steps<number[]> {
  const top: number[] = [];
  for (let i = 0; i < log.length; i++) {
    if (i > 0 && i % SLOWEST_STEP === 0) yield;
    if (!measured(log, i)) continue;
    const v = col[i];
    if (Number.isNaN(v) || (top.length === limit && v <= top[limit - 1])) continue;
    let j = top.length < limit ? top.length : limit - 1;
    while (j > 0 && top[j - 1] < v) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = v;
  }
  return top;
}

/** Measured requests: the `total` of every list. */
export function measuredCount(log: RequestLog): number {
  return atOnce(measuredCountInSteps(log));
}

/** `measuredCount` in steps of SLOWEST_STEP requests. */
export function* measuredCountInSteps(log: RequestLog): Steps<number> {
  let total = 0;
  for (let i = 0; i < log.length; i++) {
    if (i > 0 && i % SLOWEST_STEP === 0) yield;
    if (measured(log, i)) total++;
  }
  return total;
}

export interface SlowestCandidates {
  /** The limit-th largest value: no request below it is on the list. */
  atLeast: number;
  /** Every measured request at or above the cut-off */
  count: number;
  /**
   * Their starts relative to `originMs` (as stored); null when there are too many candidates or
   * one has no start, and the list must be read by the cut-off alone.
   */
  starts: number[] | null;
}

/** The candidates of one list, or null when no measured request recorded the value. */
export function slowestCandidates(
  log: RequestLog,
  sort: (typeof SLOWEST_SORTS)[number],
  originMs: number,
): SlowestCandidates | null {
  return atOnce(slowestCandidatesInSteps(log, sort, originMs));
}

/** `slowestCandidates` in steps: each of its two passes SLOWEST_STEP requests a step. The same candidates. */
export function* slowestCandidatesInSteps(
  log: RequestLog,
  sort: (typeof SLOWEST_SORTS)[number],
  originMs: number,
): Steps<SlowestCandidates | null> {
  const col = log.column(LOG_COLUMN[sort]);
  const top = yield* largestMeasuredInSteps(log, col, SLOWEST_LIMIT);
  if (top.length === 0) return null;
  yield;
  const atLeast = top[top.length - 1];
  const starts = new Set<number>();
  let count = 0;
  for (let i = 0; i < log.length; i++) {
    if (i > 0 && i % SLOWEST_STEP === 0) yield;
    if (!measured(log, i) || !(col[i] >= atLeast)) continue;
    const start = log.cols.startMs[i] - originMs;
    if (++count > MAX_CANDIDATES || !Number.isFinite(start)) return { atLeast, count, starts: null };
    starts.add(start);
  }
  return { atLeast, count, starts: [...starts] };
}
