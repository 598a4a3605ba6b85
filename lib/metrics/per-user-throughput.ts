/**
 * tok/s per user, interactivity (docs/metrics.md §Per-user throughput): 1000 ÷ TPOT ms of each
 * request, aiperf's output_token_throughput_per_user, and its statistics taken over requests the
 * way aiperf takes them (numpy's percentile of the per-request values). So p90 is the 90th
 * percentile: 90% of requests were at or below it. aiperf does not mirror percentiles of a
 * larger-is-better metric, and neither do we: one "p90" means one number in aiperf's summary,
 * the run page, a sweep point and a comparison. Pure.
 */
import { computeStats, computeStatsInSteps, statsOfSortedInSteps, type Stats } from "./stats";
import { atOnce, type Steps } from "./steps";

/** One request's interactivity; a request with no TPOT, or TPOT 0 (one token), has none. */
export function tokPerUserOf(tpotMs: number): number | null {
  return Number.isFinite(tpotMs) && tpotMs > 0 ? 1000 / tpotMs : null;
}

/** Statistics of the per-request values, or null when no request has a TPOT. */
export function tokPerUserStats(tpotMs: ArrayLike<number>): Stats | null {
  return computeStats(perUserValues(tpotMs));
}

/**
 * tokPerUserStats of TPOTs already finite and ascending (a RequestLog's `sortedMeasured`, which
 * the summary sorts anyway): the same statistics, bit for bit, without a second sort. 1000 ÷ x
 * never grows as x does, rounding included, so the per-request values in ascending order are the
 * positive TPOTs' from the largest down.
 */
export function tokPerUserStatsOfSorted(sortedTpotMs: Float64Array): Stats | null {
  return atOnce(tokPerUserStatsOfSortedInSteps(sortedTpotMs));
}

/** TPOTs a step of `tokPerUserStatsOfSortedInSteps` turns into per-user values. */
const PER_USER_STEP = 16_384;

/** `tokPerUserStatsOfSorted` in steps: the values made and summed in steps. The same statistics. */
export function* tokPerUserStatsOfSortedInSteps(sortedTpotMs: Float64Array): Steps<Stats | null> {
  const n = sortedTpotMs.length;
  let lo = 0;
  let hi = n;
  // The first positive TPOT (−0 and +0 have no per-user value).
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedTpotMs[mid] > 0) hi = mid;
    else lo = mid + 1;
  }
  const perUser = new Float64Array(n - lo);
  let m = 0;
  for (let i = n - 1; i >= lo; i--) {
    if ((n - 1 - i) % PER_USER_STEP === PER_USER_STEP - 1) yield;
    // Infinite only for the smallest TPOTs, so what is skipped ends the ascending values.
    const v = 1000 / sortedTpotMs[i];
    if (Number.isFinite(v)) perUser[m++] = v;
  }
  return yield* statsOfSortedInSteps(perUser.subarray(0, m));
}

/** tokPerUserStats in steps (./stats.ts `computeStatsInSteps`): the same statistics. */
export function* tokPerUserStatsInSteps(tpotMs: ArrayLike<number>): Steps<Stats | null> {
  const perUser = perUserValues(tpotMs);
  yield;
  return yield* computeStatsInSteps(perUser);
}

function perUserValues(tpotMs: ArrayLike<number>): number[] {
  const perUser: number[] = [];
  for (let i = 0; i < tpotMs.length; i++) {
    const v = tokPerUserOf(tpotMs[i]);
    if (v !== null) perUser.push(v);
  }
  return perUser;
}

export type TokPerUserStat = "mean" | "p50" | "p90" | "p99";

/**
 * From TPOT statistics alone (no per-request values): 1000 / x reverses order and does not
 * commute with a mean, so the p90 of tok/s/user would be 1000 / the p10 of TPOT, which no summary
 * of TPOT keeps, and the mean of reciprocals is not the reciprocal of the mean. Only the median
 * carries over (exactly for an odd count; between the two middle values otherwise).
 */
export function tokPerUserFromTpotStat(
  stat: TokPerUserStat,
  tpotMs: number | null | undefined,
): number | null {
  if (stat !== "p50" || tpotMs === null || tpotMs === undefined) return null;
  return tokPerUserOf(tpotMs);
}
