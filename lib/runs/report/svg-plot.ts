/**
 * A small dependency-free SVG plotter for the offline report: lines, scatters, histograms and
 * horizontal bars, with titled axes (unit in the title; lines and scatters may have a second value
 * axis on the right), round ticks (lib/metrics/nice-scale.ts) and numbers written for people
 * (lib/format-number.ts). It draws what it is given; whether there
 * is anything to draw is `hasMarks`, asked before, so an empty frame is never drawn.
 */
import { formatNumber } from "@/lib/format-number";
import {
  drawnLength,
  LABEL_FONT_PX,
  LABEL_GAP_PX,
  labelWidthPx,
  labelLinePx,
  labelRoomPx,
  MIN_BAR_PX,
  stackBandsPx,
} from "@/lib/metrics/bar-labels";
import { logTicks, niceTicks } from "@/lib/metrics/nice-scale";
import { escapeHtml } from "./escape-html";

export interface Axis {
  title: string;
  unit: string;
  /** A log scale (line and scatter plots): values at or below 0 cannot be placed and are not drawn */
  log?: boolean;
}

export interface XySeries {
  label: string;
  /** A colour of the series' own (a figure description's token, lib/api/figure.ts), instead of the palette's */
  colour?: string;
  /** null = not recorded at that x: the line breaks there */
  points: ReadonlyArray<readonly [number, number | null]>;
  /** In a scatter: "line" draws this series as a line through its points (a Pareto frontier) */
  mark?: "line";
  /** Measured on the plot's right axis (`y2`): drawn dashed, its ticks on the right */
  axis?: "y2";
  /** In a scatter: a label per point, written beside it (a sweep point's load, "c4") */
  labels?: ReadonlyArray<string>;
  /**
   * In a scatter: an interval per point on each axis (repeated runs' min–max), drawn as bars
   * through it; null for a point without one
   */
  intervals?: ReadonlyArray<{ x: readonly [number, number]; y: readonly [number, number] } | null>;
}

export interface BarSeries {
  label: string;
  /** A colour of the series' own (a segment's), instead of the palette's next */
  colour?: string;
  /** A colour per category (an endpoint's role), over the series' own */
  colours?: ReadonlyArray<string>;
  /** One per category; null = not recorded (no bar, never a 0-length one) */
  values: ReadonlyArray<number | null>;
}

/** A named position on the x axis (a percentile), drawn as a dashed vertical line with its label */
export interface XMark {
  x: number;
  label: string;
  colour: string;
}

/** A named level on the y axis (a capacity), drawn as a dashed horizontal line with its label */
export interface YLevel {
  y: number;
  label: string;
}

export type Plot =
  | {
      kind: "line" | "scatter";
      x: Axis;
      y: Axis;
      /** A second value axis on the right, for the series that say `axis: "y2"` */
      y2?: Axis;
      series: XySeries[];
      marks?: readonly XMark[];
      levels?: readonly YLevel[];
      /**
       * A line plot's series stacked as filled steps, bottom to top (shares adding up to 100 %):
       * each value held until the next x, the last until `until`; a null is no band there
       */
      bands?: { until?: number };
    }
  | {
      kind: "histogram";
      x: Axis;
      y: Axis;
      bins: ReadonlyArray<{ lo: number; hi: number; count: number }>;
      /** What a bar counts (the legend's and the table's word) and its colour, else the palette's first */
      label?: string;
      colour?: string;
      marks?: readonly XMark[];
    }
  | {
      kind: "bars";
      categories: string[];
      value: Axis;
      series: BarSeries[];
      /** A bar's label: its value in the unit (a figure's `unitText`); else the number and the axis unit */
      valueText?: (v: number) => string;
      /** The value axis runs at least to this (a count's whole: failures of the run's requests) */
      valueMax?: number;
    }
  /**
   * One vertical column per category (a request), its series stacked bottom to top; `horizontal`:
   * one named bar per category (a statistic), stacked left to right, `totalText` its total past its end
   */
  | {
      kind: "stacked";
      categories: string[];
      category: Axis;
      value: Axis;
      series: BarSeries[];
      horizontal?: boolean;
      totalText?: (v: number) => string;
    };

/** Colour-blind-safe categorical palette (Okabe–Ito), in the order series take it. */
export const PALETTE = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#D55E00",
  "#F0E442",
  "#000000",
];

