import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * The Timeline view's first window beside a run's timeline columns (docs/metrics.md §Request
 * timeline, "First window"): `first_window` is the JSON of the whole run on its default lanes at
 * the default bar limit, computed from the columns at ingest, so a first visit is answered
 * without reading the columns' blob. Null on a run stored before this migration: its first
 * window is cut from the columns, as before.
 */
export function timelineFirstWindowMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("run_timeline_columns").addColumn("first_window", t.text).execute();
    },
  };
}
