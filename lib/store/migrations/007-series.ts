import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * Run series (docs/metrics.md §Regressions): the series name a run belongs to and the commit and
 * branch it measured, all optional. The index serves a series' runs in upload order.
 */
export function seriesMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, index, addColumn }) => {
    for (const column of ["series", "commit_ref", "branch"]) await addColumn("runs", column, t.text);
    await index("runs_series", "runs", ["series", "created_at"]);
  });
}
