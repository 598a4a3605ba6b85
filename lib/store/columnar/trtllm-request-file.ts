/**
 * TensorRT-LLM's per-request rows as one Parquet file per run (docs/architecture.md §Where run
 * data lives): the columns of `trtllm_requests` without `run_id`, a row per request in idx order.
 * While the run's summary hands out its requests (in idx order), their rows are appended to a
 * DuckDB temp table of the writer's own connection and moved to a local Parquet segment once the
 * text they hold reaches `trtllmRequestFileOptions.spillBytes` (or `spillRows` rows): a row holds
 * its steps' JSON, kilobytes each, so a count of rows alone let DuckDB's staged rows outgrow its
 * memory limit. Once every request is handed out, one COPY reads the segments in order (DuckDB
 * keeps a read's order without a sort, preserve_insertion_order) and writes the run's file in
 * small row groups (the segments too: what DuckDB holds to keep the order is some row groups).
 * A look-up by idx reads the row groups whose statistics may hold it; one by id scans the id
 * columns (some MB at 100,000 requests).
 *
 * Runs stored before the file keep their rows in `trtllm_requests` and are read from there (every
 * reader asks `trtllmRequestsSource` first).
 */
import type { Db } from "../db";
import { storeText } from "../store-text";
import type { TrtllmRequestsTable } from "../tables/trtllm";
import { runFileSource } from "./run-files";
import { processOptions, RunFileStage, StageRegistry } from "./run-file-stage";

export const TRTLLM_REQUESTS_FILE = "trtllm-request-rows";

/**
 * A row of the file: the columns of `trtllm_requests`, then what only the file keeps (files
 * written before these columns lack them; the charts computed on read leave such a run's charts
 * as stored).
 */
export type TrtllmRequestFileRow = Omit<TrtllmRequestsTable, "run_id"> & {
  /** Output tokens the request's latency counts (`outputTokensOf`); null: not known */
  output_tokens: number | null;
  /** 1 when the first response carried every token (`RequestLatency.oneResponse`), else 0 */
  one_response: number;
};

/**
 * The columns in `trtllm_requests`' order without `run_id`, and their DuckDB types. Integers the
 * table keeps as bigint are doubles here (exact to 2^53, read back as JS numbers, not BigInts).
 */
const COLUMNS = [
  ["idx", "integer"],
  ["mode", "varchar"],
  ["request_id", "varchar"],
  ["ctx_request_id", "varchar"],
  ["disagg_request_id", "varchar"],
  ["ctx_server", "varchar"],
  ["gen_server", "varchar"],
  ["ctx_worker", "varchar"],
  ["gen_worker", "varchar"],
  ["arrival_ms", "double"],
  ["ttft_ms", "double"],
  ["e2e_ms", "double"],
  ["times_json", "varchar"],
  ["segments_json", "varchar"],
  ["kv_total_blocks", "double"],
  ["kv_new_blocks", "double"],
  ["kv_reused_blocks", "double"],
  ["kv_missed_blocks", "double"],
  ["kv_hit_rate", "double"],
  ["kv_transfer_bytes", "double"],
  ["kv_transfer_ms", "double"],
  ["kv_bandwidth_gbps", "double"],
  ["spec_accepted_tokens", "double"],
  ["spec_draft_tokens", "double"],
  ["first_iter", "double"],
  ["last_iter", "double"],
  ["step_count", "integer"],
  ["chunk_count", "integer"],
  ["steps_json", "varchar"],
  ["output_tokens", "double"],
  ["one_response", "integer"],
] as const satisfies ReadonlyArray<readonly [keyof TrtllmRequestFileRow, "integer" | "double" | "varchar"]>;

/** Every column of the file, in order. */
export const TRTLLM_REQUEST_FILE_COLUMNS = COLUMNS.map(([c]) => c);

/** The file's columns that `trtllm_requests` has, in order: what a row run gives without `run_id`. */
export const TRTLLM_REQUEST_ROW_COLUMNS = TRTLLM_REQUEST_FILE_COLUMNS.filter(
  (c) => c !== "output_tokens" && c !== "one_response",
);

const STAGE_COLUMNS = COLUMNS.map(([c, t]) => `${c} ${t}`).join(", ");

/**
 * Appended rows (or text, in characters) a flush of the appender moves into the temp table: a
 * flush is synchronous, and a row's text is kilobytes.
 */
const FLUSH_ROWS = 1_024;
const FLUSH_CHARS = 2 << 20;

/**
 * Rows a row group of the file and of a segment holds. Small, as a row is kilobytes: DuckDB's
 * Parquet writer holds a row group per thread while it writes, the order-keeping COPY holds the
 * row groups it read ahead, and a look-up by idx reads whole row groups.
 */
const ROW_GROUP = 1_024;

