/**
 * A run's facts as the API serves them (docs/metrics.md §Run facts): every user edit over what
 * the files said, each with its source. Other services (sweeps, comparisons) read facts here.
 */
import type { RunFacts } from "@/lib/api/run-facts";
import type { Db } from "@/lib/store/db";
import { getRunFacts } from "@/lib/store/run-facts";

interface Store {
  db: Db;
}

/** One run's facts; null when the run does not exist. */
export async function readRunFacts(store: Store, runId: string): Promise<RunFacts | null> {
  return (await getRunFacts(store.db, [runId])).get(runId) ?? null;
}

/** Many runs' facts in a few queries; a run that does not exist has no entry. */
export async function readRunFactsBatch(
  store: Store,
  runIds: readonly string[],
): Promise<Map<string, RunFacts>> {
  return getRunFacts(store.db, [...new Set(runIds)]);
}
