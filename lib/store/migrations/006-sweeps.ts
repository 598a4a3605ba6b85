import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * Sweeps: named groups of runs (one serving configuration measured at several concurrencies or
 * rates). A run belongs to at most one sweep: the membership's key is the run, so grouping a run
 * again moves it. Deleting a sweep deletes only these rows, never its runs.
 */
export function sweepsMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table, index }) => {
    await table("sweeps", "id text pk, name text!, created_at bigint!, updated_at bigint!, meta text!");
    await table("sweep_runs", "run_id text pk, sweep_id text!, ord int!");
    await index("sweep_runs_sweep", "sweep_runs", ["sweep_id", "ord"]);
  });
}
