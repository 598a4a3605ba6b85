import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * How a PostgreSQL blob's chunks hold its bytes (lib/store/blob-encoding.ts): `identity` for bytes
 * kept as they are (compressed already: a run's Parquet file, a gzip upload), `gzip` otherwise.
 * Null on chunks written before this migration: they are all gzip.
 */
export function blobEncodingMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("blob_chunks").addColumn("encoding", t.text).execute();
    },
  };
}
