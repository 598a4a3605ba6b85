/**
 * A run's request timeline as one stored blob (docs/metrics.md §Request timeline): named
 * typed-array columns and a JSON description beside them. The store keeps what it is given; what
 * the columns mean is lib/metrics/request-timeline-pack.ts's. A million-request run is one read
 * of ~60 MB, where its rows took seconds.
 *
 * Layout: a little-endian u32 header length, the header (UTF-8 JSON: `meta` and each column's
 * name, type, length and byte offset), then the columns, each starting on an 8-byte boundary
 * from the start of the blob, so a column is read as a view of the blob's memory, not copied.
 *
 * Runs stored since the columns moved to the run's Parquet files keep a blob of the header alone
 * (`meta.timelineFile`, no column; ./columnar/timeline-file.ts), which `readTimelineColumns`
 * follows to the file; runs stored before keep their columns here and are read as ever.
 */
import { endianness } from "node:os";
import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "kysely";
import type { Db } from "./db";
import { readTimelineFile, timelineFileHeaderOf, type TimelineFileHeader } from "./columnar/timeline-file";
import { rawSqlite } from "./raw-sqlite";
import { readSqliteBlob } from "./sqlite-blob-read";

export type StoredColumn = Float64Array | Int32Array | Uint16Array | Uint8Array;

export interface StoredColumns {
  /** JSON-serialisable description of the columns, kept as given. */
  meta: unknown;
  columns: Record<string, StoredColumn>;
}

const TYPES = {
  f64: Float64Array,
  i32: Int32Array,
  u16: Uint16Array,
  u8: Uint8Array,
} as const;
type TypeName = keyof typeof TYPES;

interface ColumnEntry {
  name: string;
  type: TypeName;
  length: number;
  offset: number;
}

const LITTLE_ENDIAN = endianness() === "LE";
const align8 = (n: number) => Math.ceil(n / 8) * 8;

function typeOf(c: StoredColumn): TypeName {
  if (c instanceof Float64Array) return "f64";
  if (c instanceof Int32Array) return "i32";
  if (c instanceof Uint16Array) return "u16";
  return "u8";
}

/** Reverses each element's bytes in place: the stored order on a big-endian machine. */
function swapBytes(bytes: Uint8Array, size: number): void {
  if (size === 1) return;
  for (let i = 0; i < bytes.length; i += size) bytes.subarray(i, i + size).reverse();
}

export function encodeStoredColumns(stored: StoredColumns): Buffer {
  const entries: ColumnEntry[] = [];
  let at = 0;
  for (const [name, c] of Object.entries(stored.columns)) {
    entries.push({ name, type: typeOf(c), length: c.length, offset: at });
    at = align8(at + c.byteLength);
  }
  const header = Buffer.from(JSON.stringify({ meta: stored.meta, columns: entries }), "utf8");
  const dataStart = align8(4 + header.length);
  const out = Buffer.alloc(dataStart + at);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  for (const e of entries) {
    const c = stored.columns[e.name];
    const bytes = new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
    out.set(bytes, dataStart + e.offset);
    if (!LITTLE_ENDIAN)
      swapBytes(out.subarray(dataStart + e.offset, dataStart + e.offset + c.byteLength), c.BYTES_PER_ELEMENT);
  }
  return out;
}

/** Lists of this many strings or more in a header are parsed a slice (of as many) at a time. */
const STRINGS_SLICE = 20_000;
/** What stands for a long list while the rest of the header is parsed. */
const LIST_MARK = "\u0000\u0001runlens-strings:";

/** The index just past the JSON string that opens at `i` (its closing quote is one not escaped). */
function stringEnd(text: string, i: number): number {
  for (let j = text.indexOf('"', i + 1); j !== -1; j = text.indexOf('"', j + 1)) {
    let k = j - 1;
    while (text.charCodeAt(k) === 0x5c) k--;
    if ((j - 1 - k) % 2 === 0) return j + 1;
  }
  return text.length;
}

/**
 * JSON.parse of `text` in steps: a header names every conversation of a run (2 MB for 200,000),
 * and one JSON.parse of it held the server ~100 ms at rest. Each array of at least STRINGS_SLICE
 * strings is parsed a slice at a time, the rest (small) at once with a mark in each such
 * array's place. Throws where JSON.parse throws.
 */