const W = 720;

/**
 * The width the report's figures are drawn at on a 390 px phone: the page less its 24 px padding
 * either side (html.ts). The SVG shrinks to it from its own W units.
 */
export const REPORT_NARROW_PX = 390 - 2 * 24;

/**
 * A stacked band's least length in the SVG's own units: MIN_BAR_PX on the phone's screen, where
 * the figure is drawn at REPORT_NARROW_PX of its W units (4 units read 1.9 px there); at full width
 * the band is that many px, still taken from the stack's longest bands, so the axis is unchanged.
 */
export const REPORT_MIN_BAND = (MIN_BAR_PX * W) / REPORT_NARROW_PX;
const PLOT_H = 240;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"';

const finite = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** The value axis a series of a line or scatter is measured on: the right one where it says so. */
const yOf = (plot: { y: Axis; y2?: Axis }, s: Pick<XySeries, "axis">): Axis =>
  s.axis === "y2" && plot.y2 ? plot.y2 : plot.y;

/** The chart kit's rule (docs/architecture.md): a line of two points, a bar of non-zero length, or a point. */
export function hasMarks(plot: Plot): boolean {
  switch (plot.kind) {
    case "line":
      return plot.series.some(
        (s) =>
          placeable(s.points, plot.x, yOf(plot, s)).filter(([x, y]) => finite(x) && finite(y)).length >= 2,
      );
    case "scatter":
      return plot.series.some((s) =>
        placeable(s.points, plot.x, yOf(plot, s)).some(([x, y]) => finite(x) && finite(y)),
      );
    case "histogram":
      return plot.bins.some((b) => b.count > 0);
    case "bars":
    case "stacked":
      return plot.series.some((s) => s.values.some((v) => finite(v) && v !== 0));
  }
}

export const axisTitle = (a: Axis) => (a.unit ? `${a.title} (${a.unit})` : a.title);

/**
 * The x axis title says when its scale is log, so equal steps are not read as equal differences.
 * A vertical title has no room for it: a log y axis is said in the figure's description.
 */
const scaledTitle = (a: Axis) => (a.log ? `${axisTitle(a)}, log scale` : axisTitle(a));

/** Max of many values without spreading them into an argument list. */
function maxOf(values: Iterable<number>): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

export function renderPlot(plot: Plot, label: string): string {
  if (plot.kind === "bars") return renderBars(plot, label);
  if (plot.kind === "stacked")
    return plot.horizontal ? renderStackedRows(plot, label) : renderStacked(plot, label);
  return renderXy(plot, label);
}

function svgOpen(height: number, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${escapeHtml(label)}" ${FONT} font-size="11">`;
}

/**
 * Series past the palette's length are dashed, so no two lines of a chart look alike; so is a
 * series on the right axis, as the page draws it (components/charts/figure-props.ts).
 */
const dash = (i: number, right = false) => (right || i >= PALETTE.length ? ' stroke-dasharray="5 3"' : "");

/**
 * Where a value sits along an axis, as a share of its length: linear from 0 to the last round
 * tick, or log between the round ticks around the positive values.
 */
function axisScale(
  values: number[],
  log: boolean | undefined,
): { ticks: number[]; at: (v: number) => number } {
  const positive = values.filter((v) => v > 0);
  if (log && positive.length > 0) {
    let min = Infinity;
    for (const v of positive) if (v < min) min = v;
    const ticks = logTicks(min, maxOf(positive));
    const lo = Math.log10(ticks[0]);
    const span = Math.log10(ticks[ticks.length - 1]) - lo || 1;
    return { ticks, at: (v) => (Math.log10(v) - lo) / span };
  }
  const ticks = niceTicks(maxOf(values));
  const max = ticks[ticks.length - 1];
  return { ticks, at: (v) => v / max };
}

/** On a log axis a value at or below 0 has no place: it is left out as if not recorded. */
function placeable(points: XySeries["points"], x: Axis, y: Axis): XySeries["points"] {
  if (!x.log && !y.log) return points;
  return points.map(
    ([px, py]) => [x.log && !(px > 0) ? NaN : px, y.log && !((py ?? 0) > 0) ? null : py] as const,
  );
}

