/**
 * Runs a computation written in steps (lib/metrics/steps.ts) with a turn of the event loop
 * between them, as lib/runs/in-turns.ts does for reads (this layer may not import it): the big
 * parts of an ingest's finish and its timeline are computed while the server answers others.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Steps } from "@/lib/metrics/steps";

export async function inTurns<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}
