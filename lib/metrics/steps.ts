/**
 * Computations in steps: a long computation written as a generator that yields between its
 * pieces, so a server can give other requests a turn between them (lib/runs/in-turns.ts) while a
 * test or a script takes the answer at once. Either way the answer is the same: the steps are
 * the same code run in the same order.
 */
export type Steps<T> = Generator<void, T, void>;

/** The answer of `steps`, computed without a pause. */
export function atOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Merges the sorted runs of `width` values of `a` pairwise until one run is left, in steps of
 * `step` values taken: `before(x, y)` when x goes before y (on a tie the left run's value goes
 * first, so the merge is stable). The sorted values, in `a` or a second array of its length.
 */
export function* mergeRunsInSteps<T extends Float64Array | Int32Array>(
  a: T,
  width: number,
  before: (x: number, y: number) => boolean,
  step: number,
): Steps<T> {
  const n = a.length;
  let src = a;
  let dst = new (a.constructor as new (n: number) => T)(n);
  let work = 0;
  for (let w = width; w < n; w *= 2) {
    for (let lo = 0; lo < n; lo += 2 * w) {
      const mid = Math.min(lo + w, n);
      const hi = Math.min(lo + 2 * w, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        dst[k++] = before(src[j], src[i]) ? src[j++] : src[i++];
        if (++work === step) {
          work = 0;
          yield;
        }
      }
      dst.set(src.subarray(i, mid), k);
      dst.set(src.subarray(j, hi), k + (mid - i));
    }
    [src, dst] = [dst, src];
  }
  return src;
}