function renderXy(plot: Extract<Plot, { kind: "line" | "scatter" | "histogram" }>, label: string): string {
  // A series with nothing recorded is not drawn nor listed in the legend; its table column says so.
  // Each keeps its slot (colour and dash) so one run or metric looks the same in every chart.
  // A right axis only where a series is measured on it.
  const y2 = plot.kind !== "histogram" && plot.y2 ? plot.y2 : undefined;
  const series =
    plot.kind === "histogram"
      ? []
      : plot.series
          .map((s, slot) => ({
            ...s,
            points: placeable(s.points, plot.x, yOf(plot, s)),
            slot,
            right: y2 !== undefined && s.axis === "y2",
          }))
          .filter((s) => s.points.some(([x, y]) => finite(x) && finite(y)));
  const onLeft = series.filter((s) => !s.right);
  const onRight = series.filter((s) => s.right);
  const spans = (axis: "x" | "y", of = series) =>
    of.flatMap((s) => (s.intervals ?? []).flatMap((iv) => (iv ? [...iv[axis]] : [])).filter(finite));
  const xs =
    plot.kind === "histogram"
      ? plot.bins.map((b) => b.hi)
      : [...series.flatMap((s) => s.points.map(([x]) => x).filter(finite)), ...spans("x")];
  const ys =
    plot.kind === "histogram"
      ? plot.bins.map((b) => b.count)
      : [
          ...onLeft.flatMap((s) => s.points.map(([, y]) => y).filter(finite)),
          ...spans("y", onLeft),
          // A level is on the scale when something is drawn beside it (a capacity above the usage).
          ...(series.length > 0 ? (plot.levels ?? []).map((l) => l.y).filter(finite) : []),
        ];
  const bands = plot.kind === "line" ? bandRects(series, plot.bands) : null;
  for (const b of bands ?? []) {
    xs.push(b.x1);
    ys.push(b.y1);
  }
  const xScale = axisScale(xs, plot.kind !== "histogram" && plot.x.log);
  const yScale = axisScale(ys, plot.kind !== "histogram" && plot.y.log);
  const y2Scale =
    y2 && onRight.length > 0
      ? axisScale(
          [...onRight.flatMap((s) => s.points.map(([, y]) => y).filter(finite)), ...spans("y", onRight)],
          y2.log,
        )
      : null;
  const xTicks = xScale.ticks;
  const yTicks = yScale.ticks;
  // Room for the widest y tick ("3,000,000") beside the axis title, never less than 64 px; the
  // same on the right for the right axis's ticks and title.
  const tickRoom = (ticks: number[]) =>
    Math.max(64, 30 + 6.5 * maxOf(ticks.map((t) => formatNumber(t, 4).length)));
  const left = tickRoom(yTicks);
  const top = 12;
  const right = y2Scale ? tickRoom(y2Scale.ticks) : 16;
  const plotW = W - left - right;
  const legendLines = legendRows(series);
  const height = top + PLOT_H + 52 + legendLines * LEGEND_ROW;
  const sx = (v: number) => left + xScale.at(v) * plotW;
  const sy = (v: number) => top + PLOT_H - yScale.at(v) * PLOT_H;
  const sy2 = (v: number) => top + PLOT_H - (y2Scale ?? yScale).at(v) * PLOT_H;
  const parts = [svgOpen(height, label)];
  for (const t of yTicks)
    parts.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${f(sy(t))}" y2="${f(sy(t))}" stroke="#e5e7eb"/>`,
      `<text x="${left - 6}" y="${f(sy(t) + 4)}" text-anchor="end" fill="#374151">${formatNumber(t, 4)}</text>`,
    );
  // The right axis: its own ticks (a stub each, its lines would cross the left axis's grid) and title.
  if (y2 && y2Scale) {
    for (const t of y2Scale.ticks)
      parts.push(
        `<line x1="${left + plotW}" x2="${left + plotW + 4}" y1="${f(sy2(t))}" y2="${f(sy2(t))}" stroke="#6b7280"/>`,
        `<text class="y2-tick" x="${left + plotW + 6}" y="${f(sy2(t) + 4)}" text-anchor="start" fill="#374151">${formatNumber(t, 4)}</text>`,
      );
    parts.push(
      `<line x1="${left + plotW}" x2="${left + plotW}" y1="${top}" y2="${top + PLOT_H}" stroke="#6b7280"/>`,
      `<text class="y2-title" transform="translate(${W - 14} ${top + PLOT_H / 2}) rotate(90)" text-anchor="middle" fill="#111827" font-size="12">${escapeHtml(axisTitle(y2))}</text>`,
    );
  }
  for (const t of xTicks)
    parts.push(
      `<line x1="${f(sx(t))}" x2="${f(sx(t))}" y1="${top + PLOT_H}" y2="${top + PLOT_H + 4}" stroke="#6b7280"/>`,
      `<text x="${f(sx(t))}" y="${top + PLOT_H + 16}" text-anchor="middle" fill="#374151">${formatNumber(t, 4)}</text>`,
    );
  parts.push(
    `<line x1="${left}" x2="${left + plotW}" y1="${top + PLOT_H}" y2="${top + PLOT_H}" stroke="#6b7280"/>`,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + PLOT_H}" stroke="#6b7280"/>`,
    `<text x="${left + plotW / 2}" y="${top + PLOT_H + 34}" text-anchor="middle" fill="#111827" font-size="12">${escapeHtml(scaledTitle(plot.x))}</text>`,
    `<text transform="translate(14 ${top + PLOT_H / 2}) rotate(-90)" text-anchor="middle" fill="#111827" font-size="12">${escapeHtml(axisTitle(plot.y))}</text>`,
  );
  if (plot.kind === "histogram") {
    for (const b of plot.bins) {
      if (b.count <= 0) continue;
      const x = sx(b.lo);
      parts.push(
        `<rect class="mark" x="${f(x)}" y="${f(sy(b.count))}" width="${f(Math.max(1, sx(b.hi) - x - 1))}" height="${f(top + PLOT_H - sy(b.count))}" fill="${plot.colour ?? PALETTE[0]}"><title>${formatNumber(b.lo, 4)}–${formatNumber(b.hi, 4)} ${escapeHtml(plot.x.unit)}: ${formatNumber(b.count, 0)}</title></rect>`,
      );
    }
  }
  for (const b of bands ?? []) {
    const s = series[b.series];
    parts.push(
      `<rect class="mark" x="${f(sx(b.x0))}" y="${f(sy(b.y1))}" width="${f(Math.max(0.5, sx(b.x1) - sx(b.x0)))}" height="${f(sy(b.y0) - sy(b.y1))}" fill="${s.colour ?? PALETTE[s.slot % PALETTE.length]}" fill-opacity="0.9"><title>${escapeHtml(s.label)} from ${formatNumber(b.x0, 4)} ${escapeHtml(plot.x.unit)}: ${formatNumber(b.y1 - b.y0, 3)} ${escapeHtml(plot.y.unit)}</title></rect>`,
    );
  }
  series.forEach((s) => {
    if (bands) return;
    const i = s.slot;
    const colour = s.colour ?? PALETTE[i % PALETTE.length];
    // A series on the right axis is placed on its scale.
    const py = s.right ? sy2 : sy;
    const yLog = s.right ? y2?.log : plot.y.log;
    if (plot.kind === "scatter" && s.mark !== "line") {
      s.points.forEach(([x, y], k) => {
        if (!finite(x) || !finite(y)) return;
        const iv = s.intervals?.[k];
        const ok = (v: number, log: boolean | undefined) => finite(v) && (!log || v > 0);
        if (iv && [...iv.x].every((v) => ok(v, plot.x.log)) && [...iv.y].every((v) => ok(v, yLog))) {
          const [x0, x1] = [sx(iv.x[0]), sx(iv.x[1])];
          const [y0, y1] = [py(iv.y[0]), py(iv.y[1])];
          const cx = sx(x);
          const cy = py(y);
          parts.push(
            `<path class="interval" stroke="${colour}" stroke-width="1.2" fill="none" d="M${f(x0)},${f(cy)}H${f(x1)}M${f(x0)},${f(cy - 3)}V${f(cy + 3)}M${f(x1)},${f(cy - 3)}V${f(cy + 3)}M${f(cx)},${f(y0)}V${f(y1)}M${f(cx - 3)},${f(y0)}H${f(cx + 3)}M${f(cx - 3)},${f(y1)}H${f(cx + 3)}"/>`,
          );
        }
        const text = s.labels?.[k];
        parts.push(
          `<circle class="mark" cx="${f(sx(x))}" cy="${f(py(y))}" r="${text ? 3.5 : 2}" fill="${colour}" fill-opacity="0.7"/>`,
        );
        if (text)
          parts.push(
            `<text x="${f(sx(x) + 5)}" y="${f(py(y) - 5)}" fill="#111827" font-size="10">${escapeHtml(text)}</text>`,
          );
      });
      return;
    }
    for (const run of unbroken(s.points))
      parts.push(
        `<polyline class="mark" fill="none" stroke="${colour}" stroke-width="1.5"${dash(i, s.right)} points="${run.map(([x, y]) => `${f(sx(x))},${f(py(y))}`).join(" ")}"/>`,
      );
  });
  // Marks on the x axis (a distribution's percentiles), one label row each so close ones never meet.
  (plot.marks ?? []).forEach((m, row) => {
    if (!finite(m.x) || (plot.x.log && m.x <= 0)) return;
    const x = sx(m.x);
    const right = x < left + plotW / 2;
    parts.push(
      `<line class="x-mark" x1="${f(x)}" x2="${f(x)}" y1="${top}" y2="${top + PLOT_H}" stroke="${m.colour}" stroke-dasharray="4 2"/>`,
      `<text x="${f(right ? x + 4 : x - 4)}" y="${top + 11 + row * 14}" text-anchor="${right ? "start" : "end"}" fill="${m.colour}">${escapeHtml(m.label)}</text>`,
    );
  });
  // Levels on the y axis (a capacity), labelled above the line at the plot's right end.
  if (plot.kind !== "histogram" && series.length > 0)
    for (const l of plot.levels ?? []) {
      if (!finite(l.y) || (plot.y.log && l.y <= 0)) continue;
      const y = sy(l.y);
      parts.push(
        `<line class="y-level" x1="${left}" x2="${left + plotW}" y1="${f(y)}" y2="${f(y)}" stroke="#64748b" stroke-dasharray="4 2"/>`,
        `<text x="${left + plotW - 2}" y="${f(y - 4)}" text-anchor="end" fill="#64748b">${escapeHtml(l.label)}</text>`,
      );
    }
  if (legendLines > 0) parts.push(legend(series, top + PLOT_H + 50, plot.kind === "line" && !bands));
  parts.push("</svg>");
  return parts.join("");
}