function* parseJsonInSteps(text: string): Generator<void, unknown, void> {
  const lists: Array<{ start: number; end: number; cuts: number[] }> = [];
  let scanned = 0;
  for (let i = 0; i < text.length;) {
    if (i - scanned > 1 << 18) {
      scanned = i;
      yield;
    }
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 0x5b && text.charCodeAt(i + 1) === 0x22) {
      // An array that may hold only strings: each boundary of a slice is the comma before it.
      const cuts: number[] = [];
      let j = i + 1;
      let count = 0;
      let strings = false;
      while (j < text.length && text.charCodeAt(j) === 0x22) {
        j = stringEnd(text, j);
        count++;
        const d = text.charCodeAt(j);
        if (d === 0x5d) {
          strings = true;
          j++;
          break;
        }
        if (d !== 0x2c) break;
        if (count % STRINGS_SLICE === 0) {
          cuts.push(j);
          yield;
        }
        j++;
      }
      if (strings && count >= STRINGS_SLICE) {
        lists.push({ start: i, end: j, cuts });
        i = j;
        continue;
      }
    }
    i++;
  }
  if (lists.length === 0) return JSON.parse(text);
  const parsed: string[][] = [];
  let skeleton = "";
  let from = 0;
  for (const [k, l] of lists.entries()) {
    skeleton += `${text.slice(from, l.start)}${JSON.stringify(LIST_MARK + k)}`;
    from = l.end;
    const out: string[] = [];
    const bounds = [l.start, ...l.cuts, l.end - 1];
    for (let b = 0; b + 1 < bounds.length; b++) {
      yield;
      for (const v of JSON.parse(`[${text.slice(bounds[b] + 1, bounds[b + 1])}]`) as string[]) out.push(v);
    }
    parsed.push(out);
  }
  skeleton += text.slice(from);
  yield;
  return JSON.parse(skeleton, (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(LIST_MARK)
      ? (parsed[Number(value.slice(LIST_MARK.length))] ?? value)
      : value,
  );
}

