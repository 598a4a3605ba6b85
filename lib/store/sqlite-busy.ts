/**
 * Waiting for SQLite's write lock without stopping the server. The main connection shares the
 * database file with the bulk-insert writer thread (./sqlite-writer.ts) and, sometimes, other
 * processes. Two things went wrong when several uploads committed at once:
 *
 * - Kysely opens a transaction with a plain `begin` (deferred): it reads under a snapshot and
 *   asks for the write lock at its first write. If another connection committed in between,
 *   SQLite cannot upgrade that snapshot and answers SQLITE_BUSY_SNAPSHOT at once, whatever the
 *   busy timeout: the upload failed with 503. Transactions here begin `immediate`, taking the
 *   write lock first.
 * - better-sqlite3 waits for a lock synchronously: with a long busy timeout on the main
 *   connection, every other request waits with it. The main connection waits only briefly
 *   inside SQLite (`MAIN_BUSY_TIMEOUT_MS`); past that, the wait goes on here, between turns of
 *   the event loop, until `SQLITE_BUSY_WAIT_MS`, after which the caller gets the busy error (a
 *   retryable 503, lib/server/route.ts).
 *
 * Only statements outside a transaction, and the `begin` itself, are retried: nothing of them
 * was applied. Inside a transaction begun immediate, the write lock is already held.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type SQLite from "better-sqlite3";
import { CompiledQuery, type Dialect } from "kysely";
import { patchedDialect } from "./patched-dialect";

/** How long SQLite itself may block the main thread on a lock, per attempt. */
export const MAIN_BUSY_TIMEOUT_MS = 50;

/** How long a statement waits in all for the lock before its caller is told the store is busy. */
export function busyWaitMs(): number {
  const v = Number(process.env.RUNLENS_SQLITE_BUSY_WAIT_MS);
  return Number.isFinite(v) && v >= 0 ? v : 30_000;
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/**
 * Runs `attempt` until it does not fail busy, up to the wait limit; `pause(ms)` waits between
 * attempts (and lets others use the connection meanwhile).
 */
export async function whileBusy<T>(
  attempt: () => Promise<T>,
  pause: (ms: number) => Promise<void>,
): Promise<T> {
  const deadline = Date.now() + busyWaitMs();
  for (let ms = 2; ; ms = Math.min(ms * 2, 100)) {
    try {
      return await attempt();
    } catch (err) {
      if (!isBusy(err) || Date.now() + ms > deadline) throw err;
    }
    await pause(ms);
  }
}

/** `dialect` (a SqliteDialect over `sqlite`) with immediate transactions and lock waits off the main thread. */
export function busyWaitingSqliteDialect(dialect: Dialect, sqlite: SQLite.Database): Dialect {
  sqlite.pragma(`busy_timeout = ${MAIN_BUSY_TIMEOUT_MS}`);
  return patchedDialect(
    dialect,
    (connection, { acquire, release }) => {
      // SQLite has one connection, which Kysely lends out one holder at a time: a statement
      // waiting for the lock hands it back while it sleeps, so reads (health, lists) go on.
      // Outside a transaction nothing depends on holding it across the pause.
      const pause = async (ms: number) => {
        await release(connection);
        await sleep(ms);
        await acquire();
      };
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = (q) =>
        sqlite.inTransaction ? execute(q) : whileBusy(() => execute(q), pause);
    },
    (driver) => {
      // The connection is patched in place above, so the begin waits for the lock as any statement.
      driver.beginTransaction = async (connection) => {
        await connection.executeQuery(CompiledQuery.raw("begin immediate"));
      };
    },
  );
}
