/** Stream helpers shared by the aiperf readers: whole documents with a size cap, and JSONL with line text. */
import type { Readable } from "node:stream";
import { PARSE_FAILED, parseJsonText, type WarningLog } from "./json-lines";
import { readLines } from "./read-lines";

/** The whole (decompressed) text, or null when it exceeds `maxBytes` (the stream is drained). */
export async function readWholeText(stream: Readable, maxBytes: number): Promise<string | null> {
  const parts: Buffer[] = [];
  let bytes = 0;
  let over = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (over) continue;
    bytes += chunk.length;
    if (bytes > maxBytes) {
      over = true;
      parts.length = 0;
    } else parts.push(Buffer.from(chunk));
  }
  if (over) return null;
  let text = Buffer.concat(parts).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}

export interface TextJsonLine {
  lineNo: number;
  text: string;
  value: unknown;
}

/**
 * Like readJsonLines, but also hands over each line's text: aiperf's nanosecond timestamps must
 * be read from the digits, since JSON.parse rounds them. Bad lines are skipped and logged.
 */
export async function* readJsonLinesWithText(
  source: Readable,
  warnings: WarningLog,
  result: { skipped: number },
  maxLineBytes: number,
): AsyncGenerator<TextJsonLine> {
  const report = { endedWithoutNewline: false, overlongLines: [] as number[] };
  let seenOverlong = 0;
  let pending: number | null = null;
  let lastLine = 0;
  const flushOverlong = () => {
    while (seenOverlong < report.overlongLines.length) {
      result.skipped++;
      warnings.add("skipped line: longer than the line-length limit", report.overlongLines[seenOverlong++]);
    }
  };
  for await (const { lineNo, text } of readLines(source, report, { maxLineBytes })) {
    flushOverlong();
    if (pending !== null) {
      result.skipped++;
      warnings.add("skipped line: not valid JSON", pending);
      pending = null;
    }
    lastLine = lineNo;
    const t = text.trim();
    if (t === "") continue;
    const value = parseJsonText(t);
    if (value === PARSE_FAILED) {
      pending = lineNo;
      continue;
    }
    yield { lineNo, text: t, value };
  }
  flushOverlong();
  if (pending !== null) {
    result.skipped++;
    const partial = report.endedWithoutNewline && pending === lastLine;
    warnings.add(
      partial ? "skipped line: partial last line (file ends mid-record)" : "skipped line: not valid JSON",
      pending,
    );
  }
}
