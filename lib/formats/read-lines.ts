import type { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";

export interface Line {
  /** 1-based line number in the file */
  lineNo: number;
  text: string;
}

export interface LineReaderOptions {
  /** Lines longer than this are skipped and reported, never held in memory whole. */
  maxLineBytes?: number;
  /**
   * Lines already read before this input (a file read from one of its lines on): numbering goes
   * on from there, and the first line given is not the file's, so no byte-order mark is taken off.
   */
  linesBefore?: number;
}

export interface LineReport {
  /** The file did not end with a newline: its last line may be partial. */
  endedWithoutNewline: boolean;
  /** Line numbers of lines skipped for exceeding maxLineBytes */
  overlongLines: number[];
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const NO_BYTES = Buffer.alloc(0);

/**
 * Takes one line: its number and its bytes, `bytes[start, end)`, without the line end (and the
 * BOM). The bytes are the source's: valid only during the call.
 */
export type LineSink = (lineNo: number, bytes: Buffer, start: number, end: number) => void;

const textSink =
  (out: Line[]): LineSink =>
  (lineNo, bytes, start, end) =>
    out.push({ lineNo, text: bytes.toString("utf8", start, end) });

/**
 * Splits bytes into text lines (LF, CRLF or a lone CR, UTF-8, a leading BOM dropped), synchronously, one
 * chunk at a time, without buffering more than one line. An overlong line is dropped while it
 * streams by and its number added to `report.overlongLines`.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private overlong = false;
  private lineNo = 0;
  private first = true;
  private afterCr = false;
  private readonly maxLineBytes: number;

  constructor(
    readonly report: LineReport,
    options: LineReaderOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.lineNo = options.linesBefore ?? 0;
    this.first = this.lineNo === 0;
  }

  /** Appends the lines `chunk` completes to `out`. */
  push(chunk: Buffer, out: Line[]): void {
    this.pushTo(chunk, textSink(out));
  }

  /** Hands each line `chunk` completes to `sink`, as bytes: for a reader that decodes them elsewhere. */
  pushTo(chunk: Buffer, sink: LineSink): void {
    if (chunk.length === 0) return;
    let start = 0;
    // A CR that ended the previous chunk and this LF are one CRLF line end.
    if (this.afterCr && chunk[0] === 0x0a) start = 1;
    this.afterCr = false;
    // Where the next CR is, searched again only once passed: a chunk without CRs is scanned once.
    let cr = chunk.indexOf(0x0d, start);
    for (;;) {
      let nl = chunk.indexOf(0x0a, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(0x0d, start);
      if (cr !== -1 && (nl === -1 || cr < nl)) nl = cr;
      if (nl === -1) break;
      this.take(chunk, start, nl, sink);
      start = nl + 1;
      if (nl === cr) {
        if (start === chunk.length) this.afterCr = true;
        else if (chunk[start] === 0x0a) start++;
      }
    }
    if (start < chunk.length && !this.overlong) {
      const restBytes = chunk.length - start;
      if (this.partBytes + restBytes > this.maxLineBytes) {
        this.overlong = true;
        this.parts = [];
        this.partBytes = 0;
      } else {
        // Copy: the source may reuse its chunk buffer.
        this.parts.push(Buffer.from(chunk.subarray(start)));
        this.partBytes += restBytes;
      }
    }
  }

  /**
   * End of input: appends the last line if the bytes did not end with a newline, and sets
   * `report.endedWithoutNewline` so the caller can treat an unparsable last line as "partial"
   * rather than "malformed".
   */
  end(out: Line[]): void {
    this.endTo(textSink(out));
  }

  /** `end`, handing the last line to `sink` as bytes. */
  endTo(sink: LineSink): void {
    if (this.partBytes > 0 || this.overlong) {
      this.report.endedWithoutNewline = true;
      this.take(NO_BYTES, 0, 0, sink);
    }
  }

  /** The line ending at `chunk[end]`, after any buffered parts. */
  private take(chunk: Buffer, start: number, end: number, sink: LineSink): void {
    const lineNo = ++this.lineNo;
    // A line that arrives inside one chunk is measured here; one spread over chunks was already
    // flagged while it streamed. Either way the limit does not depend on how the bytes were cut.
    if (this.overlong || this.partBytes + (end - start) > this.maxLineBytes) {
      this.report.overlongLines.push(lineNo);
      this.overlong = false;
      this.parts = [];
      this.partBytes = 0;
      return;
    }
    let buf = chunk;
    if (this.parts.length > 0) {
      this.parts.push(chunk.subarray(start, end));
      buf = Buffer.concat(this.parts, this.partBytes + (end - start));
      start = 0;
      end = buf.length;
      this.parts = [];
      this.partBytes = 0;
    }
    if (this.first) {
      this.first = false;
      if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf)
        start += 3;
    }
    sink(lineNo, buf, start, end);
  }
}

/**
 * Bounds on the lines handed over between two turns of the event loop (issue 31, health within
 * 100 ms during an ingest): a source that has many chunks ready (a stream buffered ahead of its
 * reader, an upload fed from memory) would otherwise be read to its end in promise callbacks
 * alone, every line parsed before the server answers anyone else. At ~30 ms of parsing per MB
 * of JSONL, 256 KiB is under 10 ms of a quiet machine's CPU.
 */
export const TURN_LINE_BYTES = 256 * 1024;
export const TURN_LINES = 2048;

/**
 * The lines of a byte stream, in batches of at most one chunk: the caller's loop over a batch is
 * synchronous, so a file costs one await per batch instead of several promises per line. A
 * batch ends after `TURN_LINE_BYTES` of text or `TURN_LINES` lines at most (a longer line is a
 * batch of its own), and the event loop takes a turn before the next batch once that much has
 * been handed over since the last one. When a batch is yielded, `report` already covers all of
 * its lines (overlong lines among them; and on the last batch, `endedWithoutNewline`): compare
 * line numbers to place an overlong line among the others.
 */
export async function* readLineBatches(
  source: Readable | AsyncIterable<Buffer>,
  report: LineReport = { endedWithoutNewline: false, overlongLines: [] },
  options: LineReaderOptions = {},
): AsyncGenerator<Line[]> {
  const splitter = new LineSplitter(report, options);
  let bytes = 0;
  let count = 0;
  /** Yields `lines` in bounded batches, a turn of the event loop between full ones. */
  async function* bounded(lines: Line[]): AsyncGenerator<Line[]> {
    let from = 0;
    for (let i = 0; i < lines.length; i++) {
      bytes += lines[i].text.length + 1;
      count++;
      if (bytes < TURN_LINE_BYTES && count < TURN_LINES) continue;
      yield from === 0 && i === lines.length - 1 ? lines : lines.slice(from, i + 1);
      from = i + 1;
      bytes = 0;
      count = 0;
      await nextTurn();
    }
    if (from < lines.length) yield from === 0 ? lines : lines.slice(from);
  }
  for await (const chunk of source as AsyncIterable<Buffer>) {
    const lines: Line[] = [];
    splitter.push(chunk, lines);
    if (lines.length > 0) yield* bounded(lines);
  }
  const last: Line[] = [];
  splitter.end(last);
  if (last.length > 0) yield* bounded(last);
}

/**
 * Line by line over `readLineBatches`, for callers whose per-line work awaits anyway. `report`
 * grows as the lines go by: an overlong line is listed once a later line (or the end) is reached.
 */
export async function* readLines(
  source: Readable | AsyncIterable<Buffer>,
  report: LineReport = { endedWithoutNewline: false, overlongLines: [] },
  options: LineReaderOptions = {},
): AsyncGenerator<Line> {
  const ahead: LineReport = { endedWithoutNewline: false, overlongLines: [] };
  let passed = 0;
  for await (const lines of readLineBatches(source, ahead, options)) {
    for (const line of lines) {
      while (passed < ahead.overlongLines.length && ahead.overlongLines[passed] < line.lineNo)
        report.overlongLines.push(ahead.overlongLines[passed++]);
      if (ahead.endedWithoutNewline) report.endedWithoutNewline = true;
      yield line;
    }
  }
  while (passed < ahead.overlongLines.length) report.overlongLines.push(ahead.overlongLines[passed++]);
  if (ahead.endedWithoutNewline) report.endedWithoutNewline = true;
}
