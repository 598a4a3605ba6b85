/**
 * Statistics shared by every view (docs/metrics.md §Statistics): percentiles interpolate linearly between
 * closest ranks, exactly like numpy's default (`np.percentile(x, q)`), which is also what aiperf
 * and the TRT-LLM time-breakdown tool use. Non-finite values are dropped before anything else.
 */
import { percentilesOf } from "./select";
import { mergeRunsInSteps, type Steps } from "./steps";

export interface Stats {
  count: number;
  mean: number;
  min: number;
  max: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
}

/** Σ of the known values; null when none is known (0 is a real answer). */
export function sumKnown(values: Iterable<number | null | undefined>): number | null {
  let total: number | null = null;
  for (const v of values) if (v !== null && v !== undefined) total = (total ?? 0) + v;
  return total;
}

/** Linear-interpolated percentile of an ascending array; q in [0, 100]. */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  if (n === 1) return sorted[0];
  const rank = (q / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  if (lo === hi) return sorted[lo];
  const frac = rank - lo;
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

export function percentile(values: ArrayLike<number>, q: number): number {
  return percentileSorted(sortedFinite(values), q);
}

export function sortedFinite(values: ArrayLike<number>): Float64Array {
  let n = 0;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) out[n++] = v;
  }
  return out.subarray(0, n).sort();
}

/**
 * Elements one step of `sortInSteps` handles: a run of this many sorted natively, or this many
 * taken in a merge. A 200,000-value sort is then some 40 steps of well under a millisecond each.
 */
export const SORT_STEP = 16_384;

/**
 * Whether an ascending typed-array sort puts `a` before `b` (its order: numbers ascending, −0
 * before +0, NaN last), so a merge by it leaves what `Float64Array.prototype.sort` leaves.
 */
function sortsBefore(a: number, b: number): boolean {
  if (a < b) return true;
  if (a === b) return a === 0 && Object.is(a, -0) && !Object.is(b, -0);
  return !Number.isNaN(a) && Number.isNaN(b);
}

/**
 * `a.sort()` in steps (lib/metrics/steps.ts), in place, the same array after it byte for byte:
 * runs of `SORT_STEP` values sorted natively, one a step, then merged pairwise, a step every
 * `SORT_STEP` values taken. A server sorting a big run's values this way gives other requests a
 * turn between the steps (lib/runs/in-turns.ts) instead of holding them for the whole sort.
 */
export function* sortInSteps(a: Float64Array): Steps<Float64Array> {
  const n = a.length;
  if (n <= SORT_STEP) return a.sort();
  for (let lo = 0; lo < n; lo += SORT_STEP) {
    a.subarray(lo, Math.min(n, lo + SORT_STEP)).sort();
    yield;
  }
  // The left value on a tie: equal values are the same bytes, so which one goes first does not show.
  const src = yield* mergeRunsInSteps(a, SORT_STEP, sortsBefore, SORT_STEP);
  if (src !== a) a.set(src);
  return a;
}

/**
 * Values a pass over values reads in one step (`finiteInSteps`, `statsOfSortedInSteps`, a
 * histogram's bins, a sum): a pass over 200,000 values is then some 13 steps.
 */
export const PASS_STEP = 16_384;

/**
 * The finite values of `values`, or of `values` at the positions `idx` lists, in that order, in
 * steps of PASS_STEP values read. The array may be a view of a longer one: sort it, sum it, let
 * it go; a value kept long is better copied to its exact length.
 */
export function* finiteInSteps(values: ArrayLike<number>, idx?: ArrayLike<number>): Steps<Float64Array> {
  const n = idx ? idx.length : values.length;
  const out = new Float64Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % PASS_STEP === 0) yield;
    const v = idx ? values[idx[i]] : values[i];
    if (Number.isFinite(v)) out[m++] = v;
  }
  return out.subarray(0, m);
}

/** Σ of `values` in their order (the same bits as one loop), PASS_STEP values a step. */
export function* sumInSteps(values: ArrayLike<number>): Steps<number> {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    if (i > 0 && i % PASS_STEP === 0) yield;
    sum += values[i];
  }
  return sum;
}

/** `sortedFinite` in steps: the same values in the same order. */
export function* sortedFiniteInSteps(
  values: ArrayLike<number>,
  idx?: ArrayLike<number>,
): Steps<Float64Array> {
  const finite = yield* finiteInSteps(values, idx);
  yield;
  return yield* sortInSteps(finite);
}

/**
 * `computeStats` in steps: the same statistics, bit for bit (the mean summed in ascending order,
 * which `computeStats` matches where it sums in another, and the ranks read from the sorted
 * values, which its selection finds). With `idx`, of the values at those positions (`pick`).
 */
export function* computeStatsInSteps(
  values: ArrayLike<number>,
  idx?: ArrayLike<number>,
): Steps<Stats | null> {
  return yield* statsOfSortedInSteps(yield* sortedFiniteInSteps(values, idx));
}

/** Stats of the finite values, or null when there are none. */
export function computeStats(values: ArrayLike<number>): Stats | null {
  const finite = finiteValues(values);
  if (finite.length === 0) return null;
  // A sort costs n log n; selecting the five ranks costs n. The mean, though, is summed in
  // ascending order (statsOfSorted), so selection serves only where any order gives that sum.
  const sum = orderFreeSum(finite);
  if (sum === null) return statsOfSorted(finite.sort());
  const n = finite.length;
  const [min, p50, p75, p90, p95, p99, max] = percentilesOf(finite, [0, 50, 75, 90, 95, 99, 100]);
  return { count: n, mean: sum / n, min, max, p50, p75, p90, p95, p99 };
}

function finiteValues(values: ArrayLike<number>): Float64Array {
  let n = 0;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) out[n++] = v;
  }
  return out.subarray(0, n);
}

/**
 * The sum when every partial sum is exact whatever the order (integers whose magnitudes add up
 * to at most 2^53, as token counts do), else null.
 */
function orderFreeSum(values: Float64Array): number | null {
  let sum = 0;
  let magnitude = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isInteger(v)) return null;
    sum += v;
    magnitude += Math.abs(v);
    if (magnitude > Number.MAX_SAFE_INTEGER) return null;
  }
  return sum;
}

/** Stats of values already sorted ascending and finite (so a caller that needs them sorted sorts once). */
export function statsOfSorted(sorted: ArrayLike<number>): Stats | null {
  const n = sorted.length;
  if (n === 0) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  return statsWithSum(sorted, sum);
}

/** `statsOfSorted` in steps: its sum PASS_STEP values a step, in the same order (the same bits). */
export function* statsOfSortedInSteps(sorted: ArrayLike<number>): Steps<Stats | null> {
  if (sorted.length === 0) return null;
  return statsWithSum(sorted, yield* sumInSteps(sorted));
}

function statsWithSum(sorted: ArrayLike<number>, sum: number): Stats {
  const n = sorted.length;
  return {
    count: n,
    mean: sum / n,
    min: sorted[0],
    max: sorted[n - 1],
    p50: percentileSorted(sorted, 50),
    p75: percentileSorted(sorted, 75),
    p90: percentileSorted(sorted, 90),
    p95: percentileSorted(sorted, 95),
    p99: percentileSorted(sorted, 99),
  };
}
