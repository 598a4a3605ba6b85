import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * The version of a stored chart payload (docs/architecture.md §Stored payloads evolve): the
 * `version` of its chart in lib/api/chart-catalog.ts when it was written. Every payload stored
 * before this migration is of version 1, the first of every chart; a read upgrades a payload of
 * an older version to its chart's current shape.
 */
export function chartVersionMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ db, t }) => {
    await db.schema
      .alterTable("chart_data")
      .addColumn("version", t.int, (c) => c.notNull().defaultTo(1))
      .execute();
  });
}