/**
 * `spillBytes`: characters of text the temp table holds before its rows move to a segment;
 * `spillRows`: rows, likewise (a multiple of FLUSH_ROWS); settable for tests. `peakCharsHeld` and
 * `peakRowsHeld`: the most the last written writer's table held at once, for tests.
 */
export interface TrtllmRequestFileOptions {
  spillBytes: number;
  spillRows: number;
  peakCharsHeld: number;
  peakRowsHeld: number;
}
export const trtllmRequestFileOptions = processOptions<TrtllmRequestFileOptions>(
  "runlens.trtllmRequestFileOptions",
  { spillBytes: 16 << 20, spillRows: 32_768, peakCharsHeld: 0, peakRowsHeld: 0 },
);

/** Writers under way, by run: a failed ingest's are dropped with its other derived data. */
const writers = new StageRegistry<TrtllmRequestFileWriter>();

/** The run's request rows, staged as they come and written as its Parquet file by `write`. */
export class TrtllmRequestFileWriter extends RunFileStage {
  private tableChars = 0;
  private unflushedRows = 0;
  private unflushedChars = 0;
  private peakChars = 0;

  constructor(db: Db, runId: string) {
    super(
      db,
      runId,
      {
        name: "trtllm_request_stage",
        columns: STAGE_COLUMNS,
        segmentExt: "trtllm-requests-segment",
        segmentRowGroup: ROW_GROUP,
      },
      writers,
    );
  }

  get written(): number {
    return this.rows;
  }

  /**
   * Appends one row (rows come in idx order); returns a promise, to be awaited, only when the
   * staged rows are due to move to a segment (or the writer is not yet open).
   */
  push(row: TrtllmRequestFileRow): Promise<void> | undefined {
    if (this.closed) throw new Error("TensorRT-LLM request file writer used after it was written");
    if (!this.appender) return this.open().then(() => this.push(row));
    const a = this.appender;
    const r = row as unknown as Record<string, unknown>;
    let chars = 0;
    for (const [c, t] of COLUMNS) {
      const v = r[c];
      if (v === null || v === undefined) a.appendNull();
      else if (t === "varchar") {
        const s = storeText(v as string);
        chars += s.length;
        a.appendVarchar(s);
      } else if (t === "integer") a.appendInteger(v as number);
      else if (Number.isNaN(v)) a.appendNull();
      else a.appendDouble(v as number);
    }
    a.endRow();
    this.rows++;
    this.tableRowAdded();
    this.tableChars += chars;
    this.unflushedRows++;
    this.unflushedChars += chars;
    if (this.tableChars > this.peakChars) this.peakChars = this.tableChars;
    if (this.unflushedRows >= FLUSH_ROWS || this.unflushedChars >= FLUSH_CHARS) {
      a.flushSync();
      this.unflushedRows = 0;
      this.unflushedChars = 0;
    }
    const o = trtllmRequestFileOptions;
    return this.tableChars >= o.spillBytes || this.tableRows >= o.spillRows ? this.spill() : undefined;
  }

  protected tableEmptied(): void {
    super.tableEmptied();
    this.tableChars = 0;
    this.unflushedRows = 0;
    this.unflushedChars = 0;
  }

  /**
   * Writes the staged rows as the run's file and names it (`run_column_files`); false when no
   * row was staged. The file is written under a temp name and stored whole before the row names
   * it: a killed or failed write leaves no file of the run. The writer is done either way.
   */
  async write(): Promise<boolean> {
    if (this.rows === 0) {
      this.discard();
      return false;
    }
    trtllmRequestFileOptions.peakRowsHeld = this.peakTableRows;
    trtllmRequestFileOptions.peakCharsHeld = this.peakChars;
    await this.writeRunFile(TRTLLM_REQUESTS_FILE, async (tmp) => {
      await this.spill(true);
      // No ORDER BY: the segments, read one after the other, are the rows in idx order, and a
      // sort would hold the run's text in DuckDB's memory. DuckDB keeps that order by holding
      // the batches it read until they can be written in turn: segments of small row groups keep
      // that small (100,000 rows of 3 kB of steps: 65 MB at most, where segments of one row
      // group each reached the 256 MB limit). No `dictionary_size_limit` (which DuckDB's Bloom
      // filters on the ids would need): it ran the same write out of 256 MB at 60,000 rows.
      await this.conn!.run(`copy (
          select ${TRTLLM_REQUEST_FILE_COLUMNS.join(", ")} from read_parquet([${this.segmentList()}])
        ) to ${tmp} (format parquet, compression zstd, row_group_size ${ROW_GROUP})`);
    });
    return true;
  }
}

/** Drops every request-file writer of `runId` under way (a failed or re-begun ingest). */
export function discardTrtllmRequestWriters(runId: string): void {
  writers.discardRun(runId);
}

/** The run's request file as a DuckDB table expression; null: the run keeps rows, or has none. */
export function trtllmRequestsSource(db: Db, runId: string): Promise<string | null> {
  return runFileSource(db, runId, TRTLLM_REQUESTS_FILE);
}
