import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { migrate, openPostgres, type DbHandle } from "@/lib/store/db";
import type { AppContext } from "@/lib/server/app-context";
import { openTestApp } from "./test-app";

export const PG_URL = process.env.RUNLENS_TEST_DATABASE_URL;

/**
 * A throwaway schema on the test database, so test files can share one PostgreSQL server.
 * Returns a DATABASE_URL whose connections use that schema, and a function dropping it.
 */
export async function freshSchema(
  base = PG_URL!,
): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const schema = `rl_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const sep = base.includes("?") ? "&" : "?";
  const url = `${base}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url,
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/** The stores a test runs on: SQLite always, PostgreSQL where RUNLENS_TEST_DATABASE_URL is set. */
export const TEST_STORES: Array<[string, string | undefined]> = PG_URL
  ? [
      ["SQLite", undefined],
      ["PostgreSQL", PG_URL],
    ]
  : [["SQLite", undefined]];

/**
 * Registers hooks giving the enclosing `describe` an app context: on a fresh PostgreSQL schema
 * of `pgUrl` (dropped after), or on SQLite when it is undefined; read `.app` inside the tests.
 */
export function useStoreTestApp(pgUrl: string | undefined): { app: AppContext } {
  const env = {} as { app: AppContext };
  let cleanup: (() => Promise<void>) | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const s = pgUrl ? await freshSchema(pgUrl) : undefined;
    drop = s?.drop;
    const t = await openTestApp({ DATABASE_URL: s?.url });
    env.app = t.app;
    cleanup = t.cleanup;
  });
  afterAll(async () => {
    await cleanup?.();
    await drop?.();
  });
  return env;
}

/**
 * Registers hooks giving the enclosing `describe` an app context on a fresh schema (dropped
 * after); read `.app` inside the tests.
 */
export function usePgTestApp(): { app: AppContext } {
  return useStoreTestApp(PG_URL!);
}

/**
 * Registers hooks giving the enclosing `describe` a migrated store on a fresh schema, without an
 * app context (closed and dropped after); read `.db` inside the tests.
 */
export function usePgStore(): { db: DbHandle["db"] } {
  const env = {} as { db: DbHandle["db"] };
  let h: DbHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const s = await freshSchema();
    drop = s.drop;
    h = openPostgres(PG_URL!, { schema: s.schema });
    await migrate(h);
    env.db = h.db;
  });
  afterAll(async () => {
    await h?.close();
    await drop?.();
  });
  return env;
}

/** Runs `fn` on a store opened on a fresh schema (not migrated), closed and dropped after. */
export async function withPgStore<T>(fn: (handle: DbHandle) => Promise<T>): Promise<T> {
  const { url, drop } = await freshSchema();
  const handle = openPostgres(url);
  try {
    return await fn(handle);
  } finally {
    await handle.close();
    await drop();
  }
}
