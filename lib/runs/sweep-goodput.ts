/**
 * Goodput per sweep (docs/metrics.md §Sweeps): each member run's goodput under the SLOs, from the
 * run-goodput service, in load order, and the highest load that still meets every SLO.
 */
import type { Slo } from "@/lib/api/slo";
import type { SweepGoodput } from "@/lib/api/sweep-goodput";
import type { IngestDeps } from "@/lib/ingest/deps";
import { getRun } from "@/lib/store/runs-repo";
import { getSweep } from "@/lib/store/sweeps-repo";
import { readRunFactsBatch } from "./run-facts";
import { runGoodput } from "./run-goodput";

export async function sweepGoodput(
  app: IngestDeps,
  id: string,
  slos: readonly Slo[],
): Promise<SweepGoodput | null> {
  const found = await getSweep(app.store.db, id);
  if (!found) return null;
  const facts = await readRunFactsBatch(app.store, found.runIds);
  const runs: SweepGoodput["runs"] = [];
  for (const runId of found.runIds) {
    const row = await getRun(app.store.db, runId);
    // A run being re-ingested, or failed, has no final request rows to judge (docs/http-api.md).
    const goodput = row?.status === "ready" && (await runGoodput(app.store, runId, slos));
    if (!row || !goodput) continue;
    const f = facts.get(runId);
    runs.push({
      id: runId,
      name: row.name,
      concurrency: f?.concurrency?.value ?? null,
      requestRate: f?.requestRate?.value ?? null,
      meetsAll: goodput.requests > 0 && goodput.checks.every((c) => c.met),
      goodput,
    });
  }
  const load = (r: SweepGoodput["runs"][number]) => r.concurrency ?? r.requestRate ?? -Infinity;
  runs.sort((a, b) => load(a) - load(b));
  const best = runs.filter((r) => r.meetsAll && load(r) > -Infinity).at(-1);
  return {
    slos: [...slos],
    runs,
    highestMeeting: best
      ? { id: best.id, concurrency: best.concurrency, requestRate: best.requestRate }
      : null,
  };
}
