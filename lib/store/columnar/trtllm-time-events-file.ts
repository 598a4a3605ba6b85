/**
 * TensorRT-LLM's time events as one Parquet file per run (docs/architecture.md §Where run data
 * lives): a row per request and file, the columns of `trtllm_time_events` without `run_id`. While
 * ingest hands out finished requests, their rows are appended to a DuckDB temp table of the
 * writer's own connection and moved to a local Parquet segment every
 * `timeEventFileOptions.spillRows` rows, so neither the server nor DuckDB holds the run's events;
 * once every file is read one COPY writes the run's file, sorted by role, request and seq (a
 * request's rows together, in row groups of ROW_GROUP rows) and with Bloom filters on the id
 * columns, so a lookup by any of the three ids skips the row groups that cannot hold it.
 *
 * Runs stored before the file keep their rows in `trtllm_time_events` and are read from there
 * (lib/store/trtllm-time-events.ts chooses).
 */
import type { Db } from "../db";
import { storeText } from "../store-text";
import type { TrtllmTimeEventsTable } from "../tables/trtllm";
import { runFileSource } from "./run-files";
import { appendText, processOptions, RunFileStage, StageRegistry } from "./run-file-stage";

export const TRTLLM_TIME_EVENTS_FILE = "trtllm-time-event-rows";

/**
 * The staged columns: a row's, and two the file does not keep, which say of a request's lines in
 * one file whether they reached its role's last event and, where not, the event of the last line
 * (what the Files view says of a file, counted by `fileRequests`).
 */
const STAGE_COLUMNS = `seq bigint, role varchar, req_key varchar, request_id varchar,
  ctx_request_id varchar, disagg_request_id varchar, file_no integer, events_json varchar,
  finished boolean, stopped_after varchar`;

/** What one file's rows say of its requests (`TimeEventFileWriter.fileRequests`). */
export interface TimeEventFileRequests {
  /** Distinct requests (role and key) per role, in the order of `roles` */
  byRole: Array<{ role: TrtllmTimeEventsTable["role"]; requests: number }>;
  /** Requests none of whose rows reached their role's last event */
  unfinished: number;
  /** The first `shown` of them in the file's order, with the event each stopped after */
  firstUnfinished: Array<{
    role: TrtllmTimeEventsTable["role"];
    requestId: string;
    stoppedAfter: string | null;
  }>;
}

/** Appended rows a flush of the appender moves into the temp table (as aiperf-request-file.ts). */
const FLUSH_ROWS = 4_096;

/**
 * Rows a row group of the file holds: a lookup reads the row groups whose statistics or Bloom
 * filter may hold its id, each some 2,048 requests' events.
 */
const ROW_GROUP = 2_048;

/**
 * `spillRows`: rows the temp table holds before they move to a segment (a multiple of
 * FLUSH_ROWS; settable for tests). `peakRowsHeld`: the most rows the last written writer's table
 * held at once, for tests.
 */
export const timeEventFileOptions = processOptions("runlens.timeEventFileOptions", {
  spillRows: 32_768,
  peakRowsHeld: 0,
});

/** Writers under way, by run: a failed ingest's are dropped with its other derived data. */
const writers = new StageRegistry<TimeEventFileWriter>();

export type TimeEventFileRow = Omit<TrtllmTimeEventsTable, "run_id" | "seq">;

/** The run's time-event rows, staged as they come and written as its Parquet file by `write`. */
export class TimeEventFileWriter extends RunFileStage {
  constructor(db: Db, runId: string) {
    super(
      db,
      runId,
      { name: "time_event_stage", columns: STAGE_COLUMNS, segmentExt: "time-events-segment" },
      writers,
    );
  }

  get written(): number {
    return this.rows;
  }

  /**
   * `finished`: the row's lines reached their role's last event (a per-request line is whole);
   * `stoppedAfter`: where not, the event of its last line.
   */
  async add(row: TimeEventFileRow, finished = true, stoppedAfter: string | null = null): Promise<void> {
    if (this.closed) throw new Error("time-event file writer used after it was written");
    if (!this.appender) await this.open();
    const a = this.appender!;
    a.appendBigInt(BigInt(this.rows++));
    a.appendVarchar(row.role);
    a.appendVarchar(storeText(row.req_key));
    a.appendVarchar(storeText(row.request_id));
    appendText(a, row.ctx_request_id);
    appendText(a, row.disagg_request_id);
    a.appendInteger(row.file_no);
    a.appendVarchar(storeText(row.events_json));
    a.appendBoolean(finished);
    appendText(a, stoppedAfter);
    a.endRow();
    this.tableRowAdded();
    if (this.tableRows % FLUSH_ROWS === 0) a.flushSync();
    if (this.tableRows >= timeEventFileOptions.spillRows) await this.spill();
  }

