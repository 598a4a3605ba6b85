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
