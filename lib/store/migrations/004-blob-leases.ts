import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";
import { createTable } from "./create-table";

/**
 * Blob leases (an upload's hold on a blob before its file rows exist) and the write time of
 * PostgreSQL chunks, which the garbage collector's grace period is measured from.
 */
export function blobLeasesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await createTable(db, t, "blob_leases", "id text pk, sha256 text!, expires_at bigint!");
      await db.schema.createIndex("blob_leases_sha").on("blob_leases").columns(["sha256"]).execute();
      // Nullable: chunks written before this column existed count as old.
      await db.schema.alterTable("blob_chunks").addColumn("written_at", t.bigint).execute();
    },
  };
}
