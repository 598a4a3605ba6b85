import type SQLite from "better-sqlite3";
import { sql } from "kysely";
import type { Db } from "./db";
import { CopyQueue, rawPgPool } from "./pg-copy";
import { rawSqlite } from "./raw-sqlite";
import { sqliteWriterFor, WriteQueue } from "./sqlite-writer";
import type { Database } from "./schema";
import { storeParams } from "./store-text";

/** Bind parameters per statement stay under both SQLite's (32,766) and PostgreSQL's (65,535) limits. */
const MAX_PARAMS = 30_000;
/** Rows per COPY on PostgreSQL, which binds no parameters: fewer round trips, a few MB of text. */
const COPY_BATCH_ROWS = 5000;

/** Prepared multi-row INSERTs by SQLite handle and shape (table, columns, rows); few shapes occur. */
const sqliteStatements = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();
const MAX_CACHED_STATEMENTS = 64;

/** PostgreSQL column types by table, read once per process (every schema has the same migrations). */
const pgColumnTypes = new Map<string, Promise<Map<string, string>>>();

function columnTypesOf(db: Db, table: string): Promise<Map<string, string>> {
  let types = pgColumnTypes.get(table);
  if (!types) {
    types = sql<{ column_name: string; data_type: string }>`select column_name, data_type
      from information_schema.columns where table_schema = current_schema() and table_name = ${table}`
      .execute(db)
      .then((r) => new Map(r.rows.map((c) => [c.column_name, c.data_type])));
    types.catch(() => pgColumnTypes.delete(table));
    pgColumnTypes.set(table, types);
  }
  return types;
}

/** One value as an element of a PostgreSQL array literal. */
function arrayElement(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") return String(v); // NaN, Infinity, -Infinity are valid floats
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "boolean") return v ? "t" : "f";
  return `"${String(v).replace(/[\\"]/g, "\\$&")}"`;
}

/**
 * One column of a batch as a PostgreSQL array literal (`{1.5,NULL,"a \"b\""}`), sent as one text
 * parameter and cast by the server. Built here rather than by node-postgres, whose per-element
 * conversion made serialising and collecting its garbage the largest cost of a 1M-row ingest.
 * Missing values are NULL, as they would be in a multi-row VALUES of the same batch.
 */
export function arrayLiteral(rows: Record<string, unknown>[], column: string): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) parts[i] = arrayElement(rows[i][column]);
  return `{${parts.join(",")}}`;
}

/** Column `at` of row-major `values` with `width` columns, as a PostgreSQL array literal. */
function flatArrayLiteral(values: unknown[], width: number, at: number): string {
  const parts = new Array<string>(values.length / width);
  for (let i = 0, j = at; j < values.length; i++, j += width) parts[i] = arrayElement(values[j]);
  return `{${parts.join(",")}}`;
}

/**
 * Buffers rows and writes them as multi-row INSERTs of bounded size, so ingest issues a few
 * thousand statements for a million rows instead of a million. On PostgreSQL a batch goes as one
 * `COPY … FROM STDIN` (lib/store/pg-copy.ts) when the inserter has its column list and the Kysely
 * instance is the root one (a transaction's rows must go on its own connection); otherwise as
 * `INSERT … SELECT * FROM unnest($1::t[], …)`: one array parameter per column, so the server
 * parses a short statement instead of one with tens of thousands of placeholders (≈ 3× faster
 * than multi-row VALUES for the per-request tables, see docs/performance.md). On SQLite the
 * statement for a batch shape is prepared once and reused, skipping Kysely's compile and
 * SQLite's prepare of a 30,000-parameter statement on every batch.
 *
 * Given its column list, the inserter copies each row's values into one flat parameter array as
 * the row arrives: no row objects are kept, and a batch's columns are not rediscovered from its
 * rows (together about a third of the SQLite insert cost at 200k rows). Without one, rows may
 * leave columns out and a batch's columns are the union of its rows' keys.
 *
 * `push` is synchronous and says when a batch is full; the caller then awaits `flush`, so a
 * loop over many rows awaits once per batch: `if (inserter.push(row)) await inserter.flush()`.
 */
export class BatchInserter<T extends keyof Database & string> {
  private rows: Record<string, unknown>[] = [];
  private values: unknown[] = [];
  private count = 0;
  private readonly columns: readonly string[] | null;
  private readonly batchRows: number;
  private readonly postgres: boolean;
  /** The pool to COPY through, on PostgreSQL with a column list and the root Kysely instance. */
  private readonly copyPool: import("pg").Pool | null;
  private queue: WriteQueue | null = null;
  private copies: CopyQueue | null = null;
  inserted = 0;

