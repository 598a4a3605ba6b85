import { NOT_EXPORTED, NOT_RECORDED } from "@/lib/format-number";
import { chartFigure, figurePng, type FigureText } from "./export-figure";

export type CsvRow = Record<string, string | number | boolean | null | undefined>;

/**
 * What the page writes for a value the run does not have. In a file it is an empty cell, so a
 * number column stays numbers (pandas reads "not recorded" as text and the whole column with it).
 */
const ABSENT_TEXT = new Set<unknown>([NOT_RECORDED, NOT_EXPORTED, "—"]);

/** A text that is only a number (a sign, digits, a fraction, an exponent, a percent sign). */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?%?$/i;

/**
 * A text cell as a spreadsheet must read it: one that starts with `=`, `+`, `-`, `@`, a tab or a
 * CR would be evaluated as a formula (run names, folder names and endpoint URLs come from
 * uploads), so it gets a leading `'`, which shows it as text. Numbers, and texts that are only a
 * number, stay as they are.
 */
export function csvText(v: CsvRow[string]): string {
  if (v === null || v === undefined || ABSENT_TEXT.has(v)) return "";
  if (typeof v !== "string") return String(v);
  return /^[=+\-@\t\r]/.test(v) && !PLAIN_NUMBER.test(v) ? `'${v}` : v;
}

/**
 * A column's name in the file: a code-style key in snake case with its unit ("ttftMs" → "ttft_ms",
 * "requestsPerS" → "requests_per_s", "fromGBps" → "from_gbps"), as the producers' own CSVs and a
 * pandas user write them; names already in words or snake case ("hit rate %", "gen_queue", "p50")
 * are kept as they are.
 */
export function csvHeader(key: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(key) || !/[a-z0-9][A-Z]/.test(key)) return key;
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/**
 * RFC 4180 CSV: header from the union of keys (named by `csvHeader`), fields quoted when needed,
 * absent values empty, text cells neutralised against formula injection (`csvText`).
 */
export function toCsv(rows: CsvRow[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const cell = (v: CsvRow[string]) => {
    const s = csvText(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return (
    [
      columns.map((c) => cell(csvHeader(c))).join(","),
      ...rows.map((r) => columns.map((c) => cell(r[c])).join(",")),
    ].join("\r\n") + "\r\n"
  );
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(rows: CsvRow[], fileName: string): void {
  downloadBlob(new Blob([toCsv(rows)], { type: "text/csv;charset=utf-8" }), fileName);
}

/** A file's name: the run's (or comparison's) prefix before the chart's stem, as PNG and SVG are named. */
export function exportFileName(prefix: string | undefined, stem: string, ext: string): string {
  return `${prefix ? `${slug(prefix)}-` : ""}${stem}.${ext}`;
}

/** A run name as a file-name part: lower case, words joined by "-". */
export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

/** Saves a chart as a figure (title, run, legend around the plot), as PNG at 2× or as SVG. */
export async function downloadFigure(
  plot: SVGSVGElement,
  text: FigureText,
  fileStem: string,
  as: "png" | "svg",
): Promise<void> {
  const figure = await chartFigure(plot, text);
  const blob =
    as === "png" ? await figurePng(figure) : new Blob([figure.svg], { type: "image/svg+xml;charset=utf-8" });
  downloadBlob(blob, `${fileStem}.${as}`);
}
