/**
 * A run's request timeline columns as a Parquet file (docs/architecture.md §Where run data lives),
 * beside its aiperf request file: the typed columns of lib/store/timeline-columns.ts, each a
 * Parquet column of its own type, the shorter ones ending in nulls (a Parquet null costs a bit),
 * and each lane grouping's keys as a text column `keys:<by>` likewise. The catalog keeps a small
 * header in `run_timeline_columns.data` (the timeline's description without its keys, each
 * column's name, type and length) and the first window; the file is named by a
 * `run_column_files` row (`timeline`), written before the commit that names the header.
 *
 * The rows go through a DuckDB temp table a chunk at a time, moved to a local Parquet segment
 * every `timelineFileOptions.spillRows` rows; the file is then written from the segments read one
 * after the other, so what DuckDB holds does not grow with the run (docs/performance.md §Ingest
 * memory).
 *
 * A part that starts where its request starts, or where the part before it ends, and a last part
 * that ends where its request ends, store a null for that bound (aiperf's two parts of a request
 * then store one number, not four); reading puts the bound back, bit for bit.
 */
import fs from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  USMALLINT,
  UTINYINT,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBType,
  type DuckDBVector,
} from "@duckdb/node-api";
import type { Db } from "../db";
import { storeText } from "../store-text";
import { openConnection, quote } from "./engine";
import { putRunFile, runFilePath, runFileTmpPath } from "./run-files";

export const TIMELINE_FILE = "timeline";

type Column = Float64Array | Int32Array | Uint16Array | Uint8Array;
type TypeName = "f64" | "i32" | "u16" | "u8";

/** The header the catalog keeps for a timeline whose columns are in its Parquet file. */
export interface TimelineFileHeader {
  /** The file's name among the run's columnar files */
  file: string;
  /** The timeline's description, each lane grouping's `keys` replaced by their count */
  meta: unknown;
  columns: Array<{ name: string; type: TypeName; length: number }>;
  /** Lane groupings whose keys are in the file's `keys:<by>` columns, with their counts */
  keys: Array<{ index: number; by: string; count: number }>;
  /** Part bounds that equal their reference are stored as nulls (see above) */
  elided: boolean;
}

const DUCK: Record<TypeName, DuckDBType> = { f64: DOUBLE, i32: INTEGER, u16: USMALLINT, u8: UTINYINT };
const ARRAYS = { f64: Float64Array, i32: Int32Array, u16: Uint16Array, u8: Uint8Array } as const;

function typeOf(c: Column): TypeName {
  if (c instanceof Float64Array) return "f64";
  if (c instanceof Int32Array) return "i32";
  if (c instanceof Uint16Array) return "u16";
  return "u8";
}

/** The largest of `lengths`, 0 for none */
function longest(lengths: readonly number[]): number {
  let n = 0;
  for (const l of lengths) n = Math.max(n, l);
  return n;
}

/**
 * A numeric vector's values as the typed array @duckdb/node-api keeps them in (`items`), when it
 * is one of `like`'s type: copied in and out whole, where `getItem`/`setItem` take a call and a
 * validity check a value (a million-request timeline's write took seconds of the main thread).
 * Null when the vector keeps them otherwise; the caller then goes value by value.
 */
function itemsOf<T extends Column>(v: DuckDBVector, like: T): T | null {
  const items = (v as unknown as { items?: unknown }).items;
  return items instanceof (like.constructor as new (n: number) => T) ? (items as T) : null;
}

/** Whether the vector has no null (its validity mask is absent: every value valid). */
function allValid(v: DuckDBVector): boolean {
  const validity = (v as unknown as { validity?: { data?: unknown } }).validity;
  return validity !== undefined && validity.data === null;
}

/** Rows a DuckDB data chunk holds (its standard vector size). */
const CHUNK = 2048;

/**
 * `spillRows`: rows the temp table holds before they are moved to a Parquet segment (in the
 * order they were appended, so the segments read one after the other are the timeline's rows in
 * order). DuckDB keeps the table's rows in memory: a 600,000-request aiperf run's whole timeline
 * was 237 MB of its buffer (docs/performance.md §Ingest memory). A multiple of CHUNK; settable
 * for tests. `peakRowsHeld`: the most rows the last written file's table held at once, for tests.
 */
const OPTIONS = Symbol.for("runlens.timelineFileOptions");
export const timelineFileOptions: { spillRows: number; peakRowsHeld: number } = ((
  globalThis as { [OPTIONS]?: { spillRows: number; peakRowsHeld: number } }
)[OPTIONS] ??= { spillRows: 65_536, peakRowsHeld: 0 });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * A timeline's request and part bounds among the columns, with a part offset per request and one
 * after the last; null when the columns are not a timeline's.
 */