/** The columns of a stored blob, or null when the bytes are not such a blob. */
export function decodeStoredColumns(bytes: Uint8Array): StoredColumns | null {
  const steps = decodeInSteps(bytes);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** decodeStoredColumns in steps: its header's long lists of names parsed a slice a step. */
function* decodeInSteps(bytes: Uint8Array): Generator<void, StoredColumns | null, void> {
  if (bytes.byteLength < 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(0, true);
  if (4 + headerLength > bytes.byteLength) return null;
  let header: { meta?: unknown; columns?: ColumnEntry[] };
  try {
    header = (yield* parseJsonInSteps(
      Buffer.from(bytes.buffer, bytes.byteOffset + 4, headerLength).toString("utf8"),
    )) as typeof header;
  } catch {
    return null;
  }
  if (!Array.isArray(header.columns)) return null;
  const dataStart = align8(4 + headerLength);
  const columns: Record<string, StoredColumn> = {};
  for (const e of header.columns) {
    const Type = TYPES[e.type];
    if (!Type || !Number.isInteger(e.length) || !Number.isInteger(e.offset)) return null;
    const from = dataStart + e.offset;
    const size = e.length * Type.BYTES_PER_ELEMENT;
    if (e.offset < 0 || e.length < 0 || from + size > bytes.byteLength) return null;
    const start = bytes.byteOffset + from;
    // A view where the memory is aligned and in order; a copy otherwise.
    if (LITTLE_ENDIAN && start % Type.BYTES_PER_ELEMENT === 0) {
      columns[e.name] = new Type(bytes.buffer as ArrayBuffer, start, e.length);
      continue;
    }
    const copy = new Type(e.length);
    const raw = new Uint8Array(copy.buffer);
    raw.set(bytes.subarray(from, from + size));
    if (!LITTLE_ENDIAN) swapBytes(raw, Type.BYTES_PER_ELEMENT);
    columns[e.name] = copy;
  }
  return { meta: header.meta ?? null, columns };
}

/**
 * The largest blob stored: SQLite refuses a value past 1 GB and PostgreSQL a bytea past 1 GB, and
 * a failed insert would fail the run's commit. A run past it (some ten million requests) keeps
 * no columns and is read from its rows, as before they were stored.
 */
export const MAX_TIMELINE_BYTES = 512 * 2 ** 20;

/**
 * Replaces the run's stored timeline with `stored` (`count` requests) and, beside it, the JSON
 * of its first window (`firstWindow`, see lib/ingest/timeline-columns.ts); stores none past
 * `maxBytes`. Called inside the transaction that commits the run, so the columns and the
 * `ready` status land together. Returns whether the columns were stored.
 */
export async function writeTimelineColumns(
  trx: Db,
  runId: string,
  count: number,
  stored: StoredColumns,
  maxBytes = MAX_TIMELINE_BYTES,
  firstWindow: string | null = null,
): Promise<boolean> {
  await trx.deleteFrom("run_timeline_columns").where("run_id", "=", runId).execute();
  const columnBytes = Object.values(stored.columns).reduce((n, c) => n + c.byteLength, 0);
  if (columnBytes > maxBytes) return false;
  const data = encodeStoredColumns(stored);
  if (data.byteLength > maxBytes) return false;
  await trx
    .insertInto("run_timeline_columns")
    .values({ run_id: runId, count, data, first_window: firstWindow })
    .execute();
  return true;
}

/** The JSON of the run's stored first window (one small read, not the blob); null when none was stored. */
export async function readTimelineFirstWindow(db: Db, runId: string): Promise<string | null> {
  const row = await db
    .selectFrom("run_timeline_columns")
    .select("first_window")
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return row?.first_window ?? null;
}

/** Whether the run has a stored timeline (one index lookup, no blob read). */
export async function hasTimelineColumns(db: Db, runId: string): Promise<boolean> {
  const row = await db
    .selectFrom("run_timeline_columns")
    .select("count")
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * On PostgreSQL the blob is read this many bytes at a time, with a turn of the event loop
 * between pieces (its driver parses and decodes an answer on the main thread).
 */
export const TIMELINE_READ_PIECE = 256 * 1024;

/**
 * The run's stored timeline; null when it was ingested before timelines were stored, or the blob
 * is unreadable, or it went away while it was read (a re-ingest clears it first). On SQLite the
 * blob is read on a worker thread (./sqlite-blob-read.ts: SQLite loads a blob whole even for a
 * piece of it); its header is parsed in steps with a turn of the event loop between them.
 */
export async function readTimelineColumns(
  db: Db,
  runId: string,
  piece = TIMELINE_READ_PIECE,
): Promise<StoredColumns | null> {
  const bytes = rawSqlite(db) ? await readSqliteColumns(db, runId) : await readPgColumns(db, runId, piece);
  if (!bytes) return null;
  const steps = decodeInSteps(bytes);
  for (;;) {
    await nextTurn();
    const r = steps.next();
    if (!r.done) continue;
    // A run stored since the columns moved to its Parquet file keeps only their header here.
    const file = r.value && timelineFileHeaderOf(r.value.meta);
    return file ? readTimelineFile(db, runId, file) : r.value;
  }
}

/**
 * The columns as the catalog keeps them for a run whose timeline is in its Parquet file
 * (./columnar/timeline-file.ts): the file's header alone, no column.
 */
export function timelineFileColumns(header: TimelineFileHeader): StoredColumns {
  return { meta: { timelineFile: header }, columns: {} };
}

async function readSqliteColumns(db: Db, runId: string): Promise<Uint8Array | null> {
  const off = await readSqliteBlob(db, "select data from run_timeline_columns where run_id = ?", [runId]);
  if (off !== undefined) return off;
  // In memory (tests): inline.
  const row = await db
    .selectFrom("run_timeline_columns")
    .select("data")
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return row?.data ?? null;
}

async function readPgColumns(db: Db, runId: string, piece: number): Promise<Uint8Array | null> {
  const head = await db
    .selectFrom("run_timeline_columns")
    .select(sql<number>`length(${sql.ref("data")})`.as("bytes"))
    .where("run_id", "=", runId)
    .executeTakeFirst();
  if (!head) return null;
  const bytes = Number(head.bytes);
  // A fresh buffer of its own: its start is aligned, so every column is a view of it, not a copy.
  const out = new Uint8Array(new ArrayBuffer(bytes));
  for (let at = 0; at < bytes; at += piece) {
    if (at > 0) await nextTurn();
    const length = Math.min(piece, bytes - at);
    const part = await pgPiece(db, runId, at, length);
    // Gone (a re-ingest cleared it) or replaced by a blob of another size: not this timeline.
    if (!part || part.byteLength !== length) return null;
    out.set(part, at);
  }
  return out;
}

/** One piece of the blob from PostgreSQL, sent as base64 (a third smaller than bytea's hex, as for ./metric-values.ts). */
async function pgPiece(db: Db, runId: string, at: number, length: number): Promise<Buffer | null> {
  const row = await db
    .selectFrom("run_timeline_columns")
    .select(
      sql<string>`encode(substring(${sql.ref("data")} from ${at + 1} for ${length}), 'base64')`.as("b64"),
    )
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return row ? Buffer.from(row.b64, "base64") : null;
}
