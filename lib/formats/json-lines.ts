import type { Readable } from "node:stream";
import { readLines, type LineReaderOptions } from "./read-lines";

export interface FileWarning {
  line?: number;
  message: string;
}

/** Warnings listed per file are capped (design.md §9: first 20 listed + a count). */
export const MAX_LISTED_WARNINGS = 20;

/** Collects a file's skipped lines and warnings: first 20 listed, the rest counted. */
export class WarningLog {
  readonly listed: FileWarning[] = [];
  total = 0;

  add(message: string, line?: number): void {
    this.total++;
    if (this.listed.length < MAX_LISTED_WARNINGS)
      this.listed.push(line === undefined ? { message } : { line, message });
  }

  /** The listed warnings, plus one line saying how many more were not listed. */
  toList(): FileWarning[] {
    const more = this.total - this.listed.length;
    return more > 0 ? [...this.listed, { message: `…and ${more} more warnings` }] : [...this.listed];
  }
}

export interface JsonLine {
  lineNo: number;
  value: unknown;
}

export interface JsonLinesResult {
  /** Lines that were not valid JSON (or overlong), already logged in `warnings` */
  skipped: number;
}

/**
 * Parses a JSONL stream, yielding each line's value. Blank lines are ignored; a line that is not
 * JSON is skipped and logged with its number ("partial last line" when the file ends mid-line).
 * NaN/Infinity literals, which Python writers emit, are read as null.
 */
export async function* readJsonLines(
  source: Readable | AsyncIterable<Buffer>,
  warnings: WarningLog,
  result: JsonLinesResult = { skipped: 0 },
  options: LineReaderOptions = {},
): AsyncGenerator<JsonLine> {
  const report = { endedWithoutNewline: false, overlongLines: [] as number[] };
  let reportedOverlong = 0;
  let lastLineNo = 0;
  let pendingBad: { lineNo: number; reason: string } | null = null;
  const flushBad = () => {
    if (pendingBad) {
      result.skipped++;
      warnings.add(`skipped line: ${pendingBad.reason}`, pendingBad.lineNo);
      pendingBad = null;
    }
  };
  for await (const { lineNo, text } of readLines(source, report, options)) {
    while (reportedOverlong < report.overlongLines.length) {
      result.skipped++;
      warnings.add(
        "skipped line: longer than the line-length limit",
        report.overlongLines[reportedOverlong++],
      );
    }
    flushBad();
    lastLineNo = lineNo;
    const trimmed = text.trim();
    if (trimmed === "") continue;
    const value = parseJsonText(trimmed);
    if (value === PARSE_FAILED) {
      pendingBad = { lineNo, reason: "not valid JSON" };
      continue;
    }
    yield { lineNo, value };
  }
  while (reportedOverlong < report.overlongLines.length) {
    result.skipped++;
    warnings.add("skipped line: longer than the line-length limit", report.overlongLines[reportedOverlong++]);
  }
  if (pendingBad) {
    const bad = pendingBad as { lineNo: number; reason: string };
    if (report.endedWithoutNewline && bad.lineNo === lastLineNo)
      bad.reason = "partial last line (file ends mid-record)";
    flushBad();
  }
}

export const PARSE_FAILED: unique symbol = Symbol("parse-failed");

/** JSON.parse that returns PARSE_FAILED instead of throwing, and accepts NaN/Infinity as null. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (!/NaN|Infinity/.test(text)) return PARSE_FAILED;
    try {
      return JSON.parse(text.replace(/(?<=[:,[]\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g, "null"));
    } catch {
      return PARSE_FAILED;
    }
  }
}
