import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * The Timeline view's first window beside a run's timeline columns (docs/metrics.md §Request
 * timeline, "First window"): `first_window` is the JSON of the whole run on its default lanes at
 * the default bar limit, computed from the columns at ingest, so a first visit is answered
 * without reading the columns' blob. Null on a run stored before this migration: its first
 * window is cut from the columns, as before.
 */
export function timelineFirstWindowMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, addColumn }) => {
    await addColumn("run_timeline_columns", "first_window", t.text);
  });
}
