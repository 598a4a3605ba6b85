/**
 * The comparability doctor over stored runs (docs/metrics.md §Comparable runs): each pair's
 * report from the runs' summaries and, where request rows exist, their per-request token counts.
 * Compare, the series verdicts and the gate all ask here, so one pair has one answer.
 */
import type { AcceptedDifferences, ComparabilityReport } from "@/lib/api/comparability-schema";
import type { RunSummary } from "@/lib/api/schemas";
import { diagnose } from "@/lib/metrics/run-differences";
import { sortInSteps } from "@/lib/metrics/stats";
import type { Db } from "@/lib/store/db";
import { runTokenCounts, type RunTokenCounts } from "@/lib/store/token-counts";
import { inTurns } from "./in-turns";

/**
 * The counts sorted in steps, with turns between (lib/metrics/stats.ts): the doctor's KS test
 * then takes them as they are, where sorting a big run's counts at once held the server.
 */
async function ascendingCounts(read: Promise<RunTokenCounts>): Promise<RunTokenCounts> {
  const { input, output } = await read;
  return {
    input: input && (await inTurns(sortInSteps(input))),
    output: output && (await inTurns(sortInSteps(output))),
  };
}

/** Token counts per run, read once however many pairs a run is in. */
export function tokenCountsCache(db: Db) {
  const cache = new Map<string, Promise<RunTokenCounts>>();
  return (id: string) => {
    if (!cache.has(id)) cache.set(id, ascendingCounts(runTokenCounts(db, id)));
    return cache.get(id)!;
  };
}

export async function diagnosePair(
  tokens: ReturnType<typeof tokenCountsCache>,
  baseline: RunSummary,
  run: RunSummary,
  accept: AcceptedDifferences,
): Promise<ComparabilityReport> {
  const [a, b] = await Promise.all([tokens(baseline.id), tokens(run.id)]);
  return diagnose(baseline, run, { accept, tokens: [a, b] });
}
