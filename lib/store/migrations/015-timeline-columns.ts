import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * A run's request timeline as stored columns (docs/metrics.md §Request timeline): one row per
 * run, `data` its requests' starts, ends, parts and lanes sorted by start with a coarse window
 * index, so the Timeline view's first read of a million-request run is one blob instead of a
 * million rows. Written with the run's summary in its commit; a run ingested before this table
 * has none and is read from its request rows.
 */
export function timelineColumnsMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table }) => {
    await table("run_timeline_columns", "run_id text pk, count bigint!, data bytes!");
  });
}