  /**
   * The requests of file `fileNo`'s rows, counted by DuckDB over the staged rows (the temp table
   * and the segments spilled so far), so the count holds nothing per request on the JavaScript
   * side and is exact at any size: a request is its role and key, however many rows its lines
   * made; it is unfinished when none of its rows reached the last event; the first `shown`
   * unfinished are named in the order their rows were staged.
   */
  async fileRequests(fileNo: number, shown: number): Promise<TimeEventFileRequests> {
    if (!this.conn) return { byRole: [], unfinished: 0, firstUnfinished: [] };
    this.appender?.flushSync();
    const from = (table: string) =>
      `select seq, role, req_key, request_id, finished, stopped_after from ${table} where file_no = ${fileNo}`;
    const staged = [
      ...(this.appender ? [from("time_event_stage")] : []),
      ...(this.segments.length > 0 ? [from(`read_parquet([${this.segmentList()}])`)] : []),
    ];
    if (staged.length === 0) return { byRole: [], unfinished: 0, firstUnfinished: [] };
    const requests = `(select role, req_key, min(seq) as first_seq, arg_min(request_id, seq) as request_id,
        bool_or(finished) as finished, arg_min(stopped_after, seq) as stopped_after
      from (${staged.join(" union all ")}) group by role, req_key)`;
    const counts = (
      await this.conn.runAndReadAll(
        `select role, count(*)::double as requests, (count(*) filter (not finished))::double as unfinished
          from ${requests} group by role`,
      )
    ).getRowObjectsJS() as Array<{
      role: TrtllmTimeEventsTable["role"];
      requests: number;
      unfinished: number;
    }>;
    const first =
      shown > 0 && counts.some((c) => c.unfinished > 0)
        ? ((
            await this.conn.runAndReadAll(
              `select role, request_id as "requestId", stopped_after as "stoppedAfter" from ${requests}
                where not finished order by first_seq limit ${shown}`,
            )
          ).getRowObjectsJS() as TimeEventFileRequests["firstUnfinished"])
        : [];
    return {
      byRole: counts.map((c) => ({ role: c.role, requests: c.requests })),
      unfinished: counts.reduce((n, c) => n + c.unfinished, 0),
      firstUnfinished: first,
    };
  }

  /**
   * Writes the staged rows as the run's file and names it (`run_column_files`); false when no
   * row was staged. The file is written under a temp name and stored whole before the row names
   * it: a killed or failed write leaves no file of the run.
   */
  async write(): Promise<boolean> {
    if (this.rows === 0) {
      this.discard();
      return false;
    }
    timeEventFileOptions.peakRowsHeld = this.peakTableRows;
    await this.writeRunFile(TRTLLM_TIME_EVENTS_FILE, async (tmp) => {
      await this.spill(true);
      // A row group's ids kept in a dictionary (its 64 kB limit holds 2,048 ids of 20 digits),
      // as DuckDB writes a Bloom filter only for a dictionary-encoded column. A larger limit
      // is memory DuckDB takes per column while writing (1 MB ran out of its 256 MB).
      await this.conn!.run(`copy (
          select role, req_key, seq, request_id, ctx_request_id, disagg_request_id, file_no, events_json
          from read_parquet([${this.segmentList()}]) order by role, req_key, seq
        ) to ${tmp} (format parquet, compression zstd, row_group_size ${ROW_GROUP},
          dictionary_size_limit 65536, bloom_filter_false_positive_ratio 0.01)`);
    });
    return true;
  }
}

/** Drops every time-event writer of `runId` under way (a failed or re-begun ingest). */
export function discardTimeEventWriters(runId: string): void {
  writers.discardRun(runId);
}

/** The run's time-events file as a DuckDB table expression; null: the run keeps rows, or has none. */
export function timeEventsSource(db: Db, runId: string): Promise<string | null> {
  return runFileSource(db, runId, TRTLLM_TIME_EVENTS_FILE);
}
