import { sql, type Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * When a run's summary and its drill-down became readable (epoch ms; docs/http-api.md). An
 * ingest commits the summary first (the run is listed and its charts shown) and builds what only
 * the drill-down views read afterwards; `drilldown_ready_at` stays null until that is stored. Runs
 * committed before this migration had both at once: they get their last update time for both.
 */
export function ingestReadinessMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ db, t, addColumn }) => {
    await addColumn("runs", "summary_ready_at", t.bigint);
    await addColumn("runs", "drilldown_ready_at", t.bigint);
    // The statement's text, its line break and indent too, is as shipped (migrations-sql.test.ts).
    await sql`update runs set summary_ready_at = updated_at, drilldown_ready_at = updated_at
        where status = 'ready'`.execute(db);
  });
}
