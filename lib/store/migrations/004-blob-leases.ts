import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * Blob leases (an upload's hold on a blob before its file rows exist) and the write time of
 * PostgreSQL chunks, which the garbage collector's grace period is measured from.
 */
export function blobLeasesMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, table, index, addColumn }) => {
    await table("blob_leases", "id text pk, sha256 text!, expires_at bigint!");
    await index("blob_leases_sha", "blob_leases", ["sha256"]);
    // Nullable: chunks written before this column existed count as old.
    await addColumn("blob_chunks", "written_at", t.bigint);
  });
}
