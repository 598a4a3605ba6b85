import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";
import { createTable } from "./create-table";

export function coreMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      const runsColumns = `
        id text pk, name text!, created_at bigint!, updated_at bigint!, status text!,
        aggregator_version int!, labels text!, kinds text!, backend text, request_count bigint,
        summary text, warnings text!, error text
      `;
      await createTable(db, t, "runs", runsColumns);
      await db.schema.createIndex("runs_created").on("runs").columns(["created_at", "id"]).execute();

      await createTable(db, t, "run_labels", "run_id text!, label text!", ["run_id", "label"]);
      await db.schema.createIndex("run_labels_label").on("run_labels").columns(["label"]).execute();

      const filesColumns = `
        id text pk, run_id text!, ord int!, name text!, kind text!, format text!, bytes bigint!,
        sha256 text!, records bigint!, skipped bigint!, warnings text!, meta text!
      `;
      await createTable(db, t, "files", filesColumns);
      await db.schema.createIndex("files_run").on("files").columns(["run_id", "ord"]).execute();
      await db.schema.createIndex("files_sha").on("files").columns(["sha256"]).execute();

      await createTable(db, t, "chart_data", "run_id text!, key text!, data text!", ["run_id", "key"]);

      await createTable(db, t, "blob_chunks", "blob_key text!, seq int!, data bytes!", ["blob_key", "seq"]);

      await createTable(db, t, "meta", "key text pk, value text!");
    },
  };
}
