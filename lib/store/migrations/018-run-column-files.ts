import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * A run's columnar files (docs/architecture.md §Where run data lives): one row per run and file
 * name (`aiperf-requests`), naming the blob that holds the Parquet file and its row count. A blob
 * named here is in use, as one a file row names is.
 */
export function runColumnFilesMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table, index }) => {
    await table("run_column_files", "run_id text!, name text!, sha256 text!, rows bigint!, bytes bigint!", [
      "run_id",
      "name",
    ]);
    await index("run_column_files_sha", "run_column_files", ["sha256"]);
  });
}
