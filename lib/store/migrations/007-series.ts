import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * Run series (docs/metrics.md §Regressions): the series name a run belongs to and the commit and
 * branch it measured, all optional. The index serves a series' runs in upload order.
 */
export function seriesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ["series", "commit_ref", "branch"])
        await db.schema.alterTable("runs").addColumn(column, t.text).execute();
      await db.schema.createIndex("runs_series").on("runs").columns(["series", "created_at"]).execute();
    },
  };
}
