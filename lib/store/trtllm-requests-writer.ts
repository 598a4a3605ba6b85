/**
 * Bulk writer of `trtllm_requests` rows, as runs were stored before the run's request file
 * (lib/store/columnar/trtllm-request-file.ts): an ingest no longer writes such rows; the tests
 * store a run as an earlier Runlens did through it. Each row carries kilobytes of JSON; through the query
 * builder a 100k-request run spent most of its ingest building INSERT statements and committing
 * each one on its own. This writer binds a fixed-shape multi-row INSERT (text built once) and
 * commits many statements per transaction. On PostgreSQL the same batches go as one COPY each
 * (lib/store/pg-copy.ts).
 */
import type SQLite from "better-sqlite3";
import { CompiledQuery } from "kysely";
import type { Db } from "./db";
import type { DialectName } from "./dialect";
import { CopyQueue, rawPgPool } from "./pg-copy";
import { rawSqlite } from "./raw-sqlite";
import { sqliteWriterFor, WriteQueue, type Statement } from "./sqlite-writer";
import { storeParams } from "./store-text";
import { TRTLLM_REQUEST_ID_COLUMNS, type TrtllmRequestsTable } from "./tables/trtllm";

const COLUMNS = [
  "run_id",
  "idx",
  ...TRTLLM_REQUEST_ID_COLUMNS,
  "ctx_worker",
  "gen_worker",
  "arrival_ms",
  "ttft_ms",
  "e2e_ms",
  "times_json",
  "segments_json",
  "kv_total_blocks",
  "kv_new_blocks",
  "kv_reused_blocks",
  "kv_missed_blocks",
  "kv_hit_rate",
  "kv_transfer_bytes",
  "kv_transfer_ms",
  "kv_bandwidth_gbps",
  "spec_accepted_tokens",
  "spec_draft_tokens",
  "first_iter",
  "last_iter",
  "step_count",
  "chunk_count",
  "steps_json",
] as const satisfies ReadonlyArray<keyof TrtllmRequestsTable>;

/**
 * Rows per statement: SQLite prepares a statement with thousands of parameters far slower than
 * several small ones (measured 3× at 100k rows), so statements stay small and transactions big.
 */
const ROWS_PER_STATEMENT = 64;
/**
 * Statements per transaction: one commit per 256 rows. Buffering ~2,000 rows kept their JSON
 * alive long enough to reach the old generation, and peak memory rose by a third.
 */
const STATEMENTS_PER_TRANSACTION = 4;

function insertText(dialect: DialectName, rows: number): string {
  let p = 0;
  const tuple = () => `(${COLUMNS.map(() => (dialect === "postgres" ? `$${++p}` : "?")).join(",")})`;
  const tuples = Array.from({ length: rows }, tuple).join(",");
  return `insert into trtllm_requests (${COLUMNS.join(",")}) values ${tuples}`;
}

export class TrtllmRequestsWriter {
  private params: unknown[] = [];
  private rows = 0;
  private statements: unknown[][] = [];
  private readonly fullText: string;
  private full: SQLite.Statement | undefined;
  private queue: WriteQueue | null = null;
  private copies: CopyQueue | null = null;
  inserted = 0;

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {
    this.fullText = insertText(dialect, ROWS_PER_STATEMENT);
  }

  async add(row: TrtllmRequestsTable): Promise<void> {
    await this.push(row.run_id, row);
  }

  /**
   * Buffers one row of run `runId` (any `run_id` in `row` is ignored); returns a promise, to be
   * awaited, only when a transaction's worth of rows is due to be written.
   */
  push(runId: string, row: Omit<TrtllmRequestsTable, "run_id">): Promise<void> | undefined {
    const params = this.params;
    params.push(runId);
    const r = row as Record<string, unknown>;
    for (let i = 1; i < COLUMNS.length; i++) params.push(r[COLUMNS[i]]);
    if (++this.rows < ROWS_PER_STATEMENT) return undefined;
    this.statements.push(params);
    this.params = [];
    this.rows = 0;
    return this.statements.length >= STATEMENTS_PER_TRANSACTION ? this.commit() : undefined;
  }

  /** Writes every buffered row and waits until all are written. */
  async flush(): Promise<void> {
    if (this.rows > 0) {
      this.statements.push(this.params);
      this.params = [];
      this.rows = 0;
    }
    await this.commit();
    await this.queue?.drain();
    await this.copies?.drain();
  }

  private async commit(): Promise<void> {
    // The SQLite paths below bypass Kysely's driver, where every other statement is made storable.
    const statements = this.statements.map(storeParams);
    if (statements.length === 0) return;
    this.statements = [];
    const raw = rawSqlite(this.db);
    const writer = raw ? sqliteWriterFor(this.db) : null;
    if (writer) {
      // Written on the writer thread while this one goes on (see lib/store/sqlite-writer.ts).
      this.queue ??= new WriteQueue(writer);
      const batch: Statement[] = statements.map((params) => {
        const n = params.length / COLUMNS.length;
        return [n === ROWS_PER_STATEMENT ? this.fullText : insertText("sqlite", n), params];
      });
      await this.queue.send(batch);
    } else if (raw) {
      // Kysely's SQLite driver prepares every statement it runs; a 1,920-parameter INSERT
      // prepared anew for each 64 rows cost more than binding and stepping it.
      await this.db.connection().execute(async () => {
        raw.transaction(() => {
          for (const params of statements)
            this.sqliteStatement(raw, params.length / COLUMNS.length).run(params);
        })();
      });
    } else if (rawPgPool(this.db)) {
      this.copies ??= new CopyQueue(rawPgPool(this.db)!, "trtllm_requests", COLUMNS);
      await this.copies.send(statements.flat());
    } else {
      await this.db.transaction().execute(async (trx) => {
        for (const params of statements) {
          const n = params.length / COLUMNS.length;
          const text = n === ROWS_PER_STATEMENT ? this.fullText : insertText(this.dialect, n);
          await trx.executeQuery(CompiledQuery.raw(text, params));
        }
      });
    }
    for (const params of statements) this.inserted += params.length / COLUMNS.length;
    // better-sqlite3 is synchronous: without a turn of the event loop between transactions, a
    // large run's finish would keep the server from answering anything else for seconds.
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** The full-size statement, prepared once per writer; a short last one is prepared when met. */
  private sqliteStatement(raw: SQLite.Database, rows: number): SQLite.Statement {
    if (rows !== ROWS_PER_STATEMENT) return raw.prepare(insertText("sqlite", rows));
    return (this.full ??= raw.prepare(this.fullText));
  }
}
