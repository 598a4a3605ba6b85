import type { Db } from "@/lib/store/db";
import { drilldownPending } from "@/lib/store/runs-repo";
import { jsonError } from "./http";

/**
 * The answer of a drill-down route (request lists, timeline, one request, trace) while the run's
 * drill-down is still being built (docs/http-api.md): `409 drilldown_building`, never part of
 * a list. Null when the route may answer (the run is unknown, not ready, or its drill-down is).
 */
export async function drilldownBuildingError(db: Db, runId: string): Promise<Response | null> {
  const run = await db
    .selectFrom("runs")
    .select(["status", "summary_ready_at", "drilldown_ready_at"])
    .where("id", "=", runId)
    .executeTakeFirst();
  if (!run || !drilldownPending(run)) return null;
  return jsonError(
    409,
    "drilldown_building",
    "this run's drill-down is still being built; ask again once GET /api/runs/{id} has drilldownReadyAt",
  );
}
