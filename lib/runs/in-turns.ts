/**
 * Runs a computation written in steps (lib/metrics/steps.ts) with a turn of the event loop
 * between its steps: a big run's statistics, report or timeline never hold the server in one
 * piece, and the answer is the one `atOnce` gives.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { sortInSteps } from "@/lib/metrics/stats";
import type { Steps } from "@/lib/metrics/steps";

export async function inTurns<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}

/** `values.sort()`, the same bytes, in steps with a turn of the event loop between them. */
export function sortValuesInTurns(values: Float64Array): Promise<Float64Array> {
  return inTurns(sortInSteps(values));
}
