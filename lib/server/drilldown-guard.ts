import type { Db } from "@/lib/store/db";
import { drilldownPending } from "@/lib/store/runs-repo";
import { jsonError } from "./http";

export interface DrilldownGuardOptions {
  drilldown?: boolean;
  failed?: boolean;
}

/**
 * The answer of a route that reads a run's per-request rows (request lists, timeline, one
 * request, trace, slowest lists, goodput) when those rows are not the run's final ones
 * (docs/http-api.md §Summary ready, drill-down ready):
 *
 * - the run is `ingesting` (an upload still arriving, or a re-ingest rebuilding it: its rows are
 *   being removed and written again), or `ready` with its drill-down still being built:
 *   `409 drilldown_building`, never part of a list;
 * - the run is `failed`: whatever rows an interrupted ingest left are no answer, `409 run_failed`.
 *
 * Null when the route may answer (the run is unknown, or ready with its drill-down stored).
 * `drilldown: false` is for routes that read rows stored before the summary (goodput): they may
 * answer while only the drill-down half is being built. `failed: false` lets a failed run pass
 * (a chart of a failed run is simply not there).
 */
export async function drilldownBuildingError(
  db: Db,
  runId: string,
  opts: DrilldownGuardOptions = {},
): Promise<Response | null> {
  const run = await rowsState(db, runId);
  if (!run) return null;
  return stateError(run, opts);
}

type RowsState = Parameters<typeof drilldownPending>[0];

const rowsState = (db: Db, runId: string): Promise<RowsState | undefined> =>
  db
    .selectFrom("runs")
    .select(["status", "summary_ready_at", "drilldown_ready_at"])
    .where("id", "=", runId)
    .executeTakeFirst();

/**
 * A look at the run during a read: null while its rows are still those the read began on, else
 * the 409 the read's answer becomes (`drilldown_building`, or `run_failed`).
 */
export type RowsChanged = () => Promise<Response | null>;

/**
 * `handle` run between two looks at the run: a re-ingest that began while it read (the check
 * before it passed, then the rows went) makes its answer `409 drilldown_building`, never a list
 * of the rows left (a total of 0) or a `404` for rows not yet written again; a run deleted while
 * it read answers `404 not_found`.
 *
 * An answer streamed after `handle` returns (the trace export) reads rows after the second look:
 * `handle` gets `changed`, to look again before each piece it sends (lib/runs/run-trace.ts
 * `untilRowsChange`).
 */
export async function guardedRowsRead(
  db: Db,
  runId: string,
  opts: DrilldownGuardOptions,
  handle: (changed: RowsChanged) => Promise<Response | null>,
): Promise<Response | null> {
  const before = await rowsState(db, runId);
  const refused = before && stateError(before, opts);
  if (refused) return refused;
  const changed: RowsChanged = async () => {
    if (!before) return null;
    const after = await rowsState(db, runId);
    if (!after) return jsonError(404, "not_found", "this run was deleted while it was read");
    if (
      after.status === before.status &&
      after.summary_ready_at === before.summary_ready_at &&
      after.drilldown_ready_at === before.drilldown_ready_at
    )
      return null;
    return (
      stateError(after, opts) ??
      jsonError(409, "drilldown_building", "this run was re-ingested while it was read; ask again")
    );
  };
  let res: Response | null;
  try {
    res = await handle(changed);
  } catch (e) {
    // A re-ingest or delete under way removes what the read had opened (a run file gone from
    // the columnar cache): the read's failure is that change, answered as it, not a 500.
    const refusedMeanwhile = await changed();
    if (refusedMeanwhile) return refusedMeanwhile;
    throw e;
  }
  const refusedAfter = await changed();
  if (!refusedAfter) return res;
  await res?.body?.cancel().catch(() => {});
  return refusedAfter;
}

function stateError(run: RowsState, opts: DrilldownGuardOptions): Response | null {
  if (run.status === "ingesting")
    return jsonError(
      409,
      "drilldown_building",
      "this run is being ingested; ask again once GET /api/runs/{id} is ready with drilldownReadyAt",
    );
  if (run.status === "failed" && (opts.failed ?? true))
    return jsonError(
      409,
      "run_failed",
      "this run failed to ingest, so it has no request rows to serve; POST /api/runs/{id}/reingest to complete it",
    );
  if ((opts.drilldown ?? true) && drilldownPending(run))
    return jsonError(
      409,
      "drilldown_building",
      "this run's drill-down is still being built; ask again once GET /api/runs/{id} has drilldownReadyAt",
    );
  return null;
}
