/**
 * A JSONL file's bytes written once to local files, parts of whole lines, for DuckDB to read
 * natively a part at a time while the rest arrives (docs/architecture.md §The aiperf records
 * read), each part scanned on the way for what only the
 * line-by-line reader reads exactly: the scan says whether every line is one plain JSON object
 * (starts with `{`, ends with `}`, valid UTF-8, within the line limit, none of the refused
 * texts) and counts the lines and the occurrences of the counted texts. The scan is of bytes
 * with Buffer's native search: no string per line.
 */
import { once } from "node:events";
import fs from "node:fs";
import { isUtf8 } from "node:buffer";
import { finished } from "node:stream/promises";

export interface SpoolScan {
  bytes: number;
  /** Lines, a last one without a line break included (counted until the file is found odd) */
  lines: number;
  /** The longest line's bytes */
  maxLine: number;
  /** Why a line is not a plain JSON object; null when every line is one */
  odd: string | null;
  /** Occurrences of each counted text, over the whole file */
  counts: Map<string, number>;
}

export interface SpoolOptions {
  maxLineBytes: number;
  /** Texts whose presence anywhere makes the file odd */
  refused: readonly string[];
  /** Texts counted */
  counted: readonly string[];
}

const LF = 0x0a;
const CR = 0x0d;
const OPEN = 0x7b;
const CLOSE = 0x7d;

class Scanner {
  lines = 0;
  maxLine = 0;
  odd: string | null = null;
  readonly counts = new Map<string, number>();
  private readonly refused: Buffer[];
  private readonly counted: Array<[string, Buffer]>;

  constructor(private readonly o: SpoolOptions) {
    this.refused = o.refused.map((t) => Buffer.from(t));
    this.counted = o.counted.map((t) => [t, Buffer.from(t)]);
    for (const t of o.counted) this.counts.set(t, 0);
  }

  /** Whole lines: `region` ends with a line break, or is the file's last line. */
  region(region: Buffer): void {
    if (!isUtf8(region)) this.odd = "not valid UTF-8";
    for (const r of this.refused) if (this.odd === null && region.indexOf(r) !== -1) this.odd = `holds ${r}`;
    for (const [t, b] of this.counted) {
      let n = 0;
      for (let at = region.indexOf(b); at !== -1; at = region.indexOf(b, at + b.length)) n++;
      this.counts.set(t, this.counts.get(t)! + n);
    }
    let start = 0;
    for (;;) {
      const nl = region.indexOf(LF, start);
      const end = nl === -1 ? region.length : nl;
      if (nl === -1 && start === region.length) break;
      this.lines++;
      if (this.odd === null) this.line(region, start, end);
      if (nl === -1) break;
      start = nl + 1;
    }
  }

  private line(b: Buffer, start: number, end: number): void {
    if (end - start > this.maxLine) this.maxLine = end - start;
    // The line reader's limit counts the line's bytes without its "\n"; one byte of margin.
    if (end - start >= this.o.maxLineBytes) {
      this.odd = "a line longer than the line-length limit";
      return;
    }
    let last = end - 1;
    if (last >= start && b[last] === CR) last--;
    if (last <= start || b[start] !== OPEN || b[last] !== CLOSE)
      this.odd = "a line that is not one JSON object";
  }
}

/** One part of a spooled file: whole lines, in a file of their own, scanned on their own */
export interface SpoolPart extends SpoolScan {
  path: string;
  /** Lines of the parts before this one */
  linesBefore: number;
}

/**
 * Writes `source` to local files of about `partBytes` each, cut at line breaks, and scans each
 * (see above); `onPart` gets each part once its file is complete, in order, while the rest is
 * still arriving. Once a part is odd it is not cut again: it holds the rest of the file. An empty
 * source gives one empty part.
 */
export async function spoolJsonlParts(
  source: AsyncIterable<Buffer>,
  newPath: () => string,
  options: SpoolOptions & { partBytes: number },
  onPart: (part: SpoolPart) => void,
): Promise<void> {
  let out: fs.WriteStream | null = null;
  let path = "";
  let scan = new Scanner(options);
  let bytes = 0;
  let linesBefore = 0;
  let parts = 0;
  let pending: Buffer = Buffer.alloc(0);
  const write = async (b: Buffer) => {
    if (b.length === 0) return;
    if (!out) out = fs.createWriteStream((path = newPath()), { highWaterMark: 1 << 20 });
    bytes += b.length;
    if (!out.write(b)) await once(out, "drain");
  };
  const close = async () => {
    if (!out && parts > 0) return;
    if (!out) out = fs.createWriteStream((path = newPath()));
    out.end();
    await finished(out);
    out = null;
    parts++;
    onPart({
      path,
      linesBefore,
      bytes,
      lines: scan.lines,
      maxLine: scan.maxLine,
      odd: scan.odd,
      counts: scan.counts,
    });
    linesBefore += scan.lines;
    bytes = 0;
    scan = new Scanner(options);
  };
  const take = async (region: Buffer) => {
    scan.region(region);
    await write(region);
  };
  const tooLong = async () => {
    if (pending.length < options.maxLineBytes) return false;
    scan.odd ??= "a line longer than the line-length limit";
    await write(pending);
    pending = Buffer.alloc(0);
    return true;
  };
  try {
    for await (const chunk of source) {
      // Once odd, the part goes to the line reader: only its bytes are still needed.
      if (scan.odd !== null) {
        await write(chunk);
        continue;
      }
      // Only the line cut by the chunk's start is copied; the chunk's whole lines are not.
      let from = 0;
      if (pending.length > 0) {
        const first = chunk.indexOf(LF);
        if (first === -1) {
          pending = Buffer.concat([pending, chunk]);
          await tooLong();
          continue;
        }
        await take(Buffer.concat([pending, chunk.subarray(0, first + 1)]));
        pending = Buffer.alloc(0);
        from = first + 1;
        if (scan.odd !== null) {
          await write(chunk.subarray(from));
          continue;
        }
      }
      // The chunk's whole lines, cut where a part is full.
      const nl = chunk.lastIndexOf(LF);
      while (nl >= from && scan.odd === null) {
        const full = from + Math.max(1, options.partBytes - bytes) - 1;
        const cut = full < nl ? chunk.indexOf(LF, full) : nl;
        await take(chunk.subarray(from, cut + 1));
        from = cut + 1;
        if (scan.odd === null && bytes >= options.partBytes) await close();
      }
      if (scan.odd !== null) {
        await write(chunk.subarray(from));
        continue;
      }
      pending = Buffer.from(chunk.subarray(from));
      await tooLong();
    }
    if (pending.length > 0) {
      if (scan.odd === null) scan.region(pending);
      await write(pending);
    }
    await close();
  } catch (err) {
    (out as fs.WriteStream | null)?.destroy();
    throw err;
  }
}
