import type { Readable } from "node:stream";

export interface Line {
  /** 1-based line number in the file */
  lineNo: number;
  text: string;
}

export interface LineReaderOptions {
  /** Lines longer than this are skipped and reported, never held in memory whole. */
  maxLineBytes?: number;
}

export interface LineReport {
  /** The file did not end with a newline: its last line may be partial. */
  endedWithoutNewline: boolean;
  /** Line numbers of lines skipped for exceeding maxLineBytes */
  overlongLines: number[];
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Splits a byte stream into text lines (LF or CRLF, UTF-8, a leading BOM dropped) without
 * buffering more than one line. An overlong line is dropped while it streams by and reported.
 * The last line is yielded even without a trailing newline; `report.endedWithoutNewline` tells
 * the caller so it can treat an unparsable last line as "partial" rather than "malformed".
 */
export async function* readLines(
  source: Readable | AsyncIterable<Buffer>,
  report: LineReport = { endedWithoutNewline: false, overlongLines: [] },
  options: LineReaderOptions = {},
): AsyncGenerator<Line> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let overlong = false;
  let lineNo = 0;
  let first = true;

  const take = (tail: Buffer): string | null => {
    lineNo++;
    // A line that arrives inside one chunk is measured here; one spread over chunks was already
    // flagged while it streamed. Either way the limit does not depend on how the bytes were cut.
    if (overlong || partBytes + tail.length > maxLineBytes) {
      report.overlongLines.push(lineNo);
      overlong = false;
      parts = [];
      partBytes = 0;
      return null;
    }
    let buf = parts.length === 0 ? tail : Buffer.concat([...parts, tail], partBytes + tail.length);
    parts = [];
    partBytes = 0;
    if (first) {
      first = false;
      if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
    }
    let end = buf.length;
    if (end > 0 && buf[end - 1] === 0x0d) end--;
    return buf.toString("utf8", 0, end);
  };

  for await (const chunk of source as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const text = take(chunk.subarray(start, nl));
      if (text !== null) yield { lineNo, text };
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (!overlong) {
        if (partBytes + rest.length > maxLineBytes) {
          overlong = true;
          parts = [];
          partBytes = 0;
        } else {
          // Copy: the source may reuse its chunk buffer.
          parts.push(Buffer.from(rest));
          partBytes += rest.length;
        }
      }
    }
  }
  if (partBytes > 0 || overlong) {
    report.endedWithoutNewline = true;
    const text = take(Buffer.alloc(0));
    if (text !== null) yield { lineNo, text };
  }
}
