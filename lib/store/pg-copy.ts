/**
 * Bulk loads into PostgreSQL with `COPY … FROM STDIN` (text format) instead of INSERT
 * statements: the rows go as one stream of tab-separated lines that the server parses without a
 * statement plan or parameter arrays, and the client builds one string per batch instead of one
 * array literal per column. A COPY is one statement: it lands whole or not at all, so a batch is
 * never half-written, and the rows are removed with the run's other derived rows if the ingest
 * fails, as before (lib/store/interrupted-ingest.ts).
 *
 * A CopyQueue keeps up to two COPYs in flight, each on its own connection, while the caller
 * parses the next batch: the server parses and stores meanwhile, and one batch's round trips
 * and commit no longer hold the next one back. `copiesSettled` lets a failed ingest wait for
 * the COPYs still landing before it removes the run's rows, as it waits for the SQLite writer.
 *
 * COPYs run on a small pool of their own whose sessions have `synchronous_commit = off`: a COPY's
 * commit does not wait for its WAL to reach the disk. Nothing is less durable for it. The rows
 * only count once the run is marked `ready`, and that commit runs on the main pool, synchronous:
 * WAL is flushed in order, so when it returns every COPY committed before it is on disk too. A
 * crash before then loses at most rows of a run that is still `ingesting`, which the sweeper
 * fails (its raw files re-ingestable) and whose rows are removed, as for any interrupted ingest.
 * Tables stay logged: an unlogged table would be emptied by any crash.
 */
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Db } from "./db";

// On globalThis: the production bundle can hold more than one copy of this module (see raw-sqlite.ts).
const KEY = Symbol.for("runlens.rawPgPools");
const holder = globalThis as { [KEY]?: WeakMap<object, pg.Pool> };
const pools = (holder[KEY] ??= new WeakMap());

/** Remembers the pool behind a root Kysely instance; a transaction's Kysely is not registered. */
export function registerRawPg(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

export function rawPgPool(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

/** COPYs in flight per queue; each holds a connection of the COPY pool and its batch's text. */
const COPIES_IN_FLIGHT = 2;

/** The COPY pool of each main pool, made on first use. */
const copyPools = new WeakMap<pg.Pool, pg.Pool>();

/**
 * The pool COPYs run on: the main pool's connection settings plus `synchronous_commit = off` for
 * the session (see the top of this file). Idle connections close after a few seconds and do
 * not keep the process alive; `endCopyPool` closes it with the store.
 */
export function copyPoolOf(pool: pg.Pool): pg.Pool {
  let copies = copyPools.get(pool);
  if (!copies) {
    const { options, ...rest } = pool.options;
    copies = new pg.Pool({
      ...rest,
      max: 4,
      idleTimeoutMillis: 5000,
      allowExitOnIdle: true,
      options: `${options ?? ""} -c synchronous_commit=off`.trim(),
    });
    // As on the main pool (lib/store/db.ts): a lost idle connection must not crash the process.
    copies.on("error", () => {});
    copies.on("connect", (client) => client.on("error", () => {}));
    copyPools.set(pool, copies);
  }
  return copies;
}

/** Closes the COPY pool of `pool`, if one was made. */
export async function endCopyPool(pool: pg.Pool): Promise<void> {
  const copies = copyPools.get(pool);
  copyPools.delete(pool);
  if (copies && !copies.ended) await copies.end();
}

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const SPECIAL = /[\\\n\r\t]/;

/**
 * One value as a field of COPY's text format: `\N` for NULL, backslash escapes for the four
 * characters that would end a field or a line. Numbers as JavaScript writes them (the shortest
 * text that reads back to the same double; NaN and ±Infinity are PostgreSQL's spellings too).
 */
export function copyField(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return SPECIAL.test(v) ? v.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]) : v;
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "bigint") return v.toString();
  // bytea in its hex form; the backslash itself is escaped for COPY.
  if (v instanceof Uint8Array)
    return `\\\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex")}`;
  return copyField(String(v));
}

/**
 * Row-major `values` of `columns.length` columns as COPY text: one line per row. Appended to one
 * string, numbers and plain strings inline: ~10 % less CPU than joining arrays of fields.
 */
export function copyText(columns: readonly string[], values: readonly unknown[]): string {
  const width = columns.length;
  let out = "";
  for (let j = 0; j < values.length;) {
    for (let c = 0; c < width; c++, j++) {
      const v = values[j];
      const f = typeof v === "number" ? `${v}` : typeof v === "string" && !SPECIAL.test(v) ? v : copyField(v);
      out += c === 0 ? f : `\t${f}`;
    }
    out += "\n";
  }
  return out;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Writes row-major `values` into `table` with one COPY on a connection of `pool`'s COPY pool. */
export async function copyRows(
  pool: pg.Pool,
  table: string,
  columns: readonly string[],
  values: readonly unknown[],
): Promise<void> {
  const text = copyText(columns, values);
  const client = await copyPoolOf(pool).connect();
  let broken: unknown = undefined;
  try {
    const sink = client.query(
      copyFrom(`copy ${quoteIdent(table)} (${columns.map(quoteIdent).join(",")}) from stdin`),
    );
    await pipeline(Readable.from([Buffer.from(text, "utf8")]), sink);
  } catch (err) {
    broken = err;
    throw err;
  } finally {
    // A connection whose COPY failed mid-stream may be out of step with the server: drop it.
    client.release(broken instanceof Error && !("code" in broken) ? broken : undefined);
  }
}

/** COPYs not yet landed, by pool. */
const inflight = new WeakMap<pg.Pool, Set<Promise<void>>>();

/** Resolves once every COPY started on `db`'s pool has landed or failed. */
export async function copiesSettled(db: Db): Promise<void> {
  const pool = rawPgPool(db);
  const started = pool && inflight.get(pool);
  if (started && started.size > 0) await Promise.allSettled([...started]);
}

/** Batches of one table, written with up to two COPYs in flight; `drain` surfaces a failure. */
export class CopyQueue {
  private pending: Promise<void>[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly table: string,
    private readonly columns: readonly string[],
  ) {}

  /**
   * Starts this batch's COPY once fewer than two are in flight (waiting for the oldest if not),
   * and returns while it is written; throws the failure of a COPY it waited for.
   */
  async send(values: readonly unknown[]): Promise<void> {
    if (this.pending.length >= COPIES_IN_FLIGHT) {
      const oldest = this.pending.shift()!;
      try {
        await oldest;
      } catch (err) {
        // The batches after it may land; the ingest fails and removes the run's rows anyway.
        await this.drain().catch(() => {});
        throw err;
      }
    }
    const p = copyRows(this.pool, this.table, this.columns, values);
    let started = inflight.get(this.pool);
    if (!started) inflight.set(this.pool, (started = new Set()));
    started.add(p);
    const forget = () => started.delete(p);
    // Failure is reported by `send` or `drain`; this handler only keeps it from being unhandled meanwhile.
    p.then(forget, forget);
    this.pending.push(p);
  }

  /** Waits until every batch sent has landed; throws the first failure, if any. */
  async drain(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    const settled = await Promise.allSettled(pending);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }
}
