/**
 * Loads the runs of a comparison and computes everything the compare page shows that is not a
 * chart payload: deltas against the baseline, collector mismatches, hit rates side by side.
 */
import type { CompareQuery, CompareResponse } from "@/lib/api/compare-schemas";
import type { RunSummary } from "@/lib/api/schemas";
import { collectorMismatches } from "@/lib/metrics/collectors-mismatch";
import { absentMetrics, compareRuns } from "@/lib/metrics/compare";
import { endpointHitRates, roleHitRates } from "@/lib/metrics/compare-endpoints";
import type { Db } from "@/lib/store/db";
import { chartKeys } from "@/lib/store/runs-repo";
import { readRunSummary } from "./read-run";

export async function loadComparison(db: Db, query: CompareQuery): Promise<CompareResponse> {
  const loaded = await Promise.all(query.runs.map((id) => readRunSummary(db, id)));
  const runs = loaded.filter((r): r is RunSummary => r !== null && r.status === "ready");
  const missing = query.runs.filter((id) => !runs.some((r) => r.id === id));
  const baseline = runs.find((r) => r.id === query.baseline)?.id ?? runs[0]?.id ?? "";
  return {
    baseline,
    stat: query.stat,
    runs,
    missing,
    chartKeys: await chartKeys(
      db,
      runs.map((r) => r.id),
    ),
    rows: compareRuns(runs, baseline, query.stat),
    absent: absentMetrics(runs, query.stat),
    collectorMismatches: collectorMismatches(runs),
    hitRates: { byEndpoint: endpointHitRates(runs), byRole: roleHitRates(runs) },
  };
}
