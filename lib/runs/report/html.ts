/**
 * The offline report's HTML: one self-contained document (docs/formats.md §Offline report) with
 * its style inline and system fonts only, so it opens from disk with no network. Every text that
 * came from an upload goes through `escapeHtml`.
 */
import { escapeHtml } from "./escape-html";
import { atOnce, type Steps } from "@/lib/metrics/steps";
import { renderPlot, hasMarks, PALETTE, type Plot } from "./svg-plot";
import { CHART_COLOURS, FG_COLOUR, ROLE_COLOURS, SEGMENT_COLOURS } from "@/lib/api/figure";

export { escapeHtml };

export interface Table {
  columns: string[];
  /** Cells already formatted for people */
  rows: string[][];
}

/** A chart of the report: drawn when it has marks, else its `missing` line says what is absent. */
export interface Figure {
  id: string;
  title: string;
  description: string;
  /** Which window, requests and method (lib/api/figure.ts `definitionText`), a line under the description */
  definition?: string;
  /** Drawn from a figure description the page draws too (lib/api/figure.ts, figure-kit.ts `reportFigure`) */
  described?: true;
  plot: Plot;
  /** What the reader would need for this chart, when it has nothing to draw */
  missing: string;
  table: Table;
}

export interface Section {
  id: string;
  title: string;
  /** Facts, tables and notes before the charts */
  blocks: Array<
    | { kind: "facts"; facts: Array<[string, string]> }
    | { kind: "table"; title: string; table: Table }
    | { kind: "note"; text: string }
  >;
  figures: Figure[];
}

export interface ReportDoc {
  title: string;
  subtitle: string;
  sections: Section[];
}

const STYLE = `
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#fff;margin:0 auto;max-width:780px;padding:24px;line-height:1.45;overflow-wrap:anywhere}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
h3{font-size:14px;margin:0 0 2px}p{margin:4px 0}.muted{color:#4b5563;font-size:13px}
nav a{margin-right:12px;font-size:13px;color:#1d4ed8}
figure{margin:16px 0 24px;padding:0}figure svg{display:block;max-width:100%;height:auto}
.missing{color:#4b5563;font-style:italic;border:1px dashed #d1d5db;padding:8px 12px;border-radius:4px}
table{border-collapse:collapse;font-size:12px;margin:6px 0;font-variant-numeric:tabular-nums;display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid #e5e7eb;padding:2px 6px;text-align:left}td.n{text-align:right}th{background:#f9fafb}th,td.n{overflow-wrap:normal}
section:not(#summary) td{overflow-wrap:break-word}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 16px;font-size:13px;margin:8px 0}dt{color:#4b5563}dd{margin:0}
@media screen and (max-width:560px){body{padding:12px}dl{grid-template-columns:minmax(0,1fr);gap:0}dt{margin-top:6px}}
details summary{cursor:pointer;font-size:12px;color:#374151}
@media print{details{display:block}details>summary{display:none}}
`;

/** The report's dark page and card, as the app's dark theme (app/globals.css --card, --fg). */
export const REPORT_DARK_BG = "#111827";

/**
 * Each colour the report's SVGs are written with in the light theme, and the one it takes on a
 * dark page: the figure tokens' own dark values (lib/api/figure.ts, the page's palette per theme,
 * every segment at 3:1 or more on the dark card), the axes' greys and text, and the fallback
 * palette's black.
 */
export function reportDarkColours(): Map<string, string> {
  const out = new Map<string, string>();
  for (const family of [CHART_COLOURS, ROLE_COLOURS, SEGMENT_COLOURS, FG_COLOUR])
    for (const { light, dark } of Object.values(family) as Array<{ light: string; dark: string }>)
      if (light !== dark) out.set(light, dark);
  // The plot's own text, ticks, axes and grid (svg-plot.ts).
  out.set("#111827", "#e5e7eb");
  out.set("#374151", "#cbd5e1");
  out.set("#6b7280", "#9ca3af");
  out.set("#64748b", "#94a3b8");
  out.set("#e5e7eb", "#1f2937");
  // The fallback palette (Okabe-Ito) keeps its hues; its black would vanish on a dark page.
  for (const c of PALETTE) if (c === "#000000") out.set(c, "#e5e7eb");
  return out;
}

