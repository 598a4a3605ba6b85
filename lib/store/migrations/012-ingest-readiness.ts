import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * When a run's summary and its drill-down became readable (epoch ms; docs/http-api.md). An
 * ingest commits the summary first (the run is listed and its charts shown) and builds what only
 * the drill-down views read afterwards; `drilldown_ready_at` stays null until that is stored. Runs
 * committed before this migration had both at once: they get their last update time for both.
 */
export function ingestReadinessMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("runs").addColumn("summary_ready_at", t.bigint).execute();
      await db.schema.alterTable("runs").addColumn("drilldown_ready_at", t.bigint).execute();
      await sql`update runs set summary_ready_at = updated_at, drilldown_ready_at = updated_at
        where status = 'ready'`.execute(db);
    },
  };
}
