import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * Run facts (docs/metrics.md §Run facts): what the files said (`facts`), what a user corrected
 * (`fact_edits`, kept apart so a re-ingest rewrites the first and never the second), and the
 * effective values the run list sorts and filters by, copied into plain columns.
 */
export function runFactsMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, index, addColumn }) => {
    const columns: Array<[string, (typeof t)[keyof typeof t]]> = [
      ["facts", t.text],
      ["fact_edits", t.text],
      ["list_model", t.text],
      ["list_backend", t.text],
      ["list_gpu_model", t.text],
      ["list_gpu_count", t.int],
      ["list_concurrency", t.real],
    ];
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    for (const [name, type] of columns) await addColumn("runs", name, type);
    for (const c of ["list_model", "list_gpu_model", "list_gpu_count", "list_concurrency", "list_backend"])
      await index(`runs_${c}`, "runs", [c, "created_at"]);
  });
}
