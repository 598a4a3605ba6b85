import type SQLite from "better-sqlite3";
import { sql } from "kysely";
import type { Db } from "./db";
import { rawSqlite } from "./raw-sqlite";
import type { Database } from "./schema";

/** Bind parameters per statement stay under both SQLite's (32,766) and PostgreSQL's (65,535) limits. */
const MAX_PARAMS = 30_000;

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

/**
 * One column of a batch as a PostgreSQL array literal (`{1.5,NULL,"a \"b\""}`), sent as one text
 * parameter and cast by the server. Built here rather than by node-postgres, whose per-element
 * conversion made serialising and collecting its garbage the largest cost of a 1M-row ingest.
 * Missing values are NULL, as they would be in a multi-row VALUES of the same batch.
 */
export function arrayLiteral(rows: Record<string, unknown>[], column: string): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][column];
    if (v === null || v === undefined) parts[i] = "NULL";
    else if (typeof v === "number")
      parts[i] = String(v); // NaN, Infinity, -Infinity are valid floats
    else if (typeof v === "bigint") parts[i] = v.toString();
    else if (typeof v === "boolean") parts[i] = v ? "t" : "f";
    else parts[i] = `"${String(v).replace(/[\\"]/g, "\\$&")}"`;
  }
  return `{${parts.join(",")}}`;
}

/**
 * Buffers rows and writes them as multi-row INSERTs of bounded size, so ingest issues a few
 * thousand statements for a million rows instead of a million. On PostgreSQL a batch goes as
 * `INSERT … SELECT * FROM unnest($1::t[], …)`: one array parameter per column, so the server
 * parses a short statement instead of one with tens of thousands of placeholders (≈ 3× faster
 * than multi-row VALUES for the per-request tables, see README "Performance"). On SQLite the
 * statement for a batch shape is prepared once and reused, skipping Kysely's compile and
 * SQLite's prepare of a 30,000-parameter statement on every batch.
 */
export class BatchInserter<T extends keyof Database & string> {
  private rows: Record<string, unknown>[] = [];
  private readonly batchRows: number;
  private readonly postgres: boolean;
  inserted = 0;

  constructor(
    private readonly db: Db,
    private readonly table: T,
    columnsPerRow: number,
    maxRows = 1000,
  ) {
    this.batchRows = Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMS / Math.max(1, columnsPerRow))));
    // Not `instanceof PostgresAdapter`: the production bundle may hold more than one copy of
    // Kysely, and an adapter from another copy fails that test. Of our two dialects only
    // PostgreSQL runs DDL in transactions.
    this.postgres = db.getExecutor().adapter.supportsTransactionalDdl;
  }

  async add(row: Database[T]): Promise<void> {
    this.rows.push(row as unknown as Record<string, unknown>);
    if (this.rows.length >= this.batchRows) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    const raw = rawSqlite(this.db);
    if (raw) await this.db.connection().execute(async () => this.insertPrepared(raw, rows));
    else if (!(this.postgres && (await this.insertUnnest(rows))))
      await this.db
        .insertInto(this.table)
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        .values(rows as any)
        .execute();
    this.inserted += rows.length;
  }

  /**
   * Runs while Kysely's (single) SQLite connection is held, so the statement can never land
   * inside another caller's open transaction.
   */
  private insertPrepared(raw: SQLite.Database, rows: Record<string, unknown>[]): void {
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const key = `${this.table}|${columns.join(",")}|${rows.length}`;
    let cache = sqliteStatements.get(raw);
    if (!cache) sqliteStatements.set(raw, (cache = new Map()));
    let stmt = cache.get(key);
    if (!stmt) {
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
      const tuple = `(${columns.map(() => "?").join(",")})`;
      const names = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(",");
      stmt = raw.prepare(
        `insert into "${this.table}" (${names}) values ${Array(rows.length).fill(tuple).join(",")}`,
      );
      cache.set(key, stmt);
    }
    const params: unknown[] = new Array(rows.length * columns.length);
    let i = 0;
    // A column a row leaves out becomes NULL, as in Kysely's multi-row VALUES of the same batch.
    for (const r of rows) for (const c of columns) params[i++] = r[c] ?? null;
    stmt.run(params);
  }

  /** False when a column cannot travel as a text-encoded array (bytea) or is unknown: the caller falls back. */
  private async insertUnnest(rows: Record<string, unknown>[]): Promise<boolean> {
    const types = await columnTypesOf(this.db, this.table);
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    if (columns.some((c) => !types.has(c) || types.get(c) === "bytea" || types.get(c) === "ARRAY"))
      return false;
    // A column a row leaves out becomes NULL, as it would in a multi-row VALUES of the same batch.
    const arrays = columns.map((c) => sql`${arrayLiteral(rows, c)}::${sql.raw(types.get(c)!)}[]`);
    await sql`insert into ${sql.table(this.table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      select * from unnest(${sql.join(arrays)})`.execute(this.db);
    return true;
  }
}
