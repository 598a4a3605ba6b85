import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * Run facts (docs/metrics.md §Run facts): what the files said (`facts`), what a user corrected
 * (`fact_edits`, kept apart so a re-ingest rewrites the first and never the second), and the
 * effective values the run list sorts and filters by, copied into plain columns.
 */
export function runFactsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const columns: Array<[string, (typeof t)[keyof typeof t]]> = [
    ["facts", t.text],
    ["fact_edits", t.text],
    ["list_model", t.text],
    ["list_backend", t.text],
    ["list_gpu_model", t.text],
    ["list_gpu_count", t.int],
    ["list_concurrency", t.real],
  ];
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      for (const [name, type] of columns) await db.schema.alterTable("runs").addColumn(name, type).execute();
      for (const c of ["list_model", "list_gpu_model", "list_gpu_count", "list_concurrency", "list_backend"])
        await db.schema.createIndex(`runs_${c}`).on("runs").columns([c, "created_at"]).execute();
    },
  };
}