/**
 * Stacked steps as rectangles: at each x of any series, each series' value stacked on the ones
 * before it, held until the next x (the last until `until`, else no width); a value not recorded
 * is no band, never a 0.
 */
function bandRects(
  series: ReadonlyArray<XySeries>,
  bands: { until?: number } | undefined,
): Array<{ series: number; x0: number; x1: number; y0: number; y1: number }> | null {
  if (!bands) return null;
  const xs = [...new Set(series.flatMap((s) => s.points.map(([x]) => x).filter(finite)))].sort(
    (a, b) => a - b,
  );
  const at = series.map((s) => new Map(s.points.map(([x, y]) => [x, y])));
  const out: Array<{ series: number; x0: number; x1: number; y0: number; y1: number }> = [];
  xs.forEach((x0, k) => {
    const x1 = k + 1 < xs.length ? xs[k + 1] : (bands.until ?? x0);
    let base = 0;
    at.forEach((m, i) => {
      const v = m.get(x0);
      if (!finite(v) || v <= 0) return;
      out.push({ series: i, x0, x1, y0: base, y1: base + v });
      base += v;
    });
  });
  return out;
}

/** Runs of consecutive recorded points: a line never bridges a value that was not recorded. */
function unbroken(points: XySeries["points"]): Array<Array<[number, number]>> {
  const runs: Array<Array<[number, number]>> = [];
  let cur: Array<[number, number]> = [];
  for (const [x, y] of points) {
    if (finite(x) && finite(y)) cur.push([x, y]);
    else if (cur.length > 0) {
      runs.push(cur);
      cur = [];
    }
  }
  if (cur.length > 0) runs.push(cur);
  return runs.filter((r) => r.length >= 2);
}

