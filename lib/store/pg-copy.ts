/**
 * Bulk loads into PostgreSQL with `COPY … FROM STDIN` (text format) instead of INSERT
 * statements: the rows go as one stream of tab-separated lines that the server parses without a
 * statement plan or parameter arrays, and the client builds one string per batch instead of one
 * array literal per column. A COPY is one statement: it lands whole or not at all, so a batch is
 * never half-written, and the rows are removed with the run's other derived rows if the ingest
 * fails, as before (lib/store/interrupted-ingest.ts).
 *
 * A CopyQueue keeps one COPY in flight while the caller parses the next batch: the server
 * parses and stores on its own core meanwhile. `copiesSettled` lets a failed ingest wait for
 * the COPYs still landing before it removes the run's rows, as it waits for the SQLite writer.
 */
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
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

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * One value as a field of COPY's text format: `\N` for NULL, backslash escapes for the four
 * characters that would end a field or a line. Numbers as JavaScript writes them (the shortest
 * text that reads back to the same double; NaN and ±Infinity are PostgreSQL's spellings too).
 */
export function copyField(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return /[\\\n\r\t]/.test(v) ? v.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]) : v;
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "bigint") return v.toString();
  // bytea in its hex form; the backslash itself is escaped for COPY.
  if (v instanceof Uint8Array)
    return `\\\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex")}`;
  return copyField(String(v));
}

/** Row-major `values` of `columns.length` columns as COPY text: one line per row. */
export function copyText(columns: readonly string[], values: readonly unknown[]): string {
  const width = columns.length;
  const lines = new Array<string>(values.length / width);
  const fields = new Array<string>(width);
  for (let r = 0, j = 0; j < values.length; r++) {
    for (let c = 0; c < width; c++, j++) fields[c] = copyField(values[j]);
    lines[r] = fields.join("\t");
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Writes row-major `values` into `table` with one COPY on a connection of `pool`. */
export async function copyRows(
  pool: pg.Pool,
  table: string,
  columns: readonly string[],
  values: readonly unknown[],
): Promise<void> {
  const text = copyText(columns, values);
  const client = await pool.connect();
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

/** Batches of one table, written with at most one COPY in flight; `drain` surfaces its failure. */
export class CopyQueue {
  private pending: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly table: string,
    private readonly columns: readonly string[],
  ) {}

  /** Waits for the COPY before, then starts this one and returns while it is written. */
  async send(values: readonly unknown[]): Promise<void> {
    await this.drain();
    const p = copyRows(this.pool, this.table, this.columns, values);
    let started = inflight.get(this.pool);
    if (!started) inflight.set(this.pool, (started = new Set()));
    started.add(p);
    const forget = () => started.delete(p);
    // Failure is reported by `drain`; this handler only keeps it from being unhandled meanwhile.
    p.then(forget, forget);
    this.pending = p;
  }

  /** Waits until every batch sent has landed; throws the failure of the last one, if any. */
  async drain(): Promise<void> {
    const p = this.pending;
    this.pending = null;
    if (p) await p;
  }
}
