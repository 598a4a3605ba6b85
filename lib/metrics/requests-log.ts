/**
 * Per-request values of a run kept in growable typed columns, so a million-record run costs
 * about 80 MB of numbers instead of a million objects. Times are milliseconds relative to a
 * nanosecond base fixed by the first timestamp seen; `origin()` later re-anchors them to the
 * run's first request. NaN marks "not recorded".
 */
import type { AiperfRecord } from "@/lib/formats/aiperf-records";
import { ChunkedColumn } from "./chunked-column";
import { PASS_STEP, sortInSteps } from "./stats";
import type { Steps } from "./steps";

export const FLAG_WARMUP = 1;
export const FLAG_ERROR = 2;
export const FLAG_CANCELLED = 4;

const COLUMNS = ["startMs", "endMs", "ttftMs", "e2eMs", "itlMs", "inputTokens", "outputTokens"] as const;
export type RequestColumn = (typeof COLUMNS)[number];

/** One request's numbers, as a parsed aiperf record carries them (other producers map onto them). */
export type RequestValues = Pick<
  AiperfRecord,
  "startNs" | "endNs" | "ttftMs" | "e2eMs" | "itlMs" | "inputTokens" | "outputTokens"
>;

/** A request's values with nothing read yet: the readers fill one and reuse it record by record. */
export function emptyRequestValues(): RequestValues {
  return {
    startNs: null,
    endNs: null,
    ttftMs: null,
    e2eMs: null,
    itlMs: null,
    inputTokens: null,
    outputTokens: null,
  };
}

export interface RequestEntry extends RequestValues {
  flags: number;
}

/** Milliseconds between two exact nanosecond stamps: subtract as BigInt first, then convert. */
export function nsDeltaMs(ns: bigint, base: bigint): number {
  return Number(ns - base) / 1e6;
}

export class RequestLog {
  length = 0;
  /**
   * The columns as a read fills them: chunked, so growing never copies what is held nor keeps a
   * doubled capacity (docs/performance.md §Ingest memory of an aiperf upload). `cols` and `flags`
   * hand out each column as one exact typed array once the read is over.
   */
  private store = Object.fromEntries(COLUMNS.map((c) => [c, new ChunkedColumn(Float64Array)])) as Record<
    RequestColumn,
    ChunkedColumn<Float64Array>
  >;
  private flagStore = new ChunkedColumn(Uint8Array);
  /** `cols` as last handed out, until the next add */
  private whole: Record<RequestColumn, Float64Array> | null = null;
  /** Nanosecond stamp all `startMs`/`endMs` are relative to */
  baseNs: bigint | null = null;
  private sortedCache = new Map<RequestColumn, { length: number; values: Float64Array }>();
  private measuredCache: { length: number; indices: Uint32Array } | null = null;

  /**
   * A log of `flags.length` requests whose values are already columns (a run's request file read
   * back, lib/runs/column-charts.ts): each given column is taken as it is, not copied; a column
   * not given reads as not recorded (NaN). Times are on whatever ms axis the columns are; no
   * nanosecond base.
   */
  static fromColumns(columns: Partial<Record<RequestColumn, Float64Array>>, flags: Uint8Array): RequestLog {
    const log = new RequestLog();
    const n = flags.length;
    for (const k of COLUMNS) {
      const given = columns[k];
      if (given && given.length !== n)
        throw new Error(`request log: ${k} has ${given.length} values, not ${n}`);
      log.store[k] = ChunkedColumn.of(given ?? new Float64Array(n).fill(NaN));
    }
    log.flagStore = ChunkedColumn.of(flags as Uint8Array<ArrayBuffer>);
    log.length = n;
    return log;
  }

  /** Shared with other time series of the run (GPU samples), so they land on one axis. */
  relMs(ns: bigint | null): number {
    if (ns === null) return NaN;
    if (this.baseNs === null) this.baseNs = ns;
    return nsDeltaMs(ns, this.baseNs);
  }

  push(e: RequestEntry): void {
    this.add(e, e.flags);
  }

  /** Appends a record's values with its flags (no merged entry object per record). */
  add(e: RequestValues, flags: number): void {
    this.whole = null;
    const c = this.store;
    c.startMs.push(this.relMs(e.startNs));
    c.endMs.push(this.relMs(e.endNs));
    c.ttftMs.push(e.ttftMs ?? NaN);
    c.e2eMs.push(e.e2eMs ?? NaN);
    c.itlMs.push(e.itlMs ?? NaN);
    c.inputTokens.push(e.inputTokens ?? NaN);
    c.outputTokens.push(e.outputTokens ?? NaN);
    this.flagStore.push(flags);
    this.length++;
  }

  /** Appends record `i` of another log that shares this log's base. */
  copyFrom(other: RequestLog, i: number): void {
    this.whole = null;
    for (const k of COLUMNS) this.store[k].push(other.value(k, i));
    this.flagStore.push(other.flagStore.get(i));
    this.length++;
  }