/** The legend's font size, in the SVG's units (its text inherits the drawing's). */
const LEGEND_FONT = 11;
/** A legend line's height and the gap between two entries, in the SVG's units. */
const LEGEND_ROW = 18;
const LEGEND_GAP = 16;
/** The swatch and its gap before the words. */
const SWATCH = 16;

/**
 * Where each legend entry goes: entries one after another, each as wide as its words are drawn
 * (`labelWidthPx`, erring wide), a new row when the next would pass the drawing's right edge; an
 * entry too wide for a row of its own is broken into lines at its spaces. Every word is written,
 * none cut short ("generation postprocessing", not "generation postprocessi…").
 */
export function legendLayout(
  labels: readonly string[],
  left = 64,
  right = W - 16,
): { entries: Array<{ x: number; row: number; lines: string[] }>; rows: number } {
  const width = (t: string) => labelWidthPx(t, LEGEND_FONT);
  const room = right - left - SWATCH;
  let x = left;
  let row = 0;
  const entries = labels.map((label) => {
    const lines: string[] = [];
    for (const word of label.split(" ")) {
      const last = lines.length - 1;
      if (last >= 0 && width(`${lines[last]} ${word}`) <= room) lines[last] = `${lines[last]} ${word}`;
      else lines.push(word);
    }
    let w = SWATCH;
    for (const l of lines) w = Math.max(w, SWATCH + width(l));
    if (x > left && x + w > right) {
      x = left;
      row++;
    }
    const at = { x, row, lines };
    x += w + LEGEND_GAP;
    // An entry of several lines takes their rows; the next starts below it.
    if (lines.length > 1) {
      row += lines.length - 1;
      x = right;
    }
    return at;
  });
  return { entries, rows: labels.length === 0 ? 0 : row + 1 };
}

