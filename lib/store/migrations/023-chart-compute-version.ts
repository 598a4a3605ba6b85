import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * The version of the code that computed a stored chart payload from a run's columns
 * (docs/architecture.md §How a chart is computed): a chart computed on read from the run's
 * request file is served as stored only when both its chart's `version` and this match the
 * current ones, else computed again. Every payload stored before this migration was computed by
 * the first such code, version 1.
 */
export function chartComputeVersionMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ db, t }) => {
    await db.schema
      .alterTable("chart_data")
      .addColumn("compute_version", t.int, (c) => c.notNull().defaultTo(1))
      .execute();
  });
}
