import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * How a PostgreSQL blob's chunks hold its bytes (lib/store/blob-encoding.ts): `identity` for bytes
 * kept as they are (compressed already: a run's Parquet file, a gzip upload), `gzip` otherwise.
 * Null on chunks written before this migration: they are all gzip.
 */
export function blobEncodingMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, addColumn }) => {
    await addColumn("blob_chunks", "encoding", t.text);
  });
}