/**
 * The dark theme of a reader whose system prefers it, as the app has one: the page's colours, and
 * each SVG colour swapped by its attribute (a style rule wins over the presentation attribute),
 * so the SVGs stay as written for a light page, a print and a copy out of the file.
 */
function darkStyle(): string {
  const rules: string[] = [];
  for (const [light, dark] of reportDarkColours())
    rules.push(`svg [fill="${light}"]{fill:${dark}}svg [stroke="${light}"]{stroke:${dark}}`);
  // Screens only: a print keeps the light page (a printer leaves the dark background out).
  return `@media screen and (prefers-color-scheme: dark){
:root{color-scheme:dark}
body{color:#e5e7eb;background:${REPORT_DARK_BG}}
.muted,dt,.missing{color:#9ca3af}details summary{color:#cbd5e1}
nav a{color:#93c5fd}h2,th,td,.missing{border-color:#374151}th{background:#1f2937}
${rules.join("\n")}
}
`;
}

const numeric = /^[−\-+]?[\d,.]+( ?[%a-zA-Z/]+)?$/;

export function tableHtml(t: Table): string {
  const head = `<tr>${t.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr>`;
  const body = t.rows
    .map(
      (r) =>
        `<tr>${r.map((c) => `<td${numeric.test(c) ? ' class="n"' : ""}>${escapeHtml(c)}</td>`).join("")}</tr>`,
    )
    .join("");
  return `<table>${head}${body}</table>`;
}

function figureHtml(fig: Figure): string {
  const drawn = hasMarks(fig.plot);
  const chart = drawn
    ? renderPlot(fig.plot, fig.title)
    : `<p class="missing" data-missing>Not drawn: ${escapeHtml(fig.missing)}</p>`;
  const table =
    fig.table.rows.length > 0
      ? `<details><summary>Data table (${fig.table.rows.length.toLocaleString("en-US")} rows)</summary>${tableHtml(fig.table)}</details>`
      : "";
  return `<figure data-chart="${escapeHtml(fig.id)}" data-drawn="${drawn}"><h3>${escapeHtml(fig.title)}</h3><p class="muted">${escapeHtml(fig.description)}</p>${fig.definition ? `<p class="muted definition">${escapeHtml(fig.definition)}</p>` : ""}${chart}${table}</figure>`;
}

function blockHtml(b: Section["blocks"][number]): string {
  if (b.kind === "note") return `<p class="muted">${escapeHtml(b.text)}</p>`;
  if (b.kind === "table") return `<h3>${escapeHtml(b.title)}</h3>${tableHtml(b.table)}`;
  return `<dl>${b.facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
}

/** The whole document. No script, no external reference of any kind: the page is its own bytes. */
export function renderReport(doc: ReportDoc): string {
  return atOnce(renderReportInSteps(doc));
}

/** renderReport in steps: one figure (its SVG and its data table) a step. */
export function* renderReportInSteps(doc: ReportDoc): Steps<string> {
  const nav = doc.sections.map((s) => `<a href="#${escapeHtml(s.id)}">${escapeHtml(s.title)}</a>`).join("");
  const sections: string[] = [];
  for (const s of doc.sections) {
    const figures: string[] = [];
    for (const f of s.figures) {
      yield;
      figures.push(figureHtml(f));
    }
    sections.push(
      `<section id="${escapeHtml(s.id)}"><h2>${escapeHtml(s.title)}</h2>${s.blocks.map(blockHtml).join("")}${figures.join("")}</section>`,
    );
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(doc.title)}</title><style>${STYLE}${darkStyle()}</style></head>
<body><header><h1>${escapeHtml(doc.title)}</h1><p class="muted">${escapeHtml(doc.subtitle)}</p><nav>${nav}</nav></header>
${sections.join("\n")}
</body></html>
`;
}
