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
