import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";
import { createTable } from "./create-table";

/**
 * A run's columnar files (docs/architecture.md §Where run data lives): one row per run and file
 * name (`aiperf-requests`), naming the blob that holds the Parquet file and its row count. A blob
 * named here is in use, as one a file row names is.
 */
export function runColumnFilesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await createTable(
        db,
        t,
        "run_column_files",
        "run_id text!, name text!, sha256 text!, rows bigint!, bytes bigint!",
        ["run_id", "name"],
      );
      await db.schema
        .createIndex("run_column_files_sha")
        .on("run_column_files")
        .columns(["sha256"])
        .execute();
    },
  };
}
