const CHUNK_SHIFT = 9;
const CHUNK = 1 << CHUNK_SHIFT;

/**
 * A column of doubles in 4 KiB chunks (the first one grows up to that size), so growing never
 * copies or leaves old buffers behind for the collector, and a long column wastes less than one
 * chunk. Read back as one array, one series at a time.
 */
export class Column {
  private chunks: Float64Array[] = [new Float64Array(8)];
  length = 0;

  push(x: number): void {
    const c = this.length >> CHUNK_SHIFT;
    const at = this.length & (CHUNK - 1);
    if (c === 0 && at === this.chunks[0].length) {
      const grown = new Float64Array(Math.min(CHUNK, at * 2));
      grown.set(this.chunks[0]);
      this.chunks[0] = grown;
    } else if (c > 0 && at === 0 && c === this.chunks.length) this.chunks.push(new Float64Array(CHUNK));
    this.chunks[c][at] = x;
    this.length++;
  }

  get(i: number): number {
    return this.chunks[i >> CHUNK_SHIFT][i & (CHUNK - 1)];
  }

  /** Values [from, to) as one array (a copy). */
  slice(from = 0, to = this.length): Float64Array {
    const out = new Float64Array(Math.max(0, to - from));
    for (let i = from; i < to;) {
      const chunk = this.chunks[i >> CHUNK_SHIFT];
      const at = i & (CHUNK - 1);
      const n = Math.min(chunk.length - at, to - i);
      out.set(chunk.subarray(at, at + n), i - from);
      i += n;
    }
    return out;
  }

  /** Empties the column and hands its memory back. */
  release(): void {
    this.chunks = [new Float64Array(8)];
    this.length = 0;
  }
}
