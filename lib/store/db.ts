import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  SqliteDialect,
  type MigrationProvider,
  type Transaction,
} from "kysely";
import pg from "pg";
import type { DialectName } from "./dialect";
import { allMigrations } from "./migrations";
import { endCopyPool, registerRawPg } from "./pg-copy";
import { registerRawSqlite } from "./raw-sqlite";
import { busyWaitingSqliteDialect } from "./sqlite-busy";
import { closeSqliteWriter } from "./sqlite-writer";
import { storableTextDialect } from "./store-text";
import type { Database } from "./schema";

export type Db = Kysely<Database>;
/** A transaction of the store, as `db.transaction().execute` hands it in. */
export type Trx = Transaction<Database>;

export interface DbHandle {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

// PostgreSQL returns int8 as a string to protect precision; our int8 columns hold epoch
// milliseconds and byte counts, all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function openSqlite(file: string): DbHandle {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<Database>({
    dialect: storableTextDialect(busyWaitingSqliteDialect(new SqliteDialect({ database: sqlite }), sqlite)),
  });
  registerRawSqlite(db, sqlite);
  return {
    db,
    dialect: "sqlite",
    close: async () => {
      await closeSqliteWriter(db);
      await db.destroy();
    },
  };
}

export function openPostgres(url: string, options: { schema?: string } = {}): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    // A dedicated schema lets tests run side by side on one database.
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  // An idle pooled connection that the server drops (restart, failover, network cut) is reported
  // as a pool "error" event; without a listener that event would crash the whole process. The
  // pool discards that client and the next query opens a new connection.
  pool.on("error", (err) => console.error("[runlens] PostgreSQL connection lost:", err.message));
  // A connection lost while checked out fails its query (→ 503) but is also emitted on the client,
  // where nobody listens once the pool hands it out: same crash, same cure.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Database>({ dialect: storableTextDialect(new PostgresDialect({ pool })) });
  registerRawPg(db, pool);
  return {
    db,
    dialect: "postgres",
    close: async () => {
      await endCopyPool(pool);
      await db.destroy();
    },
  };
}

export async function migrate(handle: DbHandle): Promise<void> {
  const migrations = allMigrations(handle.dialect);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Kysely looks for its migration tables in every schema it can see; name ours, or a second
  // Runlens schema on the same database (tests, benchmarks, a staging copy) would be taken for it.
  const migrationTableSchema =
    handle.dialect === "postgres"
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  // Migrations of features developed side by side are numbered apart and touch different tables,
  // so a database that ran a later one must still accept an earlier one added afterwards.
  const migrator = new Migrator({
    db: handle.db,
    provider,
    migrationTableSchema,
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`database migration ${failed} failed: ${(error as Error).message ?? error}`);
  }
}