function boundColumns(c: Record<string, Column>) {
  const { startMs, endMs, partOffset, partStartMs, partEndMs } = c;
  if (
    !(startMs instanceof Float64Array) ||
    !(endMs instanceof Float64Array) ||
    !(partOffset instanceof Int32Array) ||
    !(partStartMs instanceof Float64Array) ||
    !(partEndMs instanceof Float64Array) ||
    partOffset.length !== startMs.length + 1
  )
    return null;
  return { startMs, endMs, partOffset, partStartMs, partEndMs };
}

/** Requests whose part bounds `elisions` checks between two turns of the event loop. */
export const ELISION_STEP = 16_384;

/**
 * Which part bounds are stored as nulls: `start[p]` when it equals its request's start (a first
 * part) or the end of the part before; `end[p]` when it is its request's last part and equals
 * the request's end. Null when the columns are not a timeline's (no such elision then). A turn
 * of the event loop every ELISION_STEP requests: in one piece it went over every part of the run
 * (400,000 at 200,000 aiperf requests) in one turn of the drill-down.
 */
async function elisions(
  c: Record<string, Column>,
  pause: () => Promise<unknown>,
): Promise<{ start: Uint8Array; end: Uint8Array } | null> {
  const b = boundColumns(c);
  if (!b) return null;
  const { startMs, endMs, partOffset, partStartMs, partEndMs } = b;
  if (
    endMs.length !== startMs.length ||
    partEndMs.length !== partStartMs.length ||
    partOffset[startMs.length] !== partStartMs.length
  )
    return null;
  const start = new Uint8Array(partStartMs.length);
  const end = new Uint8Array(partStartMs.length);
  for (let i = 0; i < startMs.length; i++) {
    if (i > 0 && i % ELISION_STEP === 0) await pause();
    const from = partOffset[i];
    const to = partOffset[i + 1];
    if (from < 0 || to < from || to > partStartMs.length) return null;
    for (let p = from; p < to; p++) {
      if (Object.is(partStartMs[p], p === from ? startMs[i] : partEndMs[p - 1])) start[p] = 1;
      if (p === to - 1 && Object.is(partEndMs[p], endMs[i])) end[p] = 1;
    }
  }
  return { start, end };
}

/**
 * Writes `stored` (the packed timeline: `meta` and its columns) as the run's timeline file and
 * returns the header the catalog keeps for it. Appended a chunk a turn: the server answers others
 * meanwhile.
 */