  constructor(
    private readonly db: Db,
    private readonly table: T,
    columns: number | readonly (keyof Database[T] & string)[],
    maxRows = 1000,
  ) {
    this.columns = typeof columns === "number" ? null : columns;
    const columnsPerRow = typeof columns === "number" ? columns : columns.length;
    // Not `instanceof PostgresAdapter`: the production bundle may hold more than one copy of
    // Kysely, and an adapter from another copy fails that test. Of our two dialects only
    // PostgreSQL runs DDL in transactions.
    this.postgres = db.getExecutor().adapter.supportsTransactionalDdl;
    this.copyPool = this.postgres && this.columns ? (rawPgPool(db) ?? null) : null;
    this.batchRows = this.copyPool
      ? Math.max(maxRows, COPY_BATCH_ROWS)
      : Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMS / Math.max(1, columnsPerRow))));
  }

  /** Buffers a row; true when the batch is full and the caller should `await flush()`. */
  push(row: Database[T]): boolean {
    const columns = this.columns;
    if (columns) {
      const r = row as unknown as Record<string, unknown>;
      const values = this.values;
      for (let i = 0; i < columns.length; i++) values.push(r[columns[i]] ?? null);
    } else this.rows.push(row as unknown as Record<string, unknown>);
    return ++this.count >= this.batchRows;
  }

  async add(row: Database[T]): Promise<void> {
    if (this.push(row)) await this.flush();
  }

  /**
   * Writes the buffered rows. On SQLite with a writer thread a full batch is handed over and
   * the call returns while it is written (one batch stays in flight); a short or empty flush
   * (the end of a file) waits until every row is written.
   */
  async flush(): Promise<void> {
    const n = this.count;
    if (n === 0) {
      await this.queue?.drain();
      await this.copies?.drain();
      return;
    }
    const columns = this.columns ?? [...new Set(this.rows.flatMap((r) => Object.keys(r)))];
    // Row-major values, a missing column NULL, as in Kysely's multi-row VALUES of the same batch.
    let values = this.values;
    if (!this.columns) {
      values = new Array(n * columns.length);
      let i = 0;
      for (const r of this.rows) for (const c of columns) values[i++] = r[c] ?? null;
    }
    // The SQLite paths below bypass Kysely's driver, where every other statement is made storable.
    values = storeParams(values);
    const rows = this.columns ? null : this.rows;
    this.rows = [];
    this.values = [];
    this.count = 0;
    const raw = rawSqlite(this.db);
    const writer = raw ? sqliteWriterFor(this.db) : null;
    if (writer) {
      this.queue ??= new WriteQueue(writer);
      await this.queue.send([[insertText(this.table, columns, n), values]]);
      if (n < this.batchRows) await this.queue.drain();
    } else if (raw)
      await this.db.connection().execute(async () => this.insertPrepared(raw, columns, values, n));
    else if (this.copyPool && (await this.copyable(columns))) {
      // One COPY stays in flight while the next batch is read, as on the SQLite writer thread.
      this.copies ??= new CopyQueue(this.copyPool, this.table, columns);
      await this.copies.send(values);
      if (n < this.batchRows) await this.copies.drain();
    } else if (!(this.postgres && (await this.insertUnnest(columns, values))))
      await this.db
        .insertInto(this.table)
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        .values((rows ?? objectsOf(columns, values)) as any)
        .execute();
    this.inserted += n;
  }

  /**
   * Runs while Kysely's (single) SQLite connection is held, so the statement can never land
   * inside another caller's open transaction.
   */
  private insertPrepared(
    raw: SQLite.Database,
    columns: readonly string[],
    values: unknown[],
    n: number,
  ): void {
    const key = `${this.table}|${columns.join(",")}|${n}`;
    let cache = sqliteStatements.get(raw);
    if (!cache) sqliteStatements.set(raw, (cache = new Map()));
    let stmt = cache.get(key);
    if (!stmt) {
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
      stmt = raw.prepare(insertText(this.table, columns, n));
      cache.set(key, stmt);
    }
    stmt.run(values);
  }

  /** COPY's text fields cover every column type but arrays; an unknown column goes the INSERT way (and fails there). */
  private async copyable(columns: readonly string[]): Promise<boolean> {
    const types = await columnTypesOf(this.db, this.table);
    return columns.every((c) => types.has(c) && types.get(c) !== "ARRAY");
  }

  /** False when a column cannot travel as a text-encoded array (bytea) or is unknown: the caller falls back. */
  private async insertUnnest(columns: readonly string[], values: unknown[]): Promise<boolean> {
    const types = await columnTypesOf(this.db, this.table);
    if (columns.some((c) => !types.has(c) || types.get(c) === "bytea" || types.get(c) === "ARRAY"))
      return false;
    const arrays = columns.map(
      (c, i) => sql`${flatArrayLiteral(values, columns.length, i)}::${sql.raw(types.get(c)!)}[]`,
    );
    await sql`insert into ${sql.table(this.table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      select * from unnest(${sql.join(arrays)})`.execute(this.db);
    return true;
  }
}

/** A SQLite multi-row INSERT of `n` rows; the few shapes that occur are built once. */
const insertTexts = new Map<string, string>();
function insertText(table: string, columns: readonly string[], n: number): string {
  const key = `${table}|${columns.join(",")}|${n}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    if (insertTexts.size >= MAX_CACHED_STATEMENTS) insertTexts.clear();
    const tuple = `(${columns.map(() => "?").join(",")})`;
    const names = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(",");
    text = `insert into "${table}" (${names}) values ${Array(n).fill(tuple).join(",")}`;
    insertTexts.set(key, text);
  }
  return text;
}

/** Row objects from row-major values, for Kysely's VALUES. */
function objectsOf(columns: readonly string[], values: unknown[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let j = 0; j < values.length; j += columns.length) {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[j + i];
    rows.push(row);
  }
  return rows;
}
