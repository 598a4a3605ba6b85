/**
 * Bulk inserts on SQLite run on a worker thread with its own connection to the same database
 * file, so binding and stepping a large ingest's INSERTs happens on the second core while the
 * main thread goes on parsing (better-sqlite3 is synchronous: inline, every batch stops the
 * event loop). WAL lets readers go on meanwhile; the main connection and the worker take the
 * write lock in turn, each with the same busy timeout.
 *
 * A batch is a list of statements run in one transaction; batches run in the order they are
 * sent. In-memory databases (tests) and `RUNLENS_SQLITE_WRITER=inline` write on the main thread.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Db } from "./db";
import { rawSqlite } from "./raw-sqlite";
import { busyWaitMs } from "./sqlite-busy";

export type Statement = [text: string, params: unknown[]];

/** An error from the worker, with SQLite's code kept (so SQLITE_BUSY still becomes a 503). */
export class SqliteWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "SqliteError";
  }
}

export class SqliteWriter {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(file: string, script: string) {
    this.worker = new Worker(script, {
      workerData: { file, busyWaitMs: busyWaitMs() },
      // A batch lives only until it is written: a small young generation collects it at once,
      // where V8's defaults let the thread's heap grow by a hundred megabytes first.
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 },
    });
    this.worker.unref();
    this.worker.on("message", (m: { id: number; error?: { message: string; code?: string } }) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.error) w.reject(new SqliteWriteError(m.error.message, m.error.code));
      else w.resolve();
      if (this.waiting.size === 0) this.wakeIdle();
    });
    this.worker.on("error", (err) => this.failAll(err));
    this.worker.on("exit", () => this.failAll(new Error("the SQLite writer thread stopped")));
  }

  /** Runs the statements in one transaction; resolves once they are committed. */
  write(batch: Statement[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the SQLite writer is closed"));
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, batch });
    }).finally(() => {
      if (this.waiting.size === 0) this.worker.unref();
    });
  }

  /** Resolves once every batch sent so far has been committed or has failed. */
  idle(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.worker.postMessage({ close: true });
    await new Promise((r) => this.worker.once("exit", r));
  }

  private failAll(err: Error): void {
    this.closed = true;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
    this.wakeIdle();
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}

const WORKER_SCRIPT = "lib/store/sqlite-writer-worker.mjs";
// On globalThis, as for raw handles: the bundle may hold several copies of this module.
const KEY = Symbol.for("runlens.sqliteWriters");
const holder = globalThis as { [KEY]?: WeakMap<object, SqliteWriter | null> };
const writers = (holder[KEY] ??= new WeakMap());

/** The writer thread for a SQLite store, or null: write inline (PostgreSQL, in-memory, disabled). */
export function sqliteWriterFor(db: Db): SqliteWriter | null {
  if (writers.has(db)) return writers.get(db)!;
  const raw = rawSqlite(db);
  let writer: SqliteWriter | null = null;
  const script = path.join(process.cwd(), WORKER_SCRIPT);
  if (raw && !raw.memory && process.env.RUNLENS_SQLITE_WRITER !== "inline" && fs.existsSync(script))
    writer = new SqliteWriter(raw.name, script);
  writers.set(db, writer);
  return writer;
}

/** Stops the writer thread of a store being closed. */
export async function closeSqliteWriter(db: Db): Promise<void> {
  const writer = writers.get(db);
  writers.delete(db);
  await writer?.close();
}

/**
 * Keeps at most `depth` batches in flight for one producer: `send` waits only when the writer
 * falls behind, `drain` waits for everything sent. A failed batch surfaces at the next call.
 */
export class WriteQueue {
  private inFlight: Promise<void>[] = [];

  constructor(
    private readonly writer: SqliteWriter,
    private readonly depth = 2,
  ) {}

  async send(batch: Statement[]): Promise<void> {
    const p = this.writer.write(batch);
    // Awaited below or in drain; until then a rejection must not count as unhandled.
    p.catch(() => {});
    this.inFlight.push(p);
    while (this.inFlight.length > this.depth) await this.inFlight.shift();
  }

  async drain(): Promise<void> {
    while (this.inFlight.length > 0) await this.inFlight.shift();
  }
}