export async function writeTimelineFile(
  db: Db,
  runId: string,
  stored: { meta: unknown; columns: Record<string, Column> },
): Promise<TimelineFileHeader> {
  const columns = Object.entries(stored.columns).map(([name, c]) => ({ name, c, type: typeOf(c) }));
  const meta = isObject(stored.meta) ? { ...stored.meta } : stored.meta;
  const keyLists: Array<{ index: number; by: string; keys: string[] }> = [];
  if (isObject(meta) && Array.isArray(meta.lanes)) {
    meta.lanes = (meta.lanes as unknown[]).map((l, index) => {
      if (!isObject(l) || !Array.isArray(l.keys)) return l;
      keyLists.push({ index, by: String(l.by), keys: l.keys.map(String) });
      return { ...l, keys: l.keys.length };
    });
  }
  const elided = await elisions(stored.columns, nextTurn);
  const partStartAt = columns.findIndex((c) => c.name === "partStartMs");
  const partEndAt = columns.findIndex((c) => c.name === "partEndMs");
  const rows = longest([...columns.map((c) => c.c.length), ...keyLists.map((k) => k.keys.length)]);
  const names = [...columns.map((c) => c.name), ...keyLists.map((k) => `keys:${k.by}`)];
  const types = [...columns.map((c) => DUCK[c.type]), ...keyLists.map(() => VARCHAR)];
  const conn = await openConnection();
  const tmp = runFileTmpPath(db);
  const schema = names.map((n, i) => `${ident(n)} ${types[i].toString()}`).join(", ");
  const spillRows = Math.max(CHUNK, Math.floor(timelineFileOptions.spillRows / CHUNK) * CHUNK);
  /** Parquet files of the rows moved out of the table, in row order */
  const segments: string[] = [];
  let tableRows = 0;
  let peak = 0;
  try {
    await conn.run(`create temp table timeline (${schema})`);
    let appender: DuckDBAppender | null = await conn.createAppender("timeline", "main", "temp");
    /** Moves the table's rows to a new segment, in the order they were appended. */
    const spill = async (last: boolean) => {
      appender?.closeSync();
      appender = null;
      if (tableRows === 0) return;
      const seg = runFileTmpPath(db, "timeline-segment");
      // Listed first: the cleanup below removes whatever the COPY left.
      segments.push(seg);
      await conn.run(`copy timeline to ${quote(seg)} (format parquet, compression snappy)`);
      await conn.run("drop table timeline");
      tableRows = 0;
      if (last) return;
      await conn.run(`create temp table timeline (${schema})`);
      appender = await conn.createAppender("timeline", "main", "temp");
    };
    try {
      for (let at = 0; at < rows; at += CHUNK) {
        const count = Math.min(CHUNK, rows - at);
        const chunk = DuckDBDataChunk.create(types);
        chunk.rowCount = count;
        columns.forEach(({ c }, i) => {
          const v = chunk.getColumnVector(i);
          const skip = !elided
            ? null
            : i === partStartAt
              ? elided.start
              : i === partEndAt
                ? elided.end
                : null;
          const items = itemsOf(v, c);
          if (items && at + count <= c.length && !skip?.subarray(at, at + count).includes(1))
            items.set(c.subarray(at, at + count));
          else
            for (let j = 0; j < count; j++) {
              const r = at + j;
              v.setItem(j, r < c.length && !skip?.[r] ? (c[r] as never) : null);
            }
          v.flush();
        });
        keyLists.forEach(({ keys }, k) => {
          const v = chunk.getColumnVector(columns.length + k);
          for (let j = 0; j < count; j++)
            v.setItem(j, at + j < keys.length ? (storeText(keys[at + j]) as never) : null);
          v.flush();
        });
        appender!.appendDataChunk(chunk);
        // Flushed a chunk at a time: the flush is synchronous, and rows left to the appender's
        // close at a spill held the event loop for all of them (0.1–0.5 s at 200,000 requests).
        appender!.flushSync();
        tableRows += count;
        peak = Math.max(peak, tableRows);
        if (tableRows >= spillRows) await spill(false);
        await nextTurn();
      }
      // With no segment (a short timeline) the table is copied as it is.
      if (segments.length > 0) await spill(true);
    } finally {
      (appender as DuckDBAppender | null)?.closeSync();
    }
    timelineFileOptions.peakRowsHeld = peak;
    // Segments read one after the other: DuckDB keeps a read's order into a COPY without ORDER BY
    // (its preserve_insertion_order, on by default), so the file's rows are the timeline's rows
    // in order. Version 2 pages: doubles split by byte and integers delta-coded, which zstd then
    // packs to two thirds of version 1's (3.4 MB against 5.2 MB for a generated 100,000-request
    // aiperf run, before the part bounds' nulls took it to 2.1 MB).
    const source =
      segments.length === 0
        ? "timeline"
        : `(select ${names.map(ident).join(", ")} from read_parquet([${segments.map(quote).join(", ")}]))`;
    await conn.run(`copy ${source} to ${quote(tmp)} (format parquet, compression zstd, parquet_version v2)`);
    await putRunFile(db, runId, TIMELINE_FILE, tmp, rows);
  } finally {
    conn.closeSync();
    await fs.promises.rm(tmp, { force: true });
    for (const f of segments) await fs.promises.rm(f, { force: true });
  }
  return {
    file: TIMELINE_FILE,
    meta,
    columns: columns.map(({ name, c, type }) => ({ name, type, length: c.length })),
    keys: keyLists.map(({ index, by, keys }) => ({ index, by, count: keys.length })),
    elided: elided !== null,
  };
}

/** A column name as an SQL identifier */
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Whether a header read from the catalog names a timeline file (else it is a blob of columns). */
export function timelineFileHeaderOf(meta: unknown): TimelineFileHeader | null {
  if (!isObject(meta) || !isObject(meta.timelineFile)) return null;
  const h = meta.timelineFile;
  if (typeof h.file !== "string" || !Array.isArray(h.columns) || !Array.isArray(h.keys)) return null;
  return h as unknown as TimelineFileHeader;
}

/** Elements of the columns allocated (zero-filled) by `readTimelineFile` between two turns. */
export const ALLOC_PER_TURN = 1 << 20;

/**
 * The columns of the run's timeline file as `header` describes them, with the description's
 * keys put back; null when the run has no such file or it does not match the header. Read one
 * DuckDB chunk at a time with a turn of the event loop (`pause`) between chunks; the columns are
 * allocated at most ALLOC_PER_TURN elements a turn (a column longer than that alone): at 200,000
 * requests, allocated in one piece, they were most of a 17–21 ms slice of CPU, which grows with
 * the run.
 */
