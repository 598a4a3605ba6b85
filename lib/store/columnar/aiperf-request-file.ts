/**
 * aiperf per-request records as one Parquet file per run (docs/architecture.md §Where run data
 * lives). While the records stream in, their rows are appended to a DuckDB temp table of the
 * ingest's own connection, moved every `spillRows` rows to a local Parquet segment so that what
 * DuckDB holds does not grow with the run; once every
 * file is read, the run's origin is known and one COPY writes the file, zstd-compressed, with
 * starts and ends counted from the run's first request and the inputs.json reuse estimate of each
 * request. The columns are those of `aiperf_requests` without `run_id`, so a query over the file
 * reads like one over the rows of runs stored before it.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { DuckDBAppender } from "@duckdb/node-api";
import type { Db } from "../db";
import type { AiperfRequestsTable } from "../tables/aiperf";
import { queryRows } from "./engine";
import { runFileSource } from "./run-files";
import { appendText as text, processOptions, RunFileStage, StageRegistry } from "./run-file-stage";

export const AIPERF_REQUESTS_FILE = "aiperf-requests";

/** The staged columns, in append order; `seq` keeps the upload's order through the COPY */
const STAGE_COLUMNS = `seq bigint, file_id varchar, line integer, request_id varchar, phase varchar,
  ok integer, cancelled integer, error_type varchar, start_ms double, end_ms double, ttft_ms double,
  e2e_ms double, itl_ms double, input_tokens double, output_tokens double, conversation_id varchar,
  turn_index integer, cached_tokens integer, possible_reuse_tokens integer, worker_id varchar`;

/**
 * Appended rows a flush of the appender moves into the temp table. DuckDB's appender keeps rows
 * until about 200,000 (or its close): flushed on the way, the rows are in the table while the
 * upload still arrives, and the close before the COPY (after the upload's last byte) has at most
 * this many left to move, not the whole run's (docs/performance.md §The summary path). A flush
 * is synchronous: 4,096 rows hold the event loop ~10 ms, where 16,384 held it 30–70 ms. DuckDB
 * runs it as an INSERT it plans and commits, the rows copied into the transaction's storage and
 * then into the table, each column's statistics (min/max, distinct-count sketch) updated on the
 * way; it happens in `flush`, in a turn of its own, never in the turn of the records before it.
 */
const FLUSH_ROWS = 4_096;

/**
 * `spillRows`: rows the temp table holds before they are moved to a Parquet segment (in seq
 * order, so the segments read one after the other are the upload's order). DuckDB keeps the
 * staged rows in memory, about 200 bytes a row: a 600,000-record run's were over 100 MB of its
 * buffer (docs/performance.md §Ingest memory). A multiple of FLUSH_ROWS; settable for tests.
 * `peakRowsHeld`: the most rows the last written stage's table held at once, for tests.
 */
export const aiperfStageOptions = processOptions("runlens.aiperfStageOptions", {
  spillRows: 65_536,
  peakRowsHeld: 0,
});

/** One turn's inputs.json estimate as a line in the prompt length (lib/store/aiperf-inputs-reuse.ts) */
export interface InputsReuseLine {
  conversationId: string;
  turn: number;
  scale: number;
  offset: number;
}

/** Stages under way, by run: a failed ingest's are dropped with its other derived data. */
const stages = new StageRegistry<AiperfRequestStage>();

/** The row sink of the records reader (the BatchInserter's push/flush contract). */
export class AiperfRequestStage extends RunFileStage {
  /**
   * Whether the segments, read in list order, are the staged rows in seq order: false once a
   * segment DuckDB read itself is added while the table still holds earlier rows. (The segments
   * are rows moved out of the temp table, and records DuckDB read itself,
   * aiperf-records-native.ts.)
   */
  private inOrder = true;
  /** FLUSH_ROWS rows appended since the appender's last flush: `flush` flushes it. */
  private appenderFull = false;

  constructor(runId: string, db: Db) {
    super(
      db,
      runId,
      { name: "aiperf_stage", columns: STAGE_COLUMNS, segmentExt: "requests-segment" },
      stages,
    );
  }

