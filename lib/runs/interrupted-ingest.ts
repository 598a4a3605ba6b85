/**
 * Recognising an ingest that died with its process (SIGKILL, OOM, a lost machine). A live ingest
 * touches its run's `updated_at` every few seconds (the heartbeat); a run still `ingesting` whose
 * heartbeat is older than the stale threshold cannot belong to a live ingest on any instance, so
 * the sweeper marks it `failed`. Its raw files are untouched, so POST /reingest completes it.
 */
import type { Db } from "@/lib/store/db";

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
    .where("status", "=", "ingesting")
    .execute();
}

/**
 * Marks every run whose ingest heartbeat stopped more than `staleMs` ago as failed; returns how
 * many. The `status = 'ingesting'` guard in the same statement keeps it from overwriting an
 * ingest that committed meanwhile.
 */
export async function failInterruptedIngests(db: Db, staleMs: number, now = Date.now()): Promise<number> {
  const result = await db
    .updateTable("runs")
    .set({ status: "failed", error: INTERRUPTED_MESSAGE, updated_at: now })
    .where("status", "=", "ingesting")
    .where("updated_at", "<", now - staleMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Claims a run for re-ingest: `ingesting` only if no ingest holds it. One statement, so two
 * concurrent re-ingest requests cannot both win (they would clear each other's rows).
 */
export async function claimForIngest(db: Db, runId: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable("runs")
    .set({ status: "ingesting", error: null, updated_at: now })
    .where("id", "=", runId)
    .where("status", "!=", "ingesting")
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
