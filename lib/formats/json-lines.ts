import type { Readable } from "node:stream";
import { PARSE_FAILED, parseJsonText } from "./json-text.mjs";
import { readLineBatches, type LineReaderOptions, type LineReport } from "./read-lines";

export interface FileWarning {
  line?: number;
  message: string;
}

/** Warnings listed per file are capped (docs/formats.md §Malformed input: first 20 listed + a count). */
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

  /** Counted per message: how often each bad value of `count` was seen. */
  private readonly counted = new Map<string, number>();

  /**
   * A bad value that can recur on every line (a negative token count): listed once, at the end,
   * with how many times it was seen, so it never crowds out the skipped lines.
   */
  count(message: string, times = 1): void {
    this.counted.set(message, (this.counted.get(message) ?? 0) + times);
  }

  /** A file's own totals (how many of its records lacked something): listed last, always. */
  private readonly totals: string[] = [];

  addTotal(message: string): void {
    this.totals.push(message);
  }

  /** The listed warnings, one line saying how many more were not listed, the counted ones, then the totals. */
  toList(): FileWarning[] {
    const more = this.total - this.listed.length;
    const out = more > 0 ? [...this.listed, { message: `…and ${more} more warnings` }] : [...this.listed];
    for (const [message, n] of this.counted) out.push({ message: `${message} (${n}×)` });
    for (const message of this.totals) out.push({ message });
    return out;
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
 * The per-line rules of a JSONL file, fed the lines of `readLineBatches(source, parser.report)`
 * in order: blank lines are ignored; a line that is not JSON is skipped and logged with its
 * number ("partial last line" when the file ends mid-line, which only `finish` can tell);
 * overlong lines are logged as they are passed. Warnings land in file order, interleaved with
 * whatever the caller logs for the lines it is handed.
 */
export class JsonLineParser {
  readonly report: LineReport = { endedWithoutNewline: false, overlongLines: [] };
  /** The trimmed text of the line `parse` last returned a value for */
  text = "";
  private passedOverlong = 0;
  private pendingBad = 0;
  private lastLineNo = 0;

  constructor(
    private readonly warnings: WarningLog,
    private readonly result: JsonLinesResult = { skipped: 0 },
    /** A line's text to its value, PARSE_FAILED when it is not JSON (a reader's own: exact ids) */
    private readonly parseText: (text: string) => unknown = parseJsonText,
  ) {}

  /** The line's value, or PARSE_FAILED for a line to pass over (blank, or logged as skipped). */
  parse(lineNo: number, text: string): unknown {
    const trimmed = text.trim();
    const value = trimmed === "" ? PARSE_FAILED : this.parseText(trimmed);
    this.note(lineNo, trimmed === "" ? "blank" : value === PARSE_FAILED ? "bad" : "parsed");
    if (value !== PARSE_FAILED) this.text = trimmed;
    return value;
  }

  /**
   * What `parse` logs for a line, given how the line parsed: for lines parsed elsewhere (the
   * aiperf parse thread), so their warnings come out in the same order as when parsed here.
   */
  note(lineNo: number, outcome: "blank" | "bad" | "parsed"): void {
    this.logOverlong(lineNo);
    // A bad line is logged once the next line arrives: only then is it known not to be the last.
    if (this.pendingBad !== 0) this.logBad(this.pendingBad, "not valid JSON");
    this.lastLineNo = lineNo;
    if (outcome === "bad") this.pendingBad = lineNo;
  }

  /** After the last line: logs what is still pending. */
  finish(): void {
    this.logOverlong(Infinity);
    if (this.pendingBad !== 0) {
      const partial = this.report.endedWithoutNewline && this.pendingBad === this.lastLineNo;
      this.logBad(this.pendingBad, partial ? "partial last line (file ends mid-record)" : "not valid JSON");
    }
  }

  private logOverlong(before: number): void {
    const overlong = this.report.overlongLines;
    while (this.passedOverlong < overlong.length && overlong[this.passedOverlong] < before) {
      this.result.skipped++;
      this.warnings.add("skipped line: longer than the line-length limit", overlong[this.passedOverlong++]);
    }
  }

  private logBad(lineNo: number, reason: string): void {
    this.result.skipped++;
    this.warnings.add(`skipped line: ${reason}`, lineNo);
    this.pendingBad = 0;
  }
}

/**
 * Parses a JSONL stream line by line (see JsonLineParser for the rules). NaN/Infinity literals,
 * which Python writers emit, are read as null. Hot loops use `readLineBatches` with a
 * JsonLineParser instead, which costs one await per chunk rather than per line.
 */
export async function* readJsonLines(
  source: Readable | AsyncIterable<Buffer>,
  warnings: WarningLog,
  result: JsonLinesResult = { skipped: 0 },
  options: LineReaderOptions = {},
): AsyncGenerator<JsonLine> {
  const parser = new JsonLineParser(warnings, result);
  for await (const lines of readLineBatches(source, parser.report, options)) {
    for (const { lineNo, text } of lines) {
      const value = parser.parse(lineNo, text);
      if (value !== PARSE_FAILED) yield { lineNo, value };
    }
  }
  parser.finish();
}

/**
 * The hot-loop form of readJsonLines: hands every line that parsed to `each` (with the line's
 * text in `parser.text`), one synchronous loop per chunk of lines. `each` returns a promise only
 * when it must be awaited (say, a full batch of rows), so the steady state awaits once per chunk.
 */
export async function eachJsonLine(
  source: Readable | AsyncIterable<Buffer>,
  parser: JsonLineParser,
  options: LineReaderOptions,
  each: (value: unknown, lineNo: number) => Promise<void> | void,
): Promise<void> {
  for await (const lines of readLineBatches(source, parser.report, options)) {
    for (const { lineNo, text } of lines) {
      const value = parser.parse(lineNo, text);
      if (value === PARSE_FAILED) continue;
      const wait = each(value, lineNo);
      if (wait) await wait;
    }
  }
  parser.finish();
}

/**
 * eachJsonLine over a file of one record type: `parse` turns a line into a record, or into the
 * reason to skip it (kept as a warning with the line's number); a record it keeps with a value
 * read as missing is reported through `badValue` (counted per message, see WarningLog.count). Returns the file's warnings and
 * how many lines were skipped, invalid JSON included.
 */
export async function eachRecordLine<T extends object>(
  source: Readable | AsyncIterable<Buffer>,
  options: LineReaderOptions,
  parse: (value: unknown, text: string, badValue: (message: string) => void) => T | string,
  each: (record: T, lineNo: number) => Promise<void> | void,
): Promise<{ warnings: WarningLog; skipped: number }> {
  const warnings = new WarningLog();
  const result = { skipped: 0 };
  const parser = new JsonLineParser(warnings, result);
  const badValue = (message: string) => warnings.count(message);
  await eachJsonLine(source, parser, options, (value, lineNo) => {
    const r = parse(value, parser.text, badValue);
    if (typeof r !== "string") return each(r, lineNo);
    result.skipped++;
    warnings.add(`skipped line: ${r}`, lineNo);
  });
  return { warnings, skipped: result.skipped };
}

// Shared with the aiperf parse thread, which loads plain JavaScript only.
export { PARSE_FAILED, parseJsonText } from "./json-text.mjs";
