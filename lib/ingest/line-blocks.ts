/**
 * Lines gathered as bytes into blocks for the aiperf parse thread (docs/architecture.md §The
 * aiperf parse thread): each line's bytes are copied into one buffer, joined by "\n", and its
 * number kept beside them. The receiving thread then makes no string per line: it finds the line
 * ends (LineSplitter) and copies bytes, one copy per run of adjacent lines; the parse thread
 * decodes the block once and splits it.
 * Each block has a buffer of its own, so it can be moved to the thread rather than copied.
 */
import type { LineSink } from "@/lib/formats/read-lines";

export interface LineBlock {
  /** The lines' UTF-8 bytes joined by "\n", in `bytes[0, length)` */
  bytes: Uint8Array<ArrayBuffer>;
  length: number;
  /** The file line number of each line of the block */
  lineNos: Int32Array;
}

export class LineBlockBuilder {
  private bytes: Uint8Array<ArrayBuffer>;
  private used = 0;
  private lineNos = new Int32Array(4096);
  private lines = 0;
  /**
   * Lines that lie one after the other in the same source, "\n" between them, are copied as one
   * run (one copy per chunk rather than per line): the run `src[runStart, runEnd)` goes to
   * `bytes[runAt, used)` once a line breaks it, a block is taken, or at `settle`.
   */
  private runSrc: Buffer | null = null;
  private runStart = 0;
  private runEnd = 0;
  private runAt = 0;

  /**
   * `onFull` gets each block once it holds `blockBytes` bytes (the last line may pass it);
   * `blockBytes` may change between blocks (the next block but one has the new size).
   */
  constructor(
    public blockBytes: number,
    private readonly onFull: (block: LineBlock) => void,
  ) {
    this.bytes = new Uint8Array(blockBytes);
  }

  /** Takes a line; its bytes may be copied only at `settle`, which must follow before they change. */
  readonly add: LineSink = (lineNo, src, start, end) => {
    const sep = this.lines > 0 ? 1 : 0;
    const need = this.used + sep + (end - start);
    if (
      sep &&
      src === this.runSrc &&
      start === this.runEnd + 1 &&
      src[this.runEnd] === 0x0a &&
      need <= this.bytes.length
    ) {
      this.runEnd = end;
      this.used = need;
    } else {
      this.settle();
      // A line longer than a block (up to the line-length limit) widens this block only.
      if (need > this.bytes.length) {
        const wider = new Uint8Array(Math.max(need, this.bytes.length * 2));
        wider.set(this.bytes.subarray(0, this.used));
        this.bytes = wider;
      }
      if (sep) this.bytes[this.used++] = 0x0a;
      this.runSrc = src;
      this.runStart = start;
      this.runEnd = end;
      this.runAt = this.used;
      this.used += end - start;
    }
    if (this.lines === this.lineNos.length) {
      const more = new Int32Array(this.lines * 2);
      more.set(this.lineNos);
      this.lineNos = more;
    }
    this.lineNos[this.lines++] = lineNo;
    if (this.used >= this.blockBytes) this.onFull(this.take());
  };

  /** Copies the lines added so far into the block: call it before their source's bytes change. */
  settle(): void {
    if (this.runSrc === null) return;
    this.runSrc.copy(this.bytes, this.runAt, this.runStart, this.runEnd);
    this.runSrc = null;
  }

  /** Hands the lines gathered so far, if any, to `onFull`. */
  flush(): void {
    if (this.lines > 0) this.onFull(this.take());
  }

  private take(): LineBlock {
    this.settle();
    const block = { bytes: this.bytes, length: this.used, lineNos: this.lineNos.slice(0, this.lines) };
    this.bytes = new Uint8Array(this.blockBytes);
    this.used = 0;
    this.lines = 0;
    return block;
  }
}
