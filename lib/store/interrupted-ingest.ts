/**
 * Recognising an ingest that died with its process (SIGKILL, OOM, a lost machine). A live ingest
 * touches its run's `updated_at` every few seconds (the heartbeat); a run still `ingesting` whose
 * heartbeat is older than the stale threshold cannot belong to a live ingest on any instance, so
 * the sweeper marks it `failed`. Its raw files are untouched, so POST /reingest completes it.
 *
 * The same holds between "summary ready" and "drill-down ready" (migration 012): the run is
 * `ready` with `drilldown_ready_at` null, and its ingest still beats. One whose beat stopped lost
 * its drill-down half: the sweeper fails it too, taking its summary and charts with it, so it is
 * never shown half built, and re-ingest completes it from its raw files.
 */
import { sql, type ExpressionBuilder } from "kysely";
import type { Db } from "@/lib/store/db";
import type { Database } from "@/lib/store/schema";

export const INTERRUPTED_MESSAGE =
  "ingest was interrupted (the server stopped mid-ingest); re-ingest to complete the run";

/** How often a live ingest refreshes its heartbeat: well inside the stale threshold. */
export function heartbeatIntervalMs(staleMs: number): number {
  return Math.max(100, Math.floor(staleMs / 4));
}

/** Refreshes the heartbeat of a run while it is ingesting. */
export async function touchIngest(db: Db, runId: string, now = Date.now()): Promise<void> {
  await db
    .updateTable("runs")
    .set({ updated_at: now })
    .where("id", "=", runId)
    .where((eb) => eb.or([eb("status", "=", "ingesting"), buildingDrilldown(eb)]))
    .execute();
}

/** `ready`, summary committed, drill-down not yet: an ingest still owns the run. */
function buildingDrilldown(eb: ExpressionBuilder<Database, "runs">) {
  return eb.and([
    eb("status", "=", "ready"),
    eb("summary_ready_at", "is not", null),
    eb("drilldown_ready_at", "is", null),
  ]);
}

/**
 * Marks every run whose ingest heartbeat stopped more than `staleMs` ago as failed; returns how
 * many. The `status = 'ingesting'` guard in the same statement keeps it from overwriting an
 * ingest that committed meanwhile.
 */
export async function failInterruptedIngests(db: Db, staleMs: number, now = Date.now()): Promise<number> {
  // A re-ingest (or rebuild) kept the run's earlier summary while it ran; its rows and charts are
  // gone, so the summary goes too: the run reads as any interrupted ingest, never half shown.
  const result = await db
    .updateTable("runs")
    .set({ status: "failed", error: INTERRUPTED_MESSAGE, summary: null, updated_at: now })
    .where("status", "=", "ingesting")
    .where("updated_at", "<", now - staleMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) + (await failInterruptedDrilldowns(db, staleMs, now));
}

/**
 * Fails the runs whose drill-down was being built by a process that died: summary, readiness
 * stamps and chart payloads go, so the run reads as any interrupted ingest (per-request rows are
 * replaced by the re-ingest). The guard in the update keeps a drill-down that committed meanwhile.
 */
async function failInterruptedDrilldowns(db: Db, staleMs: number, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const failed = await trx
      .updateTable("runs")
      .set({
        status: "failed",
        error: INTERRUPTED_MESSAGE,
        summary: null,
        summary_ready_at: null,
        updated_at: now,
      })
      .where((eb) => buildingDrilldown(eb))
      .where("updated_at", "<", now - staleMs)
      .returning("id")
      .execute();
    const ids = failed.map((r) => r.id);
    if (ids.length > 0) await trx.deleteFrom("chart_data").where("run_id", "in", ids).execute();
    return ids.length;
  });
}

/**
 * Removes the runs of uploads a dead process was still receiving: `ingesting`, heartbeat stale,
 * and without file rows (an upload writes them only once every file is stored), so there is
 * nothing to re-ingest and the client never got an answer. Returns the removed run ids.
 */
export async function dropInterruptedUploads(
  db: Db,
  staleMs: number,
  tables: readonly string[],
  now = Date.now(),
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const stale = await trx
      .selectFrom("runs")
      .select("id")
      .where("status", "=", "ingesting")
      .where("updated_at", "<", now - staleMs)
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom("files").select("files.id").whereRef("files.run_id", "=", "runs.id"))),
      )
      .execute();
    const ids = stale.map((r) => r.id);
    if (ids.length === 0) return [];
    for (const table of tables)
      await sql`delete from ${sql.table(table)} where run_id in (${sql.join(ids)})`.execute(trx);
    await trx.deleteFrom("run_column_files").where("run_id", "in", ids).execute();
    await trx.deleteFrom("chart_data").where("run_id", "in", ids).execute();
    await trx.deleteFrom("run_labels").where("run_id", "in", ids).execute();
    await trx.deleteFrom("runs").where("id", "in", ids).where("status", "=", "ingesting").execute();
    return ids;
  });
}

/**
 * Claims a run for re-ingest: `ingesting` only if no ingest holds it. One statement, so two
 * concurrent re-ingest requests cannot both win (they would clear each other's rows).
 */
export async function claimForIngest(db: Db, runId: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable("runs")
    .set({
      status: "ingesting",
      error: null,
      updated_at: now,
      summary_ready_at: null,
      drilldown_ready_at: null,
    })
    .where("id", "=", runId)
    .where("status", "!=", "ingesting")
    .where((eb) => eb.not(buildingDrilldown(eb)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Starts a heartbeat for one ingest; call the returned function when the ingest ends. */
export function startHeartbeat(db: Db, runId: string, staleMs: number): () => void {
  const timer = setInterval(() => {
    touchIngest(db, runId).catch(() => {
      // A missed beat is harmless unless the store stays away past the stale threshold.
    });
  }, heartbeatIntervalMs(staleMs));
  timer.unref();
  return () => clearInterval(timer);
}
