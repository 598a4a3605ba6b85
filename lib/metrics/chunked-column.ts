/**
 * A growable typed column held in fixed chunks: a value costs its type's bytes (8 for a double,
 * 1 for a small code) where a JS array of numbers costs 8 and more, and growing never copies
 * what is held (a doubling array holds the old and the new copy at once, and leaves the old as
 * garbage). The first chunk doubles from a small size up to a whole chunk, so a short column
 * stays small. Used by the timeline builder (docs/performance.md §Ingest memory of an aiperf
 * upload).
 */
export type ChunkedArray = Float64Array | Int32Array | Uint8Array;

/** Values per full chunk: a power of two, so a position is split by shift and mask. */
export const COLUMN_CHUNK_BITS = 16;
export const COLUMN_CHUNK = 1 << COLUMN_CHUNK_BITS;
const MASK = COLUMN_CHUNK - 1;
const FIRST = 256;

export class ChunkedColumn<T extends ChunkedArray> {
  private chunks: T[] = [];
  length = 0;

  constructor(private readonly Type: { new (n: number): T; readonly BYTES_PER_ELEMENT: number }) {}

  push(v: number): void {
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
    return this.chunks[i >>> COLUMN_CHUNK_BITS][i & MASK];
  }

  /** Bytes of the chunks held (their capacity, not only the values pushed). */
  get bytes(): number {
    let b = 0;
    for (const c of this.chunks) b += c.byteLength;
    return b;
  }

  /** Drops every chunk: the column is empty and holds nothing. */
  release(): void {
    this.chunks = [];
    this.length = 0;
  }
}
