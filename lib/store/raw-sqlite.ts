import type SQLite from "better-sqlite3";
import type { Db } from "./db";

/**
 * The better-sqlite3 handle behind a Kysely instance (SQLite mode), for the one hot path that
 * needs it: bulk inserts reuse prepared statements instead of preparing a 30,000-parameter
 * statement for every batch. Callers must hold Kysely's connection while using it.
 */
// On globalThis: the production bundle can hold more than one copy of this module (one per
// chunk), and the copy that registers the handle must be the one that finds it.
const KEY = Symbol.for("runlens.rawSqliteHandles");
const holder = globalThis as { [KEY]?: WeakMap<object, SQLite.Database> };
const handles = (holder[KEY] ??= new WeakMap());

export function registerRawSqlite(db: Db, sqlite: SQLite.Database): void {
  handles.set(db, sqlite);
}

export function rawSqlite(db: Db): SQLite.Database | undefined {
  return handles.get(db);
}

/**
 * Copies the catalog's write-ahead log into the database file and truncates the log to nothing
 * (SQLite mode; PostgreSQL gives false). An ingest grows the WAL by about what it wrote, and
 * SQLite's own checkpoints reuse the file rather than shrink it, so it would stay that big beside
 * the database. Never waits for a lock: when another connection reads or writes, the WAL is left
 * as it is (false) for the next call.
 */
export async function truncateWal(db: Db): Promise<boolean> {
  const sqlite = rawSqlite(db);
  if (!sqlite?.open) return false;
  return db.connection().execute(async () => {
    const wait = sqlite.pragma("busy_timeout", { simple: true }) as number;
    sqlite.pragma("busy_timeout = 0");
    try {
      const [result] = sqlite.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number }>;
      return result?.busy === 0;
    } finally {
      sqlite.pragma(`busy_timeout = ${wait}`);
    }
  });
}
