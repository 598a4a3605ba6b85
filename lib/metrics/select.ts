/**
 * Exact percentiles without a full sort (docs/metrics.md §Statistics): quickselect puts the
 * few ranks a percentile reads where an ascending sort would put them, in linear time instead of
 * n log n. Same numbers as sorting, bit for bit: the values at those ranks are the sorted ones
 * (−0 ordered before +0, as a typed-array sort orders them), and the interpolation is
 * `percentileSorted`'s.
 */

/**
 * Rearranges `a[from..to)` so that `a[k]` holds the value an ascending sort would put there,
 * with no larger value before it and no smaller one after. Falls back to sorting the range
 * once partitions stop shrinking (adversarial input), so it stays n log n at worst.
 */
export function selectRank(a: Float64Array, k: number, from = 0, to = a.length): void {
  let lo = from;
  let hi = to - 1;
  let budget = 2 * Math.ceil(Math.log2(to - from + 1)) + 16;
  while (hi > lo) {
    if (budget-- === 0) {
      a.subarray(lo, hi + 1).sort();
      return;
    }
    const p = medianOfThree(a[lo], a[(lo + hi) >>> 1], a[hi]);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < p) i++;
      while (a[j] > p) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function medianOfThree(x: number, y: number, z: number): number {
  if (x < y) return y < z ? y : x < z ? z : x;
  return x < z ? x : y < z ? z : y;
}

/**
 * The values at ascending `ranks` of `a` (finite values, rearranged in place), as an ascending
 * sort of `a` would have them.
 */
export function valuesAtRanks(a: Float64Array, ranks: readonly number[]): number[] {
  const out: number[] = [];
  let from = 0;
  let last = -1;
  let zeros: { below: number; negative: number } | null = null;
  for (const k of ranks) {
    if (k !== last) {
      selectRank(a, k, from, a.length);
      from = k + 1;
      last = k;
    }
    let v = a[k];
    // Partitions compare −0 and +0 as equal; a sort puts every −0 first.
    if (v === 0) {
      zeros ??= countZeros(a);
      v = k < zeros.below + zeros.negative ? -0 : 0;
    }
    out.push(v);
  }
  return out;
}

function countZeros(a: Float64Array): { below: number; negative: number } {
  let below = 0;
  let negative = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] < 0) below++;
    else if (a[i] === 0 && Object.is(a[i], -0)) negative++;
  }
  return { below, negative };
}

/** Linear-interpolated percentiles (q in [0, 100]) of finite values, rearranged in place. */
export function percentilesOf(a: Float64Array, qs: readonly number[]): number[] {
  const n = a.length;
  if (n === 0) return qs.map(() => NaN);
  if (n === 1) return qs.map(() => a[0]);
  const wanted = new Set<number>();
  for (const q of qs) {
    const rank = (q / 100) * (n - 1);
    wanted.add(Math.floor(rank));
    wanted.add(Math.ceil(rank));
  }
  const ranks = [...wanted].sort((x, y) => x - y);
  const at = new Map<number, number>();
  valuesAtRanks(a, ranks).forEach((v, i) => at.set(ranks[i], v));
  return qs.map((q) => {
    const rank = (q / 100) * (n - 1);
    const lo = Math.floor(rank);
    const hi = Math.ceil(rank);
    if (lo === hi) return at.get(lo)!;
    const frac = rank - lo;
    return at.get(lo)! + (at.get(hi)! - at.get(lo)!) * frac;
  });
}
