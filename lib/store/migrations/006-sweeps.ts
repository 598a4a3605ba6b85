import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";
import { createTable } from "./create-table";

/**
 * Sweeps: named groups of runs (one serving configuration measured at several concurrencies or
 * rates). A run belongs to at most one sweep: the membership's key is the run, so grouping a run
 * again moves it. Deleting a sweep deletes only these rows, never its runs.
 */
export function sweepsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await createTable(
        db,
        t,
        "sweeps",
        "id text pk, name text!, created_at bigint!, updated_at bigint!, meta text!",
      );
      await createTable(db, t, "sweep_runs", "run_id text pk, sweep_id text!, ord int!");
      await db.schema.createIndex("sweep_runs_sweep").on("sweep_runs").columns(["sweep_id", "ord"]).execute();
    },
  };
}
