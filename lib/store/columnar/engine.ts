/**
 * The process's one DuckDB engine (docs/architecture.md §Where run data lives): an in-memory
 * database that stages per-request columns while an upload streams in, writes them as a run's
 * Parquet file and answers queries over such files. One instance per process, like the app
 * context: several would each take the configured threads and memory. Its settings come from
 * the app's configuration (`configureColumnar`, README §Configuration); until then, defaults
 * that fit a small 2-core host.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  DuckDBInstance,
  JSDuckDBValueConverter,
  type DuckDBConnection,
  type DuckDBValue,
  type DuckDBVector,
} from "@duckdb/node-api";

export interface ColumnarSettings {
  /** Worker threads DuckDB may use */
  threads: number;
  /** DuckDB's memory limit, as DuckDB reads it ("256MB", "1GB") */
  memoryLimit: string;
  /** Where DuckDB spills what does not fit its memory limit */
  tempDir: string;
}

export const DEFAULT_COLUMNAR_SETTINGS: ColumnarSettings = {
  threads: 2,
  memoryLimit: "512MB",
  tempDir: path.join(os.tmpdir(), "runlens-duckdb"),
};

interface EngineHolder {
  settings: ColumnarSettings;
  instance: Promise<DuckDBInstance> | null;
}

// On globalThis, as for the app context: the bundle may hold several copies of this module.
const KEY = Symbol.for("runlens.columnarEngine");
const holder = globalThis as { [KEY]?: EngineHolder };
const engine = (holder[KEY] ??= { settings: DEFAULT_COLUMNAR_SETTINGS, instance: null });

/** DuckDB's options: never fetch an extension (json and parquet are built in). */
function options(s: ColumnarSettings): Record<string, string> {
  return {
    threads: String(s.threads),
    memory_limit: s.memoryLimit,
    temp_directory: s.tempDir,
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
  };
}

/** What DuckDB says when asked to move the temp directory it has already spilled to. */
const TEMP_DIR_IN_USE = "Cannot switch temporary directory after the current one has been used";

/** Applies `settings`: at creation when the engine is not yet running, else to the running one. */
export async function configureColumnar(settings: ColumnarSettings): Promise<void> {
  engine.settings = settings;
  fs.mkdirSync(settings.tempDir, { recursive: true });
  if (!engine.instance) return;
  const c = await (await engine.instance).connect();
  try {
    await c.run(`set threads = ${Math.max(1, Math.floor(settings.threads))}`);
    await c.run(`set memory_limit = ${quote(settings.memoryLimit)}`);
    await c.run(`set temp_directory = ${quote(settings.tempDir)}`).catch((err: unknown) => {
      // DuckDB keeps the temp directory it has spilled to: the next connection opens a fresh
      // engine with these settings, and connections open on the old one finish there. Any other
      // failure is the caller's to see.
      if (!(err instanceof Error && err.message.includes(TEMP_DIR_IN_USE))) throw err;
      engine.instance = null;
    });
  } finally {
    c.closeSync();
  }
}

function instance(): Promise<DuckDBInstance> {
  if (!engine.instance) {
    fs.mkdirSync(engine.settings.tempDir, { recursive: true });
    engine.instance = DuckDBInstance.create(":memory:", options(engine.settings)).catch((err) => {
      engine.instance = null;
      throw err;
    });
  }
  return engine.instance;
}

/** A fresh connection, closed once `fn` settles. */
export async function withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const c = await (await instance()).connect();
  try {
    return await fn(c);
  } finally {
    c.closeSync();
  }
}

/** A connection the caller closes (an appender lives as long as its connection). */
export async function openConnection(): Promise<DuckDBConnection> {
  return (await instance()).connect();
}

/**
 * Rows of `text` as objects of JS values (numbers for INTEGER and DOUBLE columns), converted one
 * DuckDB chunk (about 2,000 rows) at a time with a turn of the event loop between chunks. Read
 * all at once, the conversion of a run's 200,000 requests held the server for seconds.
 */
export async function queryRows<R>(text: string, values: DuckDBValue[] = []): Promise<R[]> {
  const rows: R[] = [];
  for await (const chunk of streamRowObjects<R>(text, values)) for (const r of chunk) rows.push(r);
  return rows;
}

/**
 * The rows of `text` as objects of JS values, one DuckDB chunk (about 2,000 rows) at a time, with
 * a turn of the event loop after each: a reader that keeps less than every row keeps no more.
 */
export async function* streamRowObjects<R>(text: string, values: DuckDBValue[] = []): AsyncGenerator<R[]> {
  const c = await openConnection();
  try {
    const result = await c.stream(text, values);
    for await (const chunk of result.yieldRowObjectJs()) {
      yield chunk as R[];
      await nextTurn();
    }
  } finally {
    c.closeSync();
  }
}

/** A string as an SQL literal: for paths and settings, which DuckDB does not take as parameters. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The rows of `text` as arrays of JS values, one DuckDB chunk (about 2,000 rows) at a time: a
 * million-row read never holds more than a chunk of row arrays.
 */
export async function* streamRows(text: string, values: DuckDBValue[] = []): AsyncGenerator<unknown[][]> {
  const c = await openConnection();
  try {
    const result = await c.stream(text, values);
    for await (const rows of result.yieldRowsJs()) {
      yield rows as unknown[][];
      await nextTurn();
    }
  } finally {
    c.closeSync();
  }
}

/** Rows of a DuckDB chunk converted to JS values between two turns by `streamRowSlices`. */
export const ROW_SLICE = 250;

/** What a sliced read awaits between two slices: by default a turn of the event loop. */
export type Pause = () => Promise<unknown>;

/**
 * `streamRows` in slices of at most `slice` rows, with `pause` awaited after each: a DuckDB chunk
 * (2,048 rows) converted to JS values in one piece held the server for tens of ms, some hundreds
 * at load 40 (the trace export's 2,000 sampled rows, 216 ms of CPU with their shaping). Each
 * slice's rows are converted only when it is asked for, so a reader that stops early converts no
 * more.
 */
export async function* streamRowSlices(
  text: string,
  values: DuckDBValue[] = [],
  { slice = ROW_SLICE, pause = nextTurn as Pause }: { slice?: number; pause?: Pause } = {},
): AsyncGenerator<unknown[][]> {
  const c = await openConnection();
  try {
    const result = await c.stream(text, values);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return;
      for (let from = 0; from < chunk.rowCount; from += slice) {
        const rows: unknown[][] = [];
        for (let r = from; r < Math.min(chunk.rowCount, from + slice); r++)
          rows.push(chunk.convertRowValues(r, JSDuckDBValueConverter));
        yield rows;
        await pause();
      }
    }
  } finally {
    c.closeSync();
  }
}

/** The rows of `text` as arrays of JS values, converted a chunk at a time as `queryRows` does. */
export async function queryArrays(text: string, values: DuckDBValue[] = []): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const chunk of streamRows(text, values)) for (const r of chunk) rows.push(r);
  return rows;
}

/** A DOUBLE vector's `count` values into `out` from `at`, null as NaN. */
export function copyDoubles(v: DuckDBVector, out: Float64Array, at: number, count: number): void {
  const items = (v as unknown as { items?: unknown }).items;
  const validity = (v as unknown as { validity?: { data?: unknown } }).validity;
  if (items instanceof Float64Array && validity !== undefined && validity.data === null) {
    out.set(items.subarray(0, count), at);
    return;
  }
  for (let j = 0; j < count; j++) {
    const x = v.getItem(j) as number | null;
    out[at + j] = x === null ? NaN : x;
  }
}
