/**
 * One large value (a run's stored timeline, ~15 MB at 200,000 requests) read from SQLite on a
 * worker thread with its own read-only connection. better-sqlite3 is synchronous, and SQLite
 * loads a blob whole even for a substr of it, so the read cannot be split into pieces: on the
 * main thread it held the server half a second at rest, seconds on a loaded machine. The bytes
 * come back transferred, not copied. WAL gives the worker's one statement a consistent snapshot.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Db } from "./db";
import { rawSqlite } from "./raw-sqlite";
import { busyWaitMs } from "./sqlite-busy";
import { SqliteWriteError } from "./sqlite-writer";

const WORKER_SCRIPT = "lib/store/sqlite-blob-read-worker.mjs";

/**
 * The first column of the first row `sql` answers, read off the main thread: a Uint8Array, or
 * null for no row or a null value. `undefined` when this store cannot read on a worker (not
 * SQLite, in memory, or the worker script absent): the caller reads inline.
 */
export async function readSqliteBlob(
  db: Db,
  sql: string,
  params: unknown[],
): Promise<Uint8Array | null | undefined> {
  const raw = rawSqlite(db);
  const script = path.join(process.cwd(), WORKER_SCRIPT);
  if (!raw || raw.memory || !fs.existsSync(script)) return undefined;
  const worker = new Worker(script, {
    workerData: { file: raw.name, sql, params, busyWaitMs: busyWaitMs() },
  });
  try {
    return await new Promise<Uint8Array | null>((resolve, reject) => {
      worker.once(
        "message",
        (m: { found?: boolean; bytes?: Uint8Array; error?: { message: string; code?: string } }) => {
          if (m.error) reject(new SqliteWriteError(m.error.message, m.error.code));
          else resolve(m.found && m.bytes ? m.bytes : null);
        },
      );
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the SQLite read thread stopped (${code})`)));
    });
  } finally {
    void worker.terminate();
  }
}