  get length(): number {
    return this.rows;
  }

  /**
   * Appends one row; asks for a flush every FLUSH_ROWS rows (the appender's) and once the table
   * holds aiperfStageOptions.spillRows (its rows moved to a segment).
   */
  push(row: AiperfRequestsTable): boolean {
    const a = this.appender;
    if (!a) throw new Error("aiperf request stage used before open()");
    a.appendBigInt(BigInt(this.rows++));
    text(a, row.file_id);
    a.appendInteger(row.line);
    text(a, row.request_id);
    text(a, row.phase);
    a.appendInteger(row.ok);
    a.appendInteger(row.cancelled);
    text(a, row.error_type);
    double(a, row.start_ms);
    double(a, row.end_ms);
    double(a, row.ttft_ms);
    double(a, row.e2e_ms);
    double(a, row.itl_ms);
    double(a, row.input_tokens);
    double(a, row.output_tokens);
    text(a, row.conversation_id ?? null);
    integer(a, row.turn_index ?? null);
    integer(a, row.cached_tokens ?? null);
    integer(a, row.possible_reuse_tokens ?? null);
    text(a, row.worker_id);
    a.endRow();
    this.tableRowAdded();
    if (this.tableRows % FLUSH_ROWS === 0) this.appenderFull = true;
    return this.appenderFull || this.tableRows >= aiperfStageOptions.spillRows;
  }

  /**
   * Flushes the appender when FLUSH_ROWS rows wait in it, alone between two turns of the event
   * loop (in the turn of the rows' records, it made that turn's slice two or three times as long
   * as the flush); then moves the table's rows to a segment once it holds
   * aiperfStageOptions.spillRows.
   */
  async flush(): Promise<void> {
    if (this.appenderFull && this.appender) {
      this.appenderFull = false;
      await nextTurn();
      this.appender.flushSync();
      await nextTurn();
    }
    if (this.tableRows >= aiperfStageOptions.spillRows) await this.spill();
  }

  /**
   * Adds `rows` staged rows written to the Parquet file at `path` (in the stage's column order,
   * `seq` from this stage's length), which the stage now owns.
   */
  addSegment(path: string, rows: number): void {
    if (this.closed) throw new Error("aiperf request stage used after it was written");
    if (this.tableRows > 0) this.inOrder = false;
    this.segments.push(path);
    this.rows += rows;
  }

