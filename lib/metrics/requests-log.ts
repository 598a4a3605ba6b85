/**
 * Per-request values of a run kept in growable typed columns, so a million-record run costs
 * about 80 MB of numbers instead of a million objects. Times are milliseconds relative to a
 * nanosecond base fixed by the first timestamp seen; `origin()` later re-anchors them to the
 * run's first request. NaN marks "not recorded".
 */
import type { AiperfRecord } from "@/lib/formats/aiperf-records";
import { sortedFinite } from "./stats";

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
  private cap = 1024;
  readonly cols = Object.fromEntries(COLUMNS.map((c) => [c, new Float64Array(1024)])) as Record<
    RequestColumn,
    Float64Array
  >;
  flags = new Uint8Array(1024);
  /** Nanosecond stamp all `startMs`/`endMs` are relative to */
  baseNs: bigint | null = null;
  private sortedCache = new Map<RequestColumn, { length: number; values: Float64Array }>();
  private measuredCache: { length: number; indices: Uint32Array } | null = null;

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
    if (this.length === this.cap) this.grow();
    const i = this.length++;
    const c = this.cols;
    c.startMs[i] = this.relMs(e.startNs);
    c.endMs[i] = this.relMs(e.endNs);
    c.ttftMs[i] = e.ttftMs ?? NaN;
    c.e2eMs[i] = e.e2eMs ?? NaN;
    c.itlMs[i] = e.itlMs ?? NaN;
    c.inputTokens[i] = e.inputTokens ?? NaN;
    c.outputTokens[i] = e.outputTokens ?? NaN;
    this.flags[i] = flags;
  }

  /** Appends record `i` of another log that shares this log's base. */
  copyFrom(other: RequestLog, i: number): void {
    if (this.length === this.cap) this.grow();
    const j = this.length++;
    for (const k of COLUMNS) this.cols[k][j] = other.cols[k][i];
    this.flags[j] = other.flags[i];
  }

  private grow(): void {
    this.cap = Math.max(1024, this.cap * 2);
    for (const k of COLUMNS) {
      const next = new Float64Array(this.cap);
      next.set(this.cols[k]);
      this.cols[k] = next;
    }
    const f = new Uint8Array(this.cap);
    f.set(this.flags);
    this.flags = f;
  }

  /**
   * Trims every column to the values held, one column at a time, so the doubling's unused half
   * (up to half of each column) is garbage before `finish` makes its copies; a later add grows
   * the log again (docs/performance.md §Ingest memory of an aiperf upload).
   */
  compact(): void {
    if (this.cap === this.length) return;
    for (const k of COLUMNS) this.cols[k] = this.cols[k].slice(0, this.length);
    this.flags = this.flags.slice(0, this.length);
    this.cap = this.length;
    // Cached views over the old buffers would keep them: same values, recomputed on demand.
    this.sortedCache.clear();
    this.measuredCache = null;
  }

  /** Bytes of the columns held (their capacity, not only the values added). */
  get bytes(): number {
    let b = this.flags.byteLength;
    for (const k of COLUMNS) b += this.cols[k].byteLength;
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
    for (let i = 0; i < this.length; i++)
      if ((this.flags[i] & (FLAG_WARMUP | FLAG_ERROR)) === 0) out[n++] = i;
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
    const values = sortedFinite(pick(this.column(name), this.measuredIndices()));
    this.sortedCache.set(name, { length: this.length, values });
    return values;
  }

  /** The earliest start of any profiling record (ms from base), or NaN. */
  firstProfilingStartMs(): number {
    let min = Infinity;
    for (let i = 0; i < this.length; i++) {
      if (this.flags[i] & FLAG_WARMUP) continue;
      const s = this.cols.startMs[i];
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