export async function readTimelineFile(
  db: Db,
  runId: string,
  header: TimelineFileHeader,
  { pause = nextTurn }: { pause?: () => Promise<unknown> } = {},
): Promise<{ meta: unknown; columns: Record<string, Column> } | null> {
  const file = await runFilePath(db, runId, header.file);
  if (file === null) return null;
  const cols: Column[] = [];
  let allocated = 0;
  for (const e of header.columns) {
    const Type = ARRAYS[e.type];
    if (!Type || !Number.isInteger(e.length) || e.length < 0) return null;
    if (allocated > 0 && allocated + e.length > ALLOC_PER_TURN) {
      await pause();
      allocated = 0;
    }
    cols.push(new Type(e.length));
    allocated += e.length;
  }
  const keys = header.keys.map((k) => new Array<string>(k.count));
  const partStartAt = header.columns.findIndex((c) => c.name === "partStartMs");
  const partEndAt = header.columns.findIndex((c) => c.name === "partEndMs");
  const nulls = new Map<number, Uint8Array>();
  if (header.elided)
    for (const i of [partStartAt, partEndAt])
      if (i !== -1) nulls.set(i, new Uint8Array(header.columns[i].length));
  const names = [...header.columns.map((c) => c.name), ...header.keys.map((k) => `keys:${k.by}`)];
  const conn = await openConnection();
  try {
    const result = await conn.stream(
      `select ${names.map(ident).join(", ")} from read_parquet(${quote(file)})`,
    );
    let at = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const count = chunk.rowCount;
      cols.forEach((c, i) => {
        const end = Math.min(count, c.length - at);
        if (end <= 0) return;
        const v: DuckDBVector = chunk.getColumnVector(i);
        const items = itemsOf(v, c);
        if (items && allValid(v)) {
          c.set(items.subarray(0, end), at);
          return;
        }
        const isNull = nulls.get(i);
        for (let j = 0; j < end; j++) {
          const x = v.getItem(j) as number | null;
          if (x !== null) c[at + j] = x;
          else if (isNull) isNull[at + j] = 1;
          else throw new Error(`timeline file: a null in ${header.columns[i].name}`);
        }
      });
      keys.forEach((k, i) => {
        const end = Math.min(count, k.length - at);
        if (end <= 0) return;
        const v: DuckDBVector = chunk.getColumnVector(cols.length + i);
        for (let j = 0; j < end; j++) k[at + j] = String(v.getItem(j));
      });
      at += count;
      await pause();
    }
    const rows = longest([...cols.map((c) => c.length), ...keys.map((k) => k.length)]);
    if (at < rows) return null;
  } finally {
    conn.closeSync();
  }
  const columns: Record<string, Column> = {};
  header.columns.forEach((e, i) => (columns[e.name] = cols[i]));
  if (header.elided && !(await restoreBounds(columns, nulls.get(partStartAt), nulls.get(partEndAt), pause)))
    return null;
  let meta = header.meta;
  if (isObject(meta) && Array.isArray(meta.lanes)) {
    const lanes = [...(meta.lanes as unknown[])];
    header.keys.forEach((k, i) => {
      const l = lanes[k.index];
      if (isObject(l)) lanes[k.index] = { ...l, keys: keys[i] };
    });
    meta = { ...meta, lanes };
  }
  return { meta, columns };
}

/** Puts back the part bounds stored as nulls (see `elisions`), in order; false if one has no reference. */
async function restoreBounds(
  c: Record<string, Column>,
  startNull: Uint8Array | undefined,
  endNull: Uint8Array | undefined,
  pause: () => Promise<unknown>,
): Promise<boolean> {
  const b = boundColumns(c);
  if (!startNull || !endNull || !b) return false;
  const { startMs, endMs, partOffset, partStartMs, partEndMs } = b;
  for (let i = 0; i < startMs.length; i++) {
    if (i % 65_536 === 65_535) await pause();
    const from = partOffset[i];
    const to = partOffset[i + 1];
    if (from < 0 || to < from || to > partStartMs.length) return false;
    for (let p = from; p < to; p++) {
      if (startNull[p]) partStartMs[p] = p === from ? startMs[i] : partEndMs[p - 1];
      if (endNull[p]) {
        if (p !== to - 1) return false;
        partEndMs[p] = endMs[i];
      }
    }
  }
  return true;
}
