/**
 * A growable typed column held in fixed chunks: a value costs its type's bytes (8 for a double,
 * 1 for a small code) where a JS array of numbers costs 8 and more, and growing never copies
 * what is held (a doubling array holds the old and the new copy at once, and leaves the old as
 * garbage). The first chunk doubles from a small size up to a whole chunk, so a short column
 * stays small. Once a read is over, `array()` turns the chunks into one typed array of exactly
 * the values, letting each chunk go as it is copied; that array is then the column (writes to it
 * are kept) until a later push moves the values back into chunks. Used by the timeline builder
 * and the aiperf read's request, turn and session columns (docs/performance.md §Ingest memory of
 * an aiperf upload).
 */
export type ChunkedArray = Float64Array | Int32Array | Uint8Array;

/**
 * Values per full chunk: a power of two, so a position is split by shift and mask. The read's
 * columns (a request's eight, its turn columns, the open conversations' six) all start a new
 * chunk at the same record, each a zero-filled allocation: at 65,536 values a chunk, 7.2 MB
 * in one record (slices of 30–47 ms of an aiperf upload's main thread, issue 31); at 16,384, a quarter.
 */
export const COLUMN_CHUNK_BITS = 14;
export const COLUMN_CHUNK = 1 << COLUMN_CHUNK_BITS;
const MASK = COLUMN_CHUNK - 1;
const FIRST = 256;

export class ChunkedColumn<T extends ChunkedArray> {
  private chunks: T[] = [];
  /** The values as one exact array, once `array()` made it (then no chunk is held) */
  private whole: T | null = null;
  length = 0;

  constructor(private readonly Type: { new (n: number): T; readonly BYTES_PER_ELEMENT: number }) {}

  /** A column holding `values` as its one exact array (not copied: it is the column's now). */
  static of<T extends ChunkedArray>(values: T): ChunkedColumn<T> {
    const c = new ChunkedColumn(
      values.constructor as { new (n: number): T; readonly BYTES_PER_ELEMENT: number },
    );
    c.whole = values;
    c.length = values.length;
    return c;
  }

  push(v: number): void {
    if (this.whole !== null) this.split();
    const at = this.length & MASK;
    const k = this.length >>> COLUMN_CHUNK_BITS;
    let c = this.chunks[k];
    if (c === undefined) this.chunks.push((c = new this.Type(k === 0 ? FIRST : COLUMN_CHUNK)));
    else if (at === c.length) {
      // Only the first chunk grows: a full chunk is never copied.
      const next = new this.Type(Math.min(COLUMN_CHUNK, c.length * 2));
      next.set(c);
      this.chunks[k] = c = next;
    }
    c[at] = v;
    this.length++;
  }

  get(i: number): number {
    if (this.whole !== null) return this.whole[i];
    return this.chunks[i >>> COLUMN_CHUNK_BITS][i & MASK];
  }

  /** Replaces the value at `i` (below `length`). */
  set(i: number, v: number): void {
    if (this.whole !== null) this.whole[i] = v;
    else this.chunks[i >>> COLUMN_CHUNK_BITS][i & MASK] = v;
  }

  /**
   * The values as one typed array of exactly `length`, which the column then holds in place of
   * its chunks (each chunk is let go as soon as it is copied, so the copy never needs twice the
   * column). The same array until the next push.
   */
  array(): T {
    if (this.whole !== null) return this.whole;
    const out = new this.Type(this.length);
    const empty = new this.Type(0);
    let at = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k];
      const n = Math.min(c.length, this.length - at);
      out.set(n === c.length ? c : (c.subarray(0, n) as T), at);
      at += n;
      this.chunks[k] = empty;
    }
    this.chunks = [];
    this.whole = out;
    return out;
  }

  /** Moves the values of `array()` back into chunks, for a push after it. */
  private split(): void {
    const w = this.whole!;
    this.whole = null;
    for (let from = 0; from < w.length; from += COLUMN_CHUNK)
      this.chunks.push(w.slice(from, Math.min(w.length, from + COLUMN_CHUNK)) as T);
  }

  /** Bytes of the chunks held (their capacity, not only the values pushed). */
  get bytes(): number {
    if (this.whole !== null) return this.whole.byteLength;
    let b = 0;
    for (const c of this.chunks) b += c.byteLength;
    return b;
  }

  /** Drops every chunk: the column is empty and holds nothing. */
  release(): void {
    this.chunks = [];
    this.whole = null;
    this.length = 0;
  }
}
