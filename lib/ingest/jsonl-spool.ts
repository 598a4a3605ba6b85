/**
 * A JSONL file's bytes written once to a local file for DuckDB to read natively
 * (docs/architecture.md §The aiperf records read), scanned on the way for what only the
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

/** Writes `source` to `path` and scans it (see above). */
export async function spoolJsonl(
  source: AsyncIterable<Buffer>,
  path: string,
  options: SpoolOptions,
): Promise<SpoolScan> {
  const out = fs.createWriteStream(path, { highWaterMark: 1 << 20 });
  const scan = new Scanner(options);
  let pending: Buffer = Buffer.alloc(0);
  let bytes = 0;
  try {
    for await (const chunk of source) {
      bytes += chunk.length;
      if (!out.write(chunk)) await once(out, "drain");
      // Once odd, the file goes to the line reader: only its bytes are still needed.
      if (scan.odd !== null) continue;
      const data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      const nl = data.lastIndexOf(LF);
      if (nl === -1) {
        pending = Buffer.from(data);
        if (pending.length >= options.maxLineBytes) scan.odd ??= "a line longer than the line-length limit";
        continue;
      }
      scan.region(data.subarray(0, nl + 1));
      pending = Buffer.from(data.subarray(nl + 1));
    }
    if (pending.length > 0 && scan.odd === null) scan.region(pending);
    out.end();
    await finished(out);
  } catch (err) {
    out.destroy();
    throw err;
  }
  return { bytes, lines: scan.lines, maxLine: scan.maxLine, odd: scan.odd, counts: scan.counts };
}
