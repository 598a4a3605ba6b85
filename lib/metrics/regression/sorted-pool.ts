/**
 * The pooled requests of a sliding window of runs, kept sorted (docs/metrics.md §Regressions:
 * each run of a series page is judged against the `window` runs before it, pooled). Moving the
 * window by one run adds that run's sorted values and removes the oldest run's: two linear merges,
 * where re-sorting the pool for every run cost O(N log N) of ten runs' requests each time.
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
