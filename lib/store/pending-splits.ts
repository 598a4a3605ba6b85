/**
 * An upload made into several runs is stored whole or not at all, across a kill too. While its
 * runs are made one after another, they (and the run the upload was first read into, for a split
 * file) are the members of a sweep marked pending in its meta, whose `updated_at` beats as a
 * heartbeat. The upload ends by finishing the sweep (the pending mark goes, with its final name,
 * meta and runs) or by removing it when the runs are no sweep. A pending sweep whose heartbeat
 * stopped belongs to a process that died mid-split: the sweeper removes it with every member run,
 * so no orphan `ready` run of a half-stored upload stays (a client that got no answer uploads
 * again).
 */
import type { Db } from "./db";
import { heartbeatIntervalMs } from "./interrupted-ingest";
import { deleteRun } from "./runs-repo";
import { setMembers } from "./sweeps-repo";

/** The key in a sweep's meta that marks it pending. */
const PENDING_KEY = "pendingUpload";
const PENDING_MARK = `%"${PENDING_KEY}":true%`;

/** Opens the pending sweep of an upload's runs, holding `runIds` already made. */
export async function beginPendingSplit(db: Db, id: string, name: string, runIds: string[]): Promise<void> {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("sweeps")
      .values({ id, name, created_at: now, updated_at: now, meta: JSON.stringify({ [PENDING_KEY]: true }) })
      .execute();
    await setMembers(trx, id, runIds);
  });
}

/** Adds a run just made to the pending sweep (before its ingest, so a kill during it takes it too). */
export async function addPendingRun(db: Db, id: string, runId: string): Promise<void> {
  const row = await db
    .selectFrom("sweep_runs")
    .select((eb) => eb.fn.max<number>("ord").as("last"))
    .where("sweep_id", "=", id)
    .executeTakeFirst();
  const last = row?.last;
  await db
    .insertInto("sweep_runs")
    .values({ run_id: runId, sweep_id: id, ord: last === null || last === undefined ? 0 : Number(last) + 1 })
    .execute();
}

/** Beats the pending sweep's heartbeat until the returned function is called. */
export function pendingSplitHeartbeat(db: Db, id: string, staleMs: number): () => void {
  const timer = setInterval(() => {
    db.updateTable("sweeps")
      .set({ updated_at: Date.now() })
      .where("id", "=", id)
      .execute()
      .catch(() => {
        // A missed beat is harmless unless the store stays away past the stale threshold.
      });
  }, heartbeatIntervalMs(staleMs));
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Ends the pending mark: the sweep becomes the upload's sweep of `runIds` (in that order), or,
 * when `sweep` is null, goes and leaves its runs ungrouped.
 */
export async function finishPendingSplit(
  db: Db,
  id: string,
  runIds: string[],
  sweep: { name: string; meta: string } | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("sweep_runs").where("sweep_id", "=", id).execute();
    if (!sweep) {
      await trx.deleteFrom("sweeps").where("id", "=", id).execute();
      return;
    }
    await trx
      .updateTable("sweeps")
      .set({ name: sweep.name, meta: sweep.meta, updated_at: Date.now() })
      .where("id", "=", id)
      .execute();
    await setMembers(trx, id, runIds);
  });
}

/** A split that failed in this process: its pending sweep and the given runs go. */
export async function abandonPendingSplit(db: Db, id: string, runIds: string[], tables: readonly string[]) {
  for (const runId of runIds) await deleteRun(db, runId, tables).catch(() => {});
  await db.deleteFrom("sweeps").where("id", "=", id).execute();
}

/**
 * Removes the pending sweeps whose heartbeat is older than `staleMs`, with every member run (the
 * upload of a process that died mid-split); returns the removed run ids.
 */
export async function dropInterruptedSplits(
  db: Db,
  staleMs: number,
  tables: readonly string[],
  now = Date.now(),
): Promise<string[]> {
  const stale = await db
    .selectFrom("sweeps")
    .select("id")
    .where("meta", "like", PENDING_MARK)
    .where("updated_at", "<", now - staleMs)
    .execute();
  const removed: string[] = [];
  for (const { id } of stale) {
    const members = await db.selectFrom("sweep_runs").select("run_id").where("sweep_id", "=", id).execute();
    for (const m of members) {
      await deleteRun(db, m.run_id, tables);
      removed.push(m.run_id);
    }
    // Only while still pending and stale: a split that finished meanwhile keeps its sweep.
    await db
      .deleteFrom("sweeps")
      .where("id", "=", id)
      .where("meta", "like", PENDING_MARK)
      .where("updated_at", "<", now - staleMs)
      .execute();
  }
  return removed;
}