/** How many rows a plot's legend takes: none for a single series, which the title names. */
function legendRows(series: ReadonlyArray<{ label: string }>): number {
  return series.length > 1 ? legendLayout(series.map((s) => s.label)).rows : 0;
}

function legend(
  entries: ReadonlyArray<{ label: string; slot: number; colour?: string; right?: boolean }>,
  y: number,
  lines = false,
): string {
  const layout = legendLayout(entries.map((e) => e.label));
  return entries
    .map(({ slot, colour: own, right }, i) => {
      const { x, row: r, lines: words } = layout.entries[i];
      const row = y + r * LEGEND_ROW;
      const colour = own ?? PALETTE[slot % PALETTE.length];
      const swatch = lines
        ? `<line x1="${x}" x2="${x + 12}" y1="${row - 4}" y2="${row - 4}" stroke="${colour}" stroke-width="2.5"${dash(slot, right)}/>`
        : `<rect x="${x}" y="${row - 9}" width="10" height="10" fill="${colour}"/>`;
      const text = words
        .map((w, j) =>
          j === 0 ? escapeHtml(w) : `<tspan x="${x + SWATCH}" dy="${LEGEND_ROW}">${escapeHtml(w)}</tspan>`,
        )
        .join("");
      return `${swatch}<text x="${x + SWATCH}" y="${row}" fill="#111827">${text}</text>`;
    })
    .join("");
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The frame of a plot of one named row per category and a value axis across: each row's name
 * (clipped to `clipAt` characters, whole in its tooltip), the value ticks over their grid, the axis
 * line and title, and the legend when there are several series. Room is left right of the plot
 * for the widest of `texts` (the labels written past the bars' ends); `row` draws the marks of
 * category `ci` in the row from `y0`, with `sx` the value's x and `left` the axis's.
 */
function rowsFrame(
  p: {
    categories: string[];
    value: Axis;
    series: ReadonlyArray<{ label: string; slot: number; colour?: string }>;
  },
  label: string,
  layout: { rowH: number; clipAt: number; maxLabelW: number; minRoom: number; texts: string[]; max: number },
  row: (ci: number, y0: number, sx: (v: number) => number, left: number) => string[],
): string {
  const { rowH, clipAt } = layout;
  const labelW = Math.min(
    layout.maxLabelW,
    12 + 6.2 * maxOf(p.categories.map((c) => Math.min(c.length, clipAt))),
  );
  const left = labelW + 8;
  const top = 8;
  const plotW = W - left - Math.max(layout.minRoom, labelRoomPx(layout.texts));
  const plotH = rowH * p.categories.length;
  const legendLines = legendRows(p.series);
  const height = top + plotH + 46 + legendLines * LEGEND_ROW;
  const ticks = niceTicks(layout.max);
  const max = ticks[ticks.length - 1];
  const sx = (v: number) => left + (v / max) * plotW;
  const parts = [svgOpen(height, label)];
  for (const t of ticks)
    parts.push(
      `<line x1="${f(sx(t))}" x2="${f(sx(t))}" y1="${top}" y2="${top + plotH}" stroke="#e5e7eb"/>`,
      `<text x="${f(sx(t))}" y="${top + plotH + 14}" text-anchor="middle" fill="#374151">${formatNumber(t, 4)}</text>`,
    );
  p.categories.forEach((c, ci) => {
    const y0 = top + ci * rowH;
    parts.push(
      `<text x="${left - 6}" y="${f(y0 + rowH / 2 + 4)}" text-anchor="end" fill="#111827">${escapeHtml(clip(c, clipAt))}<title>${escapeHtml(c)}</title></text>`,
    );
    for (const mark of row(ci, y0, sx, left)) parts.push(mark);
  });
  parts.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#6b7280"/>`,
    `<text x="${left + plotW / 2}" y="${top + plotH + 32}" text-anchor="middle" fill="#111827" font-size="12">${escapeHtml(axisTitle(p.value))}</text>`,
  );
  if (legendLines > 0) parts.push(legend(p.series, top + plotH + 48));
  parts.push("</svg>");
  return parts.join("");
}

/** Horizontal bars: one row per category (long endpoint and segment names stay readable), series side by side. */
function renderBars(all: Extract<Plot, { kind: "bars" }>, label: string): string {
  const plot = {
    ...all,
    series: all.series.map((s, slot) => ({ ...s, slot })).filter((s) => s.values.some(finite)),
  };
  const n = plot.series.length;
  // A bar per series in a row, each a label's line tall so the labels written beside them never touch.
  const rowH = Math.max(18, 6 + n * labelLinePx());
  // Each bar's value is written past its end (lib/metrics/bar-labels.ts): room for the widest.
  const text =
    plot.valueText ?? ((v: number) => `${formatNumber(v, 4)}${plot.value.unit ? ` ${plot.value.unit}` : ""}`);
  const texts = plot.series.flatMap((s) => s.values.filter(finite).map(text));
  const max = Math.max(maxOf(plot.series.flatMap((s) => s.values.filter(finite))), plot.valueMax ?? 0);
  const layout = { rowH, clipAt: 38, maxLabelW: 240, minRoom: 52, texts, max };
  return rowsFrame(plot, label, layout, (ci, y0, sx, left) =>
    plot.series.flatMap((s, si) => {
      const v = s.values[ci];
      if (!finite(v) || v === 0) return [];
      const barH = (rowH - 6) / n;
      const len = drawnLength(sx(v) - left, v);
      return [
        `<rect class="mark" x="${left}" y="${f(y0 + 3 + si * barH)}" width="${f(len)}" height="${f(barH - 1)}" fill="${s.colours?.[ci] ?? s.colour ?? PALETTE[s.slot % PALETTE.length]}"><title>${escapeHtml(s.label)}: ${formatNumber(v, 4)} ${escapeHtml(plot.value.unit)}</title></rect>`,
        `<text class="value-label" x="${f(left + len + LABEL_GAP_PX)}" y="${f(y0 + 3 + si * barH + (barH - 1) / 2 + LABEL_FONT_PX * 0.35)}" font-size="${LABEL_FONT_PX}" fill="#111827">${escapeHtml(text(v))}</text>`,
      ];
    }),
  );
}

/**
 * A stacked plot's series that have a value, each with its palette slot, and each category's
 * total: the sum of its recorded values (a negative one counts as none).
 */
function stackOf(all: Extract<Plot, { kind: "stacked" }>) {
  const series = all.series.map((s, slot) => ({ ...s, slot })).filter((s) => s.values.some(finite));
  const totals = all.categories.map((_, ci) =>
    series.reduce((a, s) => a + (finite(s.values[ci]) ? Math.max(0, s.values[ci] as number) : 0), 0),
  );
  return { series, totals };
}

/**
 * Stacked columns, one per category, left to right: many narrow columns (a few hundred requests)
 * read as a profile, so categories are not labelled one by one; each column's tooltip and the
 * data table name it. A value not recorded leaves its band out of that column.
 */
function renderStacked(all: Extract<Plot, { kind: "stacked" }>, label: string): string {
  const { series, totals } = stackOf(all);
  const ticks = niceTicks(maxOf(totals));
  const yMax = ticks[ticks.length - 1];
  const left = 64;
  const top = 12;
  const plotW = W - left - 16;
  const legendLines = legendRows(series);
  const height = top + PLOT_H + 52 + legendLines * LEGEND_ROW;
  const sy = (v: number) => top + PLOT_H - (v / yMax) * PLOT_H;
  const colW = plotW / Math.max(1, all.categories.length);
  const parts = [svgOpen(height, label)];
  for (const t of ticks)
    parts.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${f(sy(t))}" y2="${f(sy(t))}" stroke="#e5e7eb"/>`,
      `<text x="${left - 6}" y="${f(sy(t) + 4)}" text-anchor="end" fill="#374151">${formatNumber(t, 4)}</text>`,
    );
  all.categories.forEach((c, ci) => {
    let base = 0;
    const x = left + ci * colW;
    for (const s of series) {
      const v = s.values[ci];
      if (!finite(v) || v <= 0) continue;
      parts.push(
        `<rect class="mark" x="${f(x)}" y="${f(sy(base + v))}" width="${f(Math.max(0.6, colW - (colW > 3 ? 1 : 0)))}" height="${f(sy(base) - sy(base + v))}" fill="${s.colour ?? PALETTE[s.slot % PALETTE.length]}"><title>${escapeHtml(c)} · ${escapeHtml(s.label)}: ${formatNumber(v, 4)} ${escapeHtml(all.value.unit)}</title></rect>`,
      );
      base += v;
    }
  });
  parts.push(
    `<line x1="${left}" x2="${left + plotW}" y1="${top + PLOT_H}" y2="${top + PLOT_H}" stroke="#6b7280"/>`,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + PLOT_H}" stroke="#6b7280"/>`,
    `<text x="${left + plotW / 2}" y="${top + PLOT_H + 20}" text-anchor="middle" fill="#111827" font-size="12">${escapeHtml(axisTitle(all.category))}</text>`,
    `<text transform="translate(14 ${top + PLOT_H / 2}) rotate(-90)" text-anchor="middle" fill="#111827" font-size="12">${escapeHtml(axisTitle(all.value))}</text>`,
  );
  if (legendLines > 0) parts.push(legend(series, top + PLOT_H + 44));
  parts.push("</svg>");
  return parts.join("");
}