  /**
   * Writes the staged rows as the run's Parquet file: starts and ends shifted by `originMs`, each
   * request's inputs.json estimate from `inputs` (same arithmetic as possibleOnLine in
   * lib/metrics/inputs-reuse.ts: ISL × scale + offset, clamped to [0, ISL]; none without an ISL).
   */
  async write(db: Db, originMs: number, inputs: Iterable<InputsReuseLine> = []): Promise<void> {
    await this.open();
    const conn = this.conn!;
    this.appender!.closeSync();
    this.appender = null;
    await conn.run(
      "create temp table inputs_turns (conversation_id varchar, turn_index integer, isl_scale double, token_offset double)",
    );
    const lines = await conn.createAppender("inputs_turns", "main", "temp");
    let estimates = 0;
    for (const l of inputs) {
      estimates++;
      lines.appendVarchar(l.conversationId);
      lines.appendInteger(l.turn);
      lines.appendDouble(l.scale);
      lines.appendDouble(l.offset);
      lines.endRow();
    }
    lines.closeSync();
    // A double literal in exponent form: DuckDB reads it as the same double (a plain decimal
    // literal would be a DECIMAL first).
    const origin = `${(Number.isFinite(originMs) ? originMs : 0).toExponential()}::double`;
    const v = "(s.input_tokens * t.isl_scale + t.token_offset)";
    aiperfStageOptions.peakRowsHeld = this.peakTableRows;
    await this.writeRunFile(
      AIPERF_REQUESTS_FILE,
      async (tmp) => {
        if (estimates === 0 && this.inOrder) {
          // The usual case: no estimate to join, the segments in seq order. Read one after the
          // other, as DuckDB keeps a read's order into a COPY without ORDER BY (its
          // preserve_insertion_order, on by default), they are written as they come: no sort of
          // the whole run, which held every row in DuckDB's memory at once.
          await this.spill(true);
          await conn.run(`copy (
              select s.file_id, s.line, s.request_id, s.phase, s.ok, s.cancelled, s.error_type,
                s.start_ms - ${origin} as start_ms, s.end_ms - ${origin} as end_ms,
                s.ttft_ms, s.e2e_ms, s.itl_ms, s.input_tokens, s.output_tokens,
                s.conversation_id, s.turn_index, s.cached_tokens, s.possible_reuse_tokens,
                null::double as inputs_reuse_tokens, s.worker_id
              from read_parquet([${this.segmentList()}]) s
            ) to ${tmp} (format parquet, compression zstd)`);
          return;
        }
        await conn.run(`copy (
          select s.file_id, s.line, s.request_id, s.phase, s.ok, s.cancelled, s.error_type,
            s.start_ms - ${origin} as start_ms, s.end_ms - ${origin} as end_ms,
            s.ttft_ms, s.e2e_ms, s.itl_ms, s.input_tokens, s.output_tokens,
            s.conversation_id, s.turn_index, s.cached_tokens, s.possible_reuse_tokens,
            case when s.input_tokens is null or t.isl_scale is null then null
              when ${v} < 0 then 0 when ${v} > s.input_tokens then s.input_tokens else ${v} end
              as inputs_reuse_tokens,
            s.worker_id
          from ${this.source()} s left join inputs_turns t
            on t.conversation_id = s.conversation_id and t.turn_index = s.turn_index
          order by s.seq
        ) to ${tmp} (format parquet, compression zstd)`);
      },
      db,
    );
  }

  /** The appended rows and the segments' as one table expression */
  private source(): string {
    if (this.segments.length === 0) return "aiperf_stage";
    return `(select * from aiperf_stage union all select * from read_parquet([${this.segmentList()}]))`;
  }
}

/** Drops every stage of `runId` under way (a failed or re-begun ingest). */
export function discardAiperfStages(runId: string): void {
  stages.discardRun(runId);
}

/** Rows staged and not yet written, over every ingest under way: what a live ingest has read so far. */
export function stagedAiperfRows(): number {
  let n = 0;
  for (const s of stages.all()) n += s.length;
  return n;
}

function double(a: DuckDBAppender, v: number | null): void {
  if (v === null || Number.isNaN(v)) a.appendNull();
  else a.appendDouble(v);
}

function integer(a: DuckDBAppender, v: number | null): void {
  if (v === null) a.appendNull();
  else a.appendInteger(v);
}

/**
 * The run's aiperf request file as a DuckDB table expression; null: the run keeps rows (stored
 * before it, or imported). `rowNumbers` adds `file_row_number`, the upload order.
 */
export function aiperfRequestsSource(
  db: Db,
  runId: string,
  { rowNumbers = false }: { rowNumbers?: boolean } = {},
): Promise<string | null> {
  return runFileSource(db, runId, AIPERF_REQUESTS_FILE, rowNumbers ? ", file_row_number = true" : "");
}

/**
 * Each stored aiperf request's `x_request_id` and file, wherever the run keeps them: its request
 * file, or rows (imported tools, runs stored before the request file). For joins by request id.
 */
export async function aiperfRequestIds(
  db: Db,
  runId: string,
): Promise<Array<{ request_id: string | null; file_id: string }>> {
  const src = await aiperfRequestsSource(db, runId);
  const rows = await db
    .selectFrom("aiperf_requests")
    .select(["request_id", "file_id"])
    .where("run_id", "=", runId)
    .execute();
  if (!src) return rows;
  const fromFile = await queryRows<{ request_id: string | null; file_id: string }>(
    `select request_id, file_id from ${src}`,
  );
  return rows.length === 0 ? fromFile : [...rows, ...fromFile];
}
