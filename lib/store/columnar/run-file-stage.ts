/**
 * What the writers of a run's Parquet files share (aiperf-request-file.ts,
 * trtllm-request-file.ts, trtllm-time-events-file.ts): rows are appended to a DuckDB temp table of
 * the writer's own connection, moved to a local Parquet segment in the cache's temp folder when the
 * writer says so (so neither the server nor DuckDB holds the run's rows), and once every row is
 * staged one COPY writes the run's file from them under a temp name, stored whole before a
 * `run_column_files` row names it (a killed or failed write leaves no file of the run; what it left
 * in the temp folder is swept, run-files.ts). The writers under way are kept by run, so a failed or
 * re-begun ingest drops its staged rows with its other derived data.
 */
import fs from "node:fs";
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";
import type { Db } from "../db";
import { storeText } from "../store-text";
import { openConnection, quote } from "./engine";
import { putRunFile, runFileTmpPath } from "./run-files";

/** A writer's temp table and its segments. */
export interface StageTable {
  /** The temp table's name, on the writer's own connection */
  name: string;
  /** Its columns, as `create table` takes them */
  columns: string;
  /** The segments' extension in the cache's temp folder (what a test or a sweep sees of them) */
  segmentExt: string;
  /** Rows a row group of a segment holds; DuckDB's default when absent */
  segmentRowGroup?: number;
}

/** The stages under way of one kind, by run. */
export class StageRegistry<S extends { discard(): void }> {
  private readonly byRun = new Map<string, Set<S>>();

  add(runId: string, stage: S): void {
    let set = this.byRun.get(runId);
    if (!set) this.byRun.set(runId, (set = new Set()));
    set.add(stage);
  }

  delete(runId: string, stage: S): void {
    const set = this.byRun.get(runId);
    set?.delete(stage);
    if (set?.size === 0) this.byRun.delete(runId);
  }

  /** Drops every stage of `runId` under way (a failed or re-begun ingest). */
  discardRun(runId: string): void {
    for (const s of [...(this.byRun.get(runId) ?? [])]) s.discard();
  }

  /** Every stage under way, of every run. */
  *all(): Generator<S> {
    for (const set of this.byRun.values()) yield* set;
  }
}

/**
 * The object at `Symbol.for(key)` on globalThis, `defaults` the first time: a writer's settable
 * options, one per process although the bundle may hold several copies of its module.
 */
export function processOptions<T extends object>(key: string, defaults: T): T {
  const holder = globalThis as { [k: symbol]: T | undefined };
  return (holder[Symbol.for(key)] ??= defaults);
}

/** Staged rows of one run's file: the temp table, its segments, the connection holding them. */
export abstract class RunFileStage {
  protected conn: DuckDBConnection | null = null;
  protected appender: DuckDBAppender | null = null;
  private opening: Promise<void> | null = null;
  /** Rows staged so far */
  protected rows = 0;
  /** Rows in the temp table now, not yet moved to a segment */
  protected tableRows = 0;
  /** Most rows the temp table held at once, for tests */
  protected peakTableRows = 0;
  protected closed = false;
  /** Staged rows in Parquet files, in the order they were added */
  protected readonly segments: string[] = [];

  constructor(
    protected readonly db: Db,
    protected readonly runId: string,
    private readonly table: StageTable,
    private readonly registry: StageRegistry<RunFileStage>,
  ) {
    registry.add(runId, this);
  }

  /** Opens the connection and the temp table; awaited before the first row. */
  open(): Promise<void> {
    this.opening ??= (async () => {
      this.conn = await openConnection();
      await this.newTable();
    })();
    return this.opening;
  }

  private async newTable(): Promise<void> {
    const { name, columns } = this.table;
    await this.conn!.run(`create temp table ${name} (${columns})`);
    this.appender = await this.conn!.createAppender(name, "main", "temp");
  }

  /** Counts a row appended to the temp table. */
  protected tableRowAdded(): void {
    this.tableRows++;
    if (this.tableRows > this.peakTableRows) this.peakTableRows = this.tableRows;
  }

  /** The temp table's rows have moved to a segment. */
  protected tableEmptied(): void {
    this.tableRows = 0;
  }

  /**
   * Moves the temp table's rows to a new segment, in the table's order (which is the order they
   * were appended: nothing here asks DuckDB to reorder), and starts the table afresh unless
   * `last` (the stage is being written).
   */
  protected async spill(last = false): Promise<void> {
    if (this.tableRows === 0) return;
    const conn = this.conn!;
    const { name, segmentExt, segmentRowGroup } = this.table;
    this.appender?.closeSync();
    this.appender = null;
    const seg = runFileTmpPath(this.db, segmentExt);
    // Listed first: a failed ingest's discard removes whatever the COPY left.
    this.segments.push(seg);
    const rowGroup = segmentRowGroup === undefined ? "" : `, row_group_size ${segmentRowGroup}`;
    await conn.run(`copy ${name} to ${quote(seg)} (format parquet, compression snappy${rowGroup})`);
    await conn.run(`drop table ${name}`);
    this.tableEmptied();
    if (!last) await this.newTable();
  }

  /** The segments as the list `read_parquet` takes. */
  protected segmentList(): string {
    return this.segments.map(quote).join(", ");
  }

  /**
   * Writes the run's file `name`: `copyTo` writes it to the temp path it is given (an SQL
   * literal), which is then stored and named with the staged rows' count. The stage is done
   * either way. `db`: the catalog to store it in (the stage's own by default).
   */
  protected async writeRunFile(
    name: string,
    copyTo: (tmp: string) => Promise<void>,
    db: Db = this.db,
  ): Promise<void> {
    const tmp = runFileTmpPath(db);
    try {
      await copyTo(quote(tmp));
      await putRunFile(db, this.runId, name, tmp, this.rows);
    } finally {
      await fs.promises.rm(tmp, { force: true });
      this.discard();
    }
  }

  /** Drops the staged rows: the temp tables with the connection, the segment files. */
  discard(): void {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.segments) fs.rmSync(f, { force: true });
    try {
      this.appender?.closeSync();
    } catch {
      // A failed append leaves the appender unusable; the connection below still closes.
    }
    this.appender = null;
    this.conn?.closeSync();
    this.conn = null;
    this.registry.delete(this.runId, this);
  }
}

/** Text as both row stores keep it (../store-text.ts): a NUL becomes U+FFFD; null as NULL. */
export function appendText(a: DuckDBAppender, v: string | null): void {
  if (v === null) a.appendNull();
  else a.appendVarchar(storeText(v));
}
