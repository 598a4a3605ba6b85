/**
 * Step and chunk values of a whole TensorRT-LLM run, kept on disk until the requests are
 * joined: they are most of a record's size and are only read once per request, when its row is
 * written. Values go to an unlinked temporary file (nothing is left behind if the process dies)
 * through a write buffer; a block is always wholly in the buffer or wholly on disk.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Float64 values buffered before a write (4 MB). */
const BUFFER_VALUES = 1 << 19;
/** Float64 values of the read slab (8 MB). */
const SLAB_VALUES = 1 << 20;
/**
 * Read-ahead windows (1 MB each): requests read their context chunks and generation steps from
 * two or three sequential streams (one per worker file), so a few windows turn a system call per
 * block into one per thousands.
 */
const WINDOW_VALUES = 1 << 17;
const WINDOWS = 8;

interface Window {
  at: number;
  length: number;
  data: Float64Array;
  /** When it was last used (a tick of the spill's clock), for least-recently-used eviction */
  used: number;
}

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
});

export class StepSpill {
  private fd: number | null = null;
  /**
   * Allocated on first use: every ingest's analyzers make stores (4 MB each), and a run without
   * TensorRT-LLM steps never needs one (docs/performance.md §Ingest memory).
   */
  private buf: Float64Array | null = null;
  private get buffer(): Float64Array {
    return (this.buf ??= new Float64Array(BUFFER_VALUES));
  }
  private buffered = 0;
  /** Values written to the file */
  private flushed = 0;
  /** Reads land in this ring instead of a new array each (millions of small buffers made RSS balloon). */
  private slab: Float64Array | null = null;
  private slabAt = 0;
  private windows: Window[] = [];
  private clock = 0;

  /** Values appended so far: where the next block will start. */
  get size(): number {
    return this.flushed + this.buffered;
  }

  /** Appends values; returns where they start (a value index). */
  append(values: Float64Array): number {
    if (this.buffered + values.length > BUFFER_VALUES) this.flush();
    if (values.length > BUFFER_VALUES) {
      const at = this.flushed;
      this.write(values);
      return at;
    }
    const at = this.flushed + this.buffered;
    this.buffer.set(values, this.buffered);
    this.buffered += values.length;
    return at;
  }

  /**
   * The values of one block. The array is a view of a reused slab: it stays valid until another
   * 1M values (8 MB) have been read, plenty for one request's steps, never to be kept.
   */
  read(at: number, count: number): Float64Array {
    const out = this.slice(count);
    if (count === 0) return out;
    if (at >= this.flushed) {
      out.set(this.buffer.subarray(at - this.flushed, at - this.flushed + count));
      return out;
    }
    if (count > WINDOW_VALUES) {
      this.readInto(out, at);
      return out;
    }
    const w = this.window(at, count);
    out.set(w.data.subarray(at - w.at, at - w.at + count));
    return out;
  }

  /** One value, without copying anything out. */
  valueAt(at: number): number {
    if (at >= this.flushed) return this.buffer[at - this.flushed];
    const w = this.window(at, 1);
    return w.data[at - w.at];
  }

  /**
   * A window holding values [at, at + count), read from the file when none does, into the least
   * recently used one. Windows are stamped rather than reordered: reads alternate between a few
   * regions (a disagg record, its workers' blocks), and moving the hit to the front on each of
   * millions of single-value reads cost more than the reads.
   */
  private window(at: number, count: number): Window {
    const end = at + count;
    const windows = this.windows;
    let hit: Window | null = null;
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i];
      if (w.at <= at && end <= w.at + w.length) {
        hit = w;
        break;
      }
    }
    if (hit === null) {
      if (windows.length < WINDOWS) {
        hit = { at: 0, length: 0, data: new Float64Array(WINDOW_VALUES), used: 0 };
        windows.push(hit);
      } else {
        hit = windows[0];
        for (const w of windows) if (w.used < hit.used) hit = w;
      }
      hit.at = at;
      hit.length = Math.min(WINDOW_VALUES, this.flushed - at);
      this.readInto(hit.data.subarray(0, hit.length), at);
    }
    hit.used = ++this.clock;
    return hit;
  }

  private readInto(out: Float64Array, at: number): void {
    const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    let done = 0;
    while (done < bytes.length) {
      const n = fs.readSync(this.fd!, bytes, done, bytes.length - done, at * 8 + done);
      if (n === 0) throw new Error("step spill file ended early");
      done += n;
    }
  }

  private slice(count: number): Float64Array {
    if (count > SLAB_VALUES) return new Float64Array(count);
    this.slab ??= new Float64Array(SLAB_VALUES);
    if (this.slabAt + count > SLAB_VALUES) this.slabAt = 0;
    const out = this.slab.subarray(this.slabAt, this.slabAt + count);
    this.slabAt += count;
    return out;
  }

  /** Closes the file; reads are no longer possible. */
  close(): void {
    if (this.fd === null) return;
    closer.unregister(this);
    fs.closeSync(this.fd);
    this.fd = null;
  }

  private flush(): void {
    if (this.buffered === 0) return;
    this.write(this.buffer.subarray(0, this.buffered));
    this.buffered = 0;
  }

  private write(values: Float64Array): void {
    if (this.fd === null) this.open();
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    let done = 0;
    while (done < bytes.length)
      done += fs.writeSync(this.fd!, bytes, done, bytes.length - done, this.flushed * 8 + done);
    this.flushed += values.length;
  }

  private open(): void {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-steps-"));
    const file = path.join(dir, "steps.f64");
    this.fd = fs.openSync(file, "w+");
    fs.rmSync(dir, { recursive: true, force: true });
    closer.register(this, this.fd, this);
  }
}
