import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

export function coreMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table, index }) => {
    const runsColumns = `
      id text pk, name text!, created_at bigint!, updated_at bigint!, status text!,
      aggregator_version int!, labels text!, kinds text!, backend text, request_count bigint,
      summary text, warnings text!, error text
    `;
    await table("runs", runsColumns);
    await index("runs_created", "runs", ["created_at", "id"]);

    await table("run_labels", "run_id text!, label text!", ["run_id", "label"]);
    await index("run_labels_label", "run_labels", ["label"]);

    const filesColumns = `
      id text pk, run_id text!, ord int!, name text!, kind text!, format text!, bytes bigint!,
      sha256 text!, records bigint!, skipped bigint!, warnings text!, meta text!
    `;
    await table("files", filesColumns);
    await index("files_run", "files", ["run_id", "ord"]);
    await index("files_sha", "files", ["sha256"]);

    await table("chart_data", "run_id text!, key text!, data text!", ["run_id", "key"]);

    await table("blob_chunks", "blob_key text!, seq int!, data bytes!", ["blob_key", "seq"]);

    await table("meta", "key text pk, value text!");
  });
}
