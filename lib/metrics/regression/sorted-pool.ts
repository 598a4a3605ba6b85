/**
 * The pooled requests of a sliding window of runs, kept sorted (docs/metrics.md §Regressions:
 * each run of a series page is judged against the `window` runs before it, pooled). Moving the
 * window by one run adds that run's sorted values and removes the oldest run's in one linear pass
 * (`slideSorted`), where re-sorting the pool for every run cost O(N log N) of ten runs' requests
 * each time.
 */

/** a ∪ b of two ascending arrays, ascending. */
export function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  out.set(a.subarray(i), k);
  out.set(b.subarray(j), k + a.length - i);
  return out;
}

/**
 * One ascending array of ascending parts (the runs of a baseline pooled), merged pairwise in
 * rounds: linear in the values per round and log₂(parts) rounds, where a sort of the pooled values
 * is n·log n. One part is returned as it is.
 */
export function mergeSortedRuns(parts: Float64Array[]): Float64Array {
  if (parts.length === 0) return new Float64Array(0);
  let round = parts;
  while (round.length > 1) {
    const next: Float64Array[] = [];
    for (let p = 0; p < round.length; p += 2)
      next.push(p + 1 < round.length ? mergeSorted(round[p], round[p + 1]) : round[p]);
    round = next;
  }
  return round[0];
}

/**
 * pool − part, each value of part taken once, both ascending; part must be a sub-multiset of
 * pool (it is one of the runs pooled), else this throws rather than return a wrong pool.
 */
export function removeSorted(pool: Float64Array, part: Float64Array): Float64Array {
  const out = new Float64Array(pool.length - part.length);
  let j = 0;
  let k = 0;
  for (let i = 0; i < pool.length; i++) {
    if (j < part.length && pool[i] === part[j]) j++;
    else {
      if (k === out.length) break;
      out[k++] = pool[i];
    }
  }
  if (j !== part.length || k !== out.length) throw new Error("removeSorted: part is not within the pool");
  return out;
}

/**
 * pool − leaving + entering in one pass and one allocation (a slide of the window by one run):
 * the same as removeSorted(mergeSorted(pool, entering), leaving), at half the passes over a pool
 * of ten million values. leaving must be a sub-multiset of pool, else this throws.
 */
export function slideSorted(pool: Float64Array, leaving: Float64Array, entering: Float64Array): Float64Array {
  const out = new Float64Array(pool.length - leaving.length + entering.length);
  let i = 0;
  let j = 0;
  let e = 0;
  let k = 0;
  while (i < pool.length || e < entering.length) {
    if (i < pool.length && j < leaving.length && pool[i] === leaving[j]) {
      i++;
      j++;
    } else if (e >= entering.length || (i < pool.length && pool[i] <= entering[e])) out[k++] = pool[i++];
    else out[k++] = entering[e++];
  }
  if (j !== leaving.length || k !== out.length)
    throw new Error("slideSorted: leaving is not within the pool");
  return out;
}