/**
 * Stacked rows: one named bar per category (a statistic), its series stacked left to right in
 * their order, its total written past its end (`totalText`); a value not recorded is no band. A
 * band above 0 is at least MIN_BAR_PX long on a phone's screen (REPORT_MIN_BAND), taken from the
 * stack's longest bands, so the stack ends at its total, as the page draws it
 * (lib/metrics/bar-labels.ts stackBandsPx).
 */
function renderStackedRows(all: Extract<Plot, { kind: "stacked" }>, label: string): string {
  const { series, totals } = stackOf(all);
  const texts = all.totalText ? totals.map(all.totalText) : [];
  const rowH = 30;
  const layout = { rowH, clipAt: 24, maxLabelW: 160, minRoom: 24, texts, max: maxOf(totals) };
  return rowsFrame({ ...all, series }, label, layout, (ci, y0, sx) => {
    const c = all.categories[ci];
    const parts: string[] = [];
    const drawn = stackBandsPx(
      series.map((s) => s.values[ci]),
      sx(1) - sx(0),
      REPORT_MIN_BAND,
    );
    let at = sx(0);
    series.forEach((s, si) => {
      const v = s.values[ci];
      if (!finite(v) || v <= 0) return;
      parts.push(
        `<rect class="mark" x="${f(at)}" y="${f(y0 + 4)}" width="${f(drawn[si])}" height="${f(rowH - 8)}" fill="${s.colour ?? PALETTE[s.slot % PALETTE.length]}"><title>${escapeHtml(c)} · ${escapeHtml(s.label)}: ${formatNumber(v, 4)} ${escapeHtml(all.value.unit)}</title></rect>`,
      );
      at += drawn[si];
    });
    if (all.totalText && totals[ci] > 0)
      parts.push(
        `<text class="value-label" x="${f(sx(totals[ci]) + LABEL_GAP_PX)}" y="${f(y0 + rowH / 2 + LABEL_FONT_PX * 0.35)}" font-size="${LABEL_FONT_PX}" fill="#111827">${escapeHtml(all.totalText(totals[ci]))}</text>`,
      );
    return parts;
  });
}

const f = (v: number) => String(Math.round(v * 10) / 10);