  /** One value of a column, without making the column whole (read while the log is filled). */
  value(name: RequestColumn, i: number): number {
    return this.store[name].get(i);
  }

  /** Each column as one typed array of exactly `length` values (the same arrays until the next add). */
  get cols(): Readonly<Record<RequestColumn, Float64Array>> {
    if (this.whole === null)
      this.whole = Object.fromEntries(COLUMNS.map((k) => [k, this.store[k].array()])) as Record<
        RequestColumn,
        Float64Array
      >;
    return this.whole;
  }

  get flags(): Uint8Array {
    return this.flagStore.array();
  }

  /**
   * Makes every column one exact array, a column at a time (each chunk let go as it is copied),
   * before `finish` makes its copies; a later add moves them back into chunks.
   */
  compact(): void {
    void this.cols;
    void this.flags;
    this.sortedCache.clear();
    this.measuredCache = null;
  }

  /**
   * `compact` in steps: one column made whole a step (a column's values copied, not all eight
   * columns' in one piece: 51 ms of an upload's main thread at 200,000 records, issue 31).
   */
  *compactInSteps(): Steps<void> {
    for (const k of COLUMNS) {
      this.store[k].array();
      yield;
    }
    this.flagStore.array();
    yield;
    this.compact();
  }

  /** Bytes of the columns held (their capacity, not only the values added). */
  get bytes(): number {
    let b = this.flagStore.bytes;
    for (const k of COLUMNS) b += this.store[k].bytes;
    return b;
  }

  column(name: RequestColumn): Float64Array {
    return this.cols[name].subarray(0, this.length);
  }

  /** Indices of profiling-phase records without an error: the population of every latency statistic. */
  measuredIndices(): Uint32Array {
    // Kept until the log grows (the summary asks for them some ten times): callers only read them.
    if (this.measuredCache?.length === this.length) return this.measuredCache.indices;
    const out = new Uint32Array(this.length);
    let n = 0;
    const flags = this.flags;
    for (let i = 0; i < this.length; i++) if ((flags[i] & (FLAG_WARMUP | FLAG_ERROR)) === 0) out[n++] = i;
    const indices = out.subarray(0, n);
    this.measuredCache = { length: this.length, indices };
    return indices;
  }

  /**
   * The column's finite values over `measuredIndices()`, ascending. Kept until the log grows: the
   * requests block, the distribution chart and the verdict values all need the same sort, which
   * at a million requests is a tenth of a second a column.
   */
  sortedMeasured(name: RequestColumn): Float64Array {
    const hit = this.sortedCache.get(name);
    if (hit && hit.length === this.length) return hit.values;
    const values = this.measuredFinite(name);
    values.sort();
    this.sortedCache.set(name, { length: this.length, values });
    return values;
  }

  /**
   * The column's finite values over `measuredIndices()`, in request order, in one exact array to
   * sort in place: no whole-length copy to filter from, and the array kept is no longer than its
   * values (docs/performance.md §Ingest memory of an aiperf upload).
   */
  private measuredFinite(name: RequestColumn): Float64Array {
    const col = this.column(name);
    const idx = this.measuredIndices();
    let n = 0;
    for (let i = 0; i < idx.length; i++) if (Number.isFinite(col[idx[i]])) n++;
    const values = new Float64Array(n);
    n = 0;
    for (let i = 0; i < idx.length; i++) {
      const v = col[idx[i]];
      if (Number.isFinite(v)) values[n++] = v;
    }
    return values;
  }

  /**
   * `sortedMeasured` in steps: the values counted and copied PASS_STEP requests a step, then
   * sorted in steps (`sortInSteps`). The same values, kept the same way.
   */
  *sortedMeasuredInSteps(name: RequestColumn): Steps<Float64Array> {
    const hit = this.sortedCache.get(name);
    if (hit && hit.length === this.length) return hit.values;
    const col = this.column(name);
    const idx = this.measuredIndices();
    let n = 0;
    for (let i = 0; i < idx.length; i++) {
      if (i > 0 && i % PASS_STEP === 0) yield;
      if (Number.isFinite(col[idx[i]])) n++;
    }
    yield;
    const values = new Float64Array(n);
    n = 0;
    for (let i = 0; i < idx.length; i++) {
      if (i > 0 && i % PASS_STEP === 0) yield;
      const v = col[idx[i]];
      if (Number.isFinite(v)) values[n++] = v;
    }
    yield;
    yield* sortInSteps(values);
    this.sortedCache.set(name, { length: this.length, values });
    return values;
  }

  /** The earliest start of any profiling record (ms from base), or NaN. */
  firstProfilingStartMs(): number {
    let min = Infinity;
    const flags = this.flags;
    const start = this.cols.startMs;
    for (let i = 0; i < this.length; i++) {
      if (flags[i] & FLAG_WARMUP) continue;
      const s = start[i];
      if (s < min) min = s;
    }
    return Number.isFinite(min) ? min : NaN;
  }
}

export function pick(col: Float64Array, idx: Uint32Array): Float64Array {
  const out = new Float64Array(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = col[idx[i]];
  return out;
}
