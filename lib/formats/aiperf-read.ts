/** Stream helpers shared by the aiperf readers: whole documents with a size cap, and JSONL with line text. */
import type { Readable } from "node:stream";
import { JsonLineParser, PARSE_FAILED, type WarningLog } from "./json-lines";
import { readLineBatches } from "./read-lines";

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
 * be read from the digits, since JSON.parse rounds them. Bad lines are skipped and logged. Hot
 * loops use `readLineBatches` with a JsonLineParser (its `text`) instead.
 */
export async function* readJsonLinesWithText(
  source: Readable,
  warnings: WarningLog,
  result: { skipped: number },
  maxLineBytes: number,
): AsyncGenerator<TextJsonLine> {
  const parser = new JsonLineParser(warnings, result);
  for await (const lines of readLineBatches(source, parser.report, { maxLineBytes })) {
    for (const { lineNo, text } of lines) {
      const value = parser.parse(lineNo, text);
      if (value !== PARSE_FAILED) yield { lineNo, text: parser.text, value };
    }
  }
  parser.finish();
}
