/**
 * Sweep queries: a sweep is a name plus an ordered list of runs. A run is in at most one sweep;
 * grouping it again moves it. Removing a run from a sweep, or deleting the sweep, keeps the run.
 */
import type { Db, Trx } from "./db";
import type { SweepsTable } from "./tables/sweeps";

export type SweepRow = SweepsTable;

export interface SweepWithRuns {
  sweep: SweepRow;
  runIds: string[];
}

/** Makes `runIds`, in that order, the members of the sweep, moving any of them out of another. */
export async function setMembers(trx: Trx, sweepId: string, runIds: string[]): Promise<void> {
  await trx.deleteFrom("sweep_runs").where("sweep_id", "=", sweepId).execute();
  if (runIds.length === 0) return;
  await trx.deleteFrom("sweep_runs").where("run_id", "in", runIds).execute();
  await trx
    .insertInto("sweep_runs")
    .values(runIds.map((run_id, ord) => ({ run_id, sweep_id: sweepId, ord })))
    .execute();
}

/** Runs among `runIds` that exist (ready or failed; a run still ingesting can be grouped too). */
export async function existingRunIds(db: Db, runIds: string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const rows = await db.selectFrom("runs").select("id").where("id", "in", runIds).execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertSweep(db: Db, sweep: SweepRow, runIds: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("sweeps").values(sweep).execute();
    await setMembers(trx, sweep.id, runIds);
  });
}

export async function getSweep(db: Db, id: string): Promise<SweepWithRuns | undefined> {
  const sweep = await db.selectFrom("sweeps").selectAll().where("id", "=", id).executeTakeFirst();
  if (!sweep) return undefined;
  const members = await db
    .selectFrom("sweep_runs")
    .select("run_id")
    .where("sweep_id", "=", id)
    .orderBy("ord")
    .execute();
  return { sweep, runIds: members.map((m) => m.run_id) };
}

/** Newest first, each with its run count. */
export async function listSweeps(db: Db, limit: number): Promise<Array<SweepRow & { runCount: number }>> {
  const rows = await db
    .selectFrom("sweeps")
    .leftJoin("sweep_runs", "sweep_runs.sweep_id", "sweeps.id")
    .select(["sweeps.id", "sweeps.name", "sweeps.created_at", "sweeps.updated_at", "sweeps.meta"])
    .select((eb) => eb.fn.count<number>("sweep_runs.run_id").as("n"))
    // An upload still making its runs (lib/store/pending-splits.ts) is no sweep yet.
    .where("sweeps.meta", "not like", '%"pendingUpload":true%')
    .groupBy(["sweeps.id", "sweeps.name", "sweeps.created_at", "sweeps.updated_at", "sweeps.meta"])
    .orderBy("sweeps.created_at", "desc")
    .orderBy("sweeps.id", "desc")
    .limit(limit)
    .execute();
  return rows.map(({ n, ...r }) => ({ ...r, runCount: Number(n) }));
}

/** Renames the sweep and/or replaces its runs; false when there is no such sweep. */
export async function updateSweep(
  db: Db,
  id: string,
  change: { name?: string; runIds?: string[] },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const found = await trx.selectFrom("sweeps").select("id").where("id", "=", id).executeTakeFirst();
    if (!found) return false;
    await trx
      .updateTable("sweeps")
      .set({ updated_at: Date.now(), ...(change.name === undefined ? {} : { name: change.name }) })
      .where("id", "=", id)
      .execute();
    if (change.runIds) await setMembers(trx, id, change.runIds);
    return true;
  });
}

/** Deletes the sweep and its memberships; its runs stay. False when there is no such sweep. */
export async function deleteSweep(db: Db, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom("sweep_runs").where("sweep_id", "=", id).execute();
    const res = await trx.deleteFrom("sweeps").where("id", "=", id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  });
}

/** The sweep each of these runs belongs to, if any. */
export async function sweepsOfRuns(db: Db, runIds: string[]): Promise<Map<string, string>> {
  if (runIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("sweep_runs")
    .select(["run_id", "sweep_id"])
    .where("run_id", "in", runIds)
    .execute();
  return new Map(rows.map((r) => [r.run_id, r.sweep_id]));
}
