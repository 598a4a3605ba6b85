/**
 * The first figures of a run view drawn on the server, as SVG markup sent in the page's HTML: the
 * reader sees the chart with the page's first paint, before the scripts have loaded and the
 * chart library has drawn it again (the interactive chart, which then takes its place in the same
 * box). Drawn from the payload the server prefetch put in the page's query cache
 * (prefetch-first-chart.ts), so it is the same data the browser's chart draws.
 *
 * The drawing follows the chart kit's layout (components/charts/chart-container.tsx,
 * plot-parts.tsx, axis-ticks.ts): the same margins, axis titles with their unit, round ticks
 * (lib/metrics/nice-scale.ts, a millisecond axis written in seconds from 10,000 ms on), grid,
 * percentile marks with their names in the label rows above the plot (lib/api/figure-mark-rows.ts)
 * and colours, which are the theme's CSS variables so it reads in light and dark. It draws the
 * figure description the live chart draws (lib/metrics/figures/latency-distribution.ts), for
 * aiperf's records and TensorRT-LLM's perf metrics alike.
 * The server does not know the plot's width: the plot is placed by CSS (its left and right
 * margins in px) and every x position is a percentage of it; the marks are drawn in a box
 * stretched to the plot with strokes that do not scale. The x ticks come in two sets, for a wide
 * plot and a phone's (app/globals.css shows one), as the kit fits fewer ticks across a phone and
 * writes them without the unit the axis title names (a percent y axis's too). The Cache and
 * Breakdown views' first figures, horizontal bars, are drawn the same way (`barsStillSvg`).
 */
import type { QueryClient } from "@tanstack/react-query";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS, SM_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import type { SegmentScope, Statistic, ValueScale } from "@/lib/api/trtllm-charts";
import {
  endpointCapacityFigure,
  endpointHitRateFigure,
  endpointOffloadFigure,
  OFFLOAD_DIRECTIONS,
} from "@/lib/metrics/figures/endpoints";
import { hasKvData, hasOffloadCounters } from "@/lib/api/run-views";
import { segmentStatsFigure } from "@/lib/metrics/figures/segments";
import { endpointHitRateMissing } from "@/lib/metrics/server-metrics/cache-facts";
import { notedCategories, tokenVar, type FigureDescription } from "@/lib/api/figure";
import {
  MARK_LABEL,
  markLabelRows,
  markLabelSide,
  markRowsHeight,
  mergedMarkLabels,
} from "@/lib/api/figure-mark-rows";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions } from "@/lib/api/query-options";
import type { RunSummary } from "@/lib/api/schemas";
import {
  aiperfLatencyDistributionFigures,
  TRTLLM_DISTRIBUTION_METRICS,
  trtllmLatencyDistributionFigures,
  type TrtllmDistributionMetric,
} from "@/lib/metrics/figures/latency-distribution";
import { ticksCovering, ticksWithin } from "@/lib/metrics/nice-scale";
import {
  barNamesPx,
  barsHeightPx,
  compactValueText,
  compactTickText,
  LABEL_FONT_PX,
  LABEL_GAP_PX,
  labelRoomPx,
  MIN_BAR_PX,
  NAMES_ABOVE,
  namedBarGroupPx,
  stackBandsPx,
  stackedRowsHeightPx,
  stackEnds,
  stackNamesPx,
  unitText,
  valueTextAlike,
} from "@/lib/metrics/bar-labels";
import { shortLabels } from "@/lib/metrics/short-labels";
import { escapeHtml } from "./report/escape-html";

/** Server-drawn figures by `<exportName>/<metric>` (components/run/still-figures.tsx reads them). */
export type StillFigures = Record<string, string>;

/** The chart kit's box: ChartContainer's default height and the shared margin (chart-theme.ts). */
const HEIGHT = 300;
const MARGIN = { top: 16, right: 16, bottom: 4, left: 4 } as const;
/** An x axis with a title is 40 px high (plot-parts.tsx). */
const X_AXIS = 40;
/** About how wide a character of the 11 px axis font is, as axis-ticks.ts reckons. */
const CHAR_PX = 7;
const TICK_GAP_PX = 12;
/** Plot widths the x ticks are fitted to: a half-width chart on a laptop, and a phone's. */
const WIDE_PLOT_PX = 440;
const NARROW_PLOT_PX = 250;

const en = (v: number, digits: number) => v.toLocaleString("en-US", { maximumFractionDigits: digits });
const num = (v: number) => Number(v.toFixed(2)).toString();
/** The largest of `values` mapped by `f`, 0 for none (a loop: no spread of a long array). */
function maxOf<T>(values: readonly T[], f: (v: T) => number): number {
  let m = 0;
  for (const v of values) m = Math.max(m, f(v));
  return m;
}

/** Decimals a step needs to be written exactly (axis-ticks.ts). */
function decimalsOf(step: number): number {
  for (let d = 0; d < 6; d++) if (Math.abs(step * 10 ** d - Math.round(step * 10 ** d)) < 1e-6) return d;
  return 6;
}

interface Ticks {
  values: number[];
  text: (v: number) => string;
}

/** A millisecond axis's round ticks inside [lo, hi], in seconds when they reach 10,000 ms. */
function msTicks(lo: number, hi: number, target: number | undefined): Ticks & { unit: "ms" | "s" } {
  const values = ticksWithin(lo, hi, target);
  const step = values.length > 1 ? values[1] - values[0] : Math.abs(values[0] ?? 1) || 1;
  if (maxOf(values, Math.abs) >= 10_000) {
    const d = decimalsOf(step / 1000);
    return { values, unit: "s", text: (v) => `${en(v / 1000, d)} s` };
  }
  const d = decimalsOf(step);
  return { values, unit: "ms", text: (v) => `${en(v, d)} ms` };
}

/**
 * The latency axis as fittedHorizontalAxis draws it: from `target` ticks, a coarser round step
 * until the widest label fits between its neighbours on a plot `plotWidth` px wide.
 */
function fittedMsTicks(lo: number, hi: number, target: number | undefined, plotWidth: number, bare = false) {
  const first = msTicks(lo, hi, target);
  const shown = (t: ReturnType<typeof msTicks>) => (bare ? { ...t, text: withoutUnit(t.text) } : t);
  for (let n = target ?? 6; n >= 1; n--) {
    const t = shown(n === (target ?? 6) ? first : msTicks(lo, hi, n));
    if (t.values.length < 2) return t;
    const spacing = hi > lo ? (plotWidth * (t.values[1] - t.values[0])) / (hi - lo) : plotWidth;
    const widest = maxOf(t.values, (v) => t.text(v).length) * CHAR_PX;
    if (spacing >= widest + TICK_GAP_PX) return t;
  }
  return shown(first);
}

/** A tick text less its unit ("500 ms" → "500", "12.5 s" → "12.5", "50%" → "50"): the phone's ticks, the unit once in the axis title. */
const withoutUnit =
  (text: (v: number) => string) =>
  (v: number): string =>
    text(v).replace(/( ms| s|%)$/, "");

interface Frame {
  /** The plot's top in the chart's box: the shared margin and the marks' label rows */
  top: number;
  /** The plot's height */
  plotH: number;
  /** x of a value as a percentage of the plot's width */
  x: (v: number) => number;
  /** y of a value in px from the plot's top */
  y: (v: number) => number;
  xTicks: { wide: Ticks; narrow: Ticks };
  yTicks: Ticks;
  /** The y ticks' text on a phone (without the unit the title names), where it differs */
  yNarrowText?: (v: number) => string;
  xTitle: string;
  yTitle: string;
  /** Vertical grid lines at the x ticks (a line chart's; a bar chart has none) */
  verticalGrid: boolean;
}

const TEXT = `font-size="11" fill="var(--muted)"`;

/** One set of x ticks: tick lines, labels (the first starts at its tick, the last ends at it), grid. */
function xTickSet(f: Frame, t: Ticks, cls: string): string {
  const out: string[] = [`<g class="${cls}">`];
  t.values.forEach((v, i) => {
    const at = `${num(f.x(v))}%`;
    const anchor = i === 0 ? "start" : i === t.values.length - 1 ? "end" : "middle";
    if (f.verticalGrid) out.push(`<line x1="${at}" x2="${at}" y1="0" y2="${f.plotH}" stroke="var(--grid)"/>`);
    out.push(`<line x1="${at}" x2="${at}" y1="${f.plotH}" y2="${f.plotH + 6}" stroke="var(--muted)"/>`);
    out.push(
      `<text x="${at}" y="${f.plotH + 8}" dy="0.71em" text-anchor="${anchor}" ${TEXT}>${escapeHtml(t.text(v))}</text>`,
    );
  });
  out.push("</g>");
  return out.join("");
}

/** The y axis's width as the library sizes it ("auto"): widest tick, tick line, gap, title. */
function yAxisWidth(t: Ticks): number {
  const widest = maxOf(t.values, (v) => t.text(v).length) * 6.2;
  return Math.round(widest + 6 + 2 + 16 + 5);
}

/**
 * The frame and marks of one figure: an HTML box the size of the chart's plot area, its SVG
 * drawn over it with the axes outside (overflow visible). `marks` are drawn in a 1000 × plot
 * height box stretched to the plot.
 */
function drawing(
  f: Frame,
  name: string,
  title: string,
  marks: string,
  over: string,
  counts: Record<string, number>,
): string {
  const left = MARGIN.left + yAxisWidth(f.yTicks);
  const right = MARGIN.right;
  const data = Object.entries(counts)
    .map(([k, v]) => ` data-${k}="${v}"`)
    .join("");
  const out: string[] = [
    `<svg data-first-figure="${name}"${data} role="img" aria-label="${escapeHtml(title)}" overflow="visible"`,
    ` style="position:absolute;left:${left}px;top:${f.top}px;width:calc(100% - ${left + right}px);height:${f.plotH}px;overflow:visible">`,
  ];
  // Horizontal grid at the y ticks, the y axis with its ticks and title.
  for (const v of f.yTicks.values)
    out.push(`<line x1="0" x2="100%" y1="${num(f.y(v))}" y2="${num(f.y(v))}" stroke="var(--grid)"/>`);
  out.push(xTickSet(f, f.xTicks.wide, "first-figure-wide"));
  out.push(xTickSet(f, f.xTicks.narrow, "first-figure-narrow"));
  out.push(
    `<svg width="100%" height="${f.plotH}" viewBox="0 0 1000 ${f.plotH}" preserveAspectRatio="none" overflow="visible">${marks}</svg>`,
  );
  out.push(`<line x1="0" x2="0" y1="0" y2="${f.plotH}" stroke="var(--muted)"/>`);
  out.push(`<line x1="0" x2="100%" y1="${f.plotH}" y2="${f.plotH}" stroke="var(--muted)"/>`);
  const yTexts = (text: (v: number) => string, cls?: string) => {
    if (cls) out.push(`<g class="${cls}">`);
    for (const v of f.yTicks.values)
      out.push(
        `<text x="-8" y="${num(f.y(v))}" dy="0.355em" text-anchor="end" ${TEXT}>${escapeHtml(text(v))}</text>`,
      );
    if (cls) out.push("</g>");
  };
  for (const v of f.yTicks.values) {
    const y = num(f.y(v));
    out.push(`<line x1="-6" x2="0" y1="${y}" y2="${y}" stroke="var(--muted)"/>`);
  }
  if (f.yNarrowText) {
    yTexts(f.yTicks.text, "first-figure-wide");
    yTexts(f.yNarrowText, "first-figure-narrow");
  } else yTexts(f.yTicks.text);
  out.push(
    `<text transform="translate(${MARGIN.left + 2 - left} ${f.plotH / 2}) rotate(-90)" dy="0.71em" text-anchor="middle" ${TEXT}>${escapeHtml(f.yTitle)}</text>`,
  );
  out.push(
    `<text x="50%" y="${HEIGHT - MARGIN.bottom - f.top - 4}" text-anchor="middle" ${TEXT}>${escapeHtml(f.xTitle)}</text>`,
  );
  out.push(over);
  out.push("</svg>");
  return out.join("");
}

/**
 * A figure's x marks (its p50 … p99): dashed lines over the plot, their names in the label rows
 * above it (lib/api/figure-mark-rows.ts, as the page's chart kit places them), on the side of
 * the line away from the nearer edge.
 */
function markLines(f: FigureDescription, plotH: number, x: (v: number) => number, domain: Span): string {
  const marks = shownMarks(f, domain);
  const rows = markLabelRows(marks, domain);
  return marks
    .map((m, i) => {
      const at = `${num(x(m.x))}%`;
      const left = markLabelSide(m.x, domain) === "left";
      const color = tokenVar(m.colour);
      const y = -MARK_LABEL.offsetPx - rows[i] * MARK_LABEL.rowPx;
      return (
        `<line x1="${at}" x2="${at}" y1="0" y2="${plotH}" stroke="${color}" stroke-dasharray="4 2"/>` +
        `<text x="${at}" dx="${left ? -MARK_LABEL.offsetPx : MARK_LABEL.offsetPx}" y="${y}" text-anchor="${left ? "end" : "start"}" font-size="${MARK_LABEL.fontPx}" fill="${color}" stroke="var(--card)" stroke-width="3" paint-order="stroke">${escapeHtml(m.label)}</text>`
      );
    })
    .join("");
}

type Span = readonly [number, number];

/** A figure's x marks with the names of lines too close to sit side by side written once, as the chart kit writes them. */
const shownMarks = (f: FigureDescription, domain: Span) =>
  mergedMarkLabels(f.marks ?? [], domain, unitText(f.x.unit ?? ""));

/**
 * The plot's top and height: the shared margin grows by the marks' label rows as the chart
 * kit's does (reference-marks.tsx markRowsRoom).
 */
function plotBox(f: FigureDescription, domain: Span) {
  const marks = shownMarks(f, domain);
  const rows = marks.length > 0 ? markRowsHeight(markLabelRows(marks, domain)) + MARK_LABEL.offsetPx : 0;
  const top = Math.max(MARGIN.top, rows);
  return { top, plotH: HEIGHT - top - MARGIN.bottom - X_AXIS };
}

/** The latency axis of a distribution figure: the span of its bins (its x domain), fitted ticks. */
function latencyFrame(f: FigureDescription) {
  // A distribution figure spans its bins (its x domain); failing that, its points.
  let domain: Span = f.x.domain ?? [Infinity, -Infinity];
  if (!f.x.domain)
    for (const s of f.series)
      for (const [v] of s.points) domain = [Math.min(domain[0], v), Math.max(domain[1], v)];
  const [lo, hi] = domain;
  const wide = fittedMsTicks(lo, hi, undefined, WIDE_PLOT_PX);
  // The phone's ticks: fewer, and without the unit, which the axis title names once.
  const narrow = fittedMsTicks(lo, hi, 4, NARROW_PLOT_PX, true);
  const x = (v: number) => (hi > lo ? ((v - lo) / (hi - lo)) * 100 : 50);
  return { domain, x, wide, narrow, xTitle: `${f.x.label} (${wide.unit})` };
}

const axisTitle = (a: FigureDescription["y"]) => (a.unit ? `${a.label} (${a.unit})` : a.label);

/** A histogram figure's bins, as the page draws them (one bar per bin, a px apart). */
export function histogramStillSvg(f: FigureDescription): string {
  const { domain, x, wide, narrow, xTitle } = latencyFrame(f);
  const { top, plotH } = plotBox(f, domain);
  const bins = f.bins ?? [];
  const maxCount = maxOf(bins, (b) => b.count);
  const values = ticksCovering(0, maxCount, 5, 1);
  const yTop = values[values.length - 1] || 1;
  const step = values.length > 1 ? values[1] - values[0] : 1;
  const y = (v: number) => plotH - (v / yTop) * plotH;
  const fill = tokenVar(f.series[0]?.colour ?? "chart-1");
  const bars = bins
    .map((b) => {
      const x0 = x(b.lo) * 10;
      const w = (x(b.hi) - x(b.lo)) * 10;
      return `<rect x="${num(x0)}" y="${num(y(b.count))}" width="${num(w)}" height="${num(plotH - y(b.count))}" fill="${fill}" stroke="var(--card)" vector-effect="non-scaling-stroke"/>`;
    })
    .join("");
  return drawing(
    {
      top,
      plotH,
      x,
      y,
      xTicks: { wide, narrow },
      yTicks: { values, text: (v) => en(v, decimalsOf(step)) },
      xTitle,
      yTitle: axisTitle(f.y),
      verticalGrid: false,
    },
    f.exportName,
    f.title,
    bars,
    markLines(f, plotH, x, domain),
    { bars: bins.length },
  );
}

/** A step-line figure (a CDF in percent), as the page draws it. */
export function stepLineStillSvg(f: FigureDescription): string {
  const { domain, x, wide, narrow, xTitle } = latencyFrame(f);
  const { top, plotH } = plotBox(f, domain);
  const values = ticksWithin(0, 100);
  const y = (v: number) => plotH - (v / 100) * plotH;
  const points = f.series[0]?.points ?? [];
  const path = points
    .flatMap(([px, py], i) => {
      if (py === null) return [];
      const sx = num(x(px) * 10);
      const sy = num(y(py));
      return [i === 0 ? `M${sx} ${sy}` : `H${sx}V${sy}`];
    })
    .join("");
  const line = `<path d="${path}" fill="none" stroke="${tokenVar(f.series[0]?.colour ?? "chart-2")}" vector-effect="non-scaling-stroke"/>`;
  return drawing(
    {
      top,
      plotH,
      x,
      y,
      xTicks: { wide, narrow },
      yTicks: { values, text: (v) => `${en(v, decimalsOf(values[1] - values[0]))}%` },
      yNarrowText: (v) => en(v, decimalsOf(values[1] - values[0])),
      xTitle,
      yTitle: axisTitle(f.y),
      verticalGrid: true,
    },
    f.exportName,
    f.title,
    line,
    markLines(f, plotH, x, domain),
    { points: points.length },
  );
}

/** The one-distribution payload a figure description is made from. */
const single = (d: Distribution) => ({ metrics: { m: d } });

/** aiperf's histogram of one distribution, labelled `label` (the Latency view's first figure). */
export function latencyHistogramSvg(d: Distribution, label: string): string {
  return histogramStillSvg(aiperfLatencyDistributionFigures(single(d), "m", { label })[0]);
}

/** aiperf's CDF of one distribution, labelled `label`. */
export function latencyCdfSvg(d: Distribution, label: string): string {
  return stepLineStillSvg(aiperfLatencyDistributionFigures(single(d), "m", { label })[1]);
}

/** A distribution's histogram and CDF, by `<exportName>/<metric>`, when it has bins and points. */
function stills(figures: readonly [FigureDescription, FigureDescription], metric: string): StillFigures {
  const [histogram, cdf] = figures;
  if (!histogram.bins?.length || !cdf.series[0]?.points.length) return {};
  return {
    [`${histogram.exportName}/${metric}`]: histogramStillSvg(histogram),
    [`${cdf.exportName}/${metric}`]: stepLineStillSvg(cdf),
  };
}

/**
 * The Latency view's first figures for `metric` (its histogram and CDF), drawn from the
 * distribution payload the prefetch put in `queryClient`, as the figure descriptions the view
 * draws: aiperf's records' (labelled `label`, the metric's name as the view writes it,
 * components/aiperf/latency-metric.ts), or, for a run whose latency is TensorRT-LLM's perf
 * metrics alone, theirs. None when the prefetch found none (a run with only a summary, or one to
 * recompute), the metric has no distribution, or a single request (the view draws no chart then).
 */
export function latencyFirstFigures(
  queryClient: QueryClient,
  run: RunSummary,
  metric: string,
  label: string,
): StillFigures {
  if (run.requests === null && run.timeBreakdown?.latency) {
    if (!isTrtllmMetric(metric)) return {};
    const options = runChartQueryOptions(run.id, TRTLLM_CHARTS.latencyDistribution, chartVersion(run));
    const payload = queryClient.getQueryData(options.queryKey);
    const d = payload?.metrics[metric];
    // The view draws a distribution of more than one request (trtllm-latency-section.tsx).
    if (!payload || !d || d.count < 2) return {};
    return stills(trtllmLatencyDistributionFigures(payload, metric), metric);
  }
  if (run.requests?.source !== "aiperf") return {};
  const options = runChartQueryOptions(run.id, AIPERF_CHARTS.distribution, chartVersion(run));
  const payload = queryClient.getQueryData(options.queryKey);
  if (!payload?.metrics[metric]) return {};
  return stills(aiperfLatencyDistributionFigures(payload, metric, { label }), metric);
}

/**
 * The Overview's one chart drawn on the server: the Latency view's TTFT histogram
 * (components/run-views/overview-latency-chart.tsx), from the same prefetched payload, under the
 * same key; `label` is TTFT's name in the run's tool's words. None when the Latency view would
 * draw none.
 */
export function overviewFirstFigure(queryClient: QueryClient, run: RunSummary, label: string): StillFigures {
  const key = "latency-histogram/ttftMs";
  const svg = latencyFirstFigures(queryClient, run, "ttftMs", label)[key];
  return svg ? { [key]: svg } : {};
}

const isTrtllmMetric = (m: string): m is TrtllmDistributionMetric =>
  (TRTLLM_DISTRIBUTION_METRICS as readonly string[]).includes(m);

/**
 * The width of a chart's plot box on a 390 px phone (the page's and the figure's padding taken
 * off): the phone's layout of horizontal bars fits its ticks to it, less the bars' margins.
 */
const PHONE_PLOT_BOX_PX = 324;

/**
 * The width of a chart's plot box on a laptop, from 1280 px up, where the page stops widening
 * (1440 px among them): a chart the view's width, or one of two side by side. The laptop's layout
 * of horizontal bars fits its ticks to it, less the names and the labels, as the kit fits them.
 */
const LAPTOP_BOX_PX = { full: 1214, half: 582 } as const;
type LaptopBox = keyof typeof LAPTOP_BOX_PX;

/** The plot's width a phone leaves stacked rows beside their names' axis, about (erring narrow). */
const NARROW_BARS_PLOT_PX = 110;

/**
 * The plot widths a stack's bands are laid out for (stackBandsPx), by the class that shows them:
 * a full-width chart on a laptop, and the stacked rows' plot on a 390 px phone (a statistic's
 * short name beside it, the total's label after it).
 */
const STACK_PLOT_PX = [
  ["first-figure-wide", 1000],
  ["first-figure-narrow", 230],
] as const;

/**
 * A value axis's round ticks as the chart kit draws them (axis-ticks.ts readableAxis, "value"):
 * from 0, or inside the description's domain, in `unit`; a millisecond axis in seconds from
 * 10,000 ms. `bare`: the phone's ticks, numbers without the unit the axis title names.
 */
function valueTicks(
  f: FigureDescription,
  hi: number,
  target: number | undefined,
  bare: boolean,
): Ticks & { unit: string } {
  const unit = f.y.unit ?? "";
  const d = f.y.domain;
  const values = d ? ticksWithin(d[0], d[1], target) : ticksCovering(0, Math.max(hi, 0), target ?? 5);
  const step = values.length > 1 ? values[1] - values[0] : Math.abs(values[0] ?? 1) || 1;
  if (unit === "ms") {
    const t = msTicks(values[0] ?? 0, values[values.length - 1] ?? 0, target);
    const ticks = { ...t, values };
    if (!bare) return ticks;
    return { ...ticks, text: (v) => t.text(v).replace(/ (ms|s)$/, "") };
  }
  const plain = (v: number) => en(v, decimalsOf(step));
  if (unit === "%") return { values, unit, text: bare ? plain : (v) => `${plain(v)}%` };
  if (!bare) return { values, unit, text: unit ? (v) => unitText(unit)(v) : plain };
  const cut = (t: string) => (unit && t.endsWith(` ${unit}`) ? t.slice(0, -unit.length - 1) : t);
  return { values, unit, text: (v) => cut(compactTickText(unit)(v)) };
}

/** The gap the chart kit keeps between two tick texts, in px (axis-ticks.ts FIT_GAP_PX). */
const FIT_GAP_PX = 8;

/**
 * Whether ticks' texts fit along a plot `plotWidth` px wide as the chart kit places them
 * (axis-ticks.ts ticksFit): the first starting at its tick, the last ending at its, the others
 * centred on theirs, FIT_GAP_PX apart and inside the plot.
 */
function ticksFitPx(t: Ticks, plotWidth: number): boolean {
  const v = t.values;
  const [d0, d1] = [v[0], v[v.length - 1]];
  if (!(d1 > d0)) return v.length <= 1;
  let prevRight = -Infinity;
  for (let i = 0; i < v.length; i++) {
    const w = t.text(v[i]).length * CHAR_PX;
    const x = (plotWidth * (v[i] - d0)) / (d1 - d0);
    const left = i === 0 ? x : i === v.length - 1 ? x - w : x - w / 2;
    if (left < -0.5 || left + w > plotWidth + 0.5 || left < prevRight + FIT_GAP_PX) return false;
    prevRight = left + w;
  }
  return true;
}

/**
 * The value axis's ticks fitted to a plot `plotWidth` px wide, a coarser round step until they
 * fit: `packed`, as the kit packs them along a plot whose width is known (ticksFitPx); else
 * spaced at least the widest text apart.
 */
function fittedValueTicks(
  f: FigureDescription,
  hi: number,
  target: number | undefined,
  plotWidth: number,
  bare: boolean,
  packed = false,
) {
  const start = target ?? (f.y.domain ? 6 : 5);
  let last = valueTicks(f, hi, target, bare);
  for (let n = start; n >= 1; n--) {
    const t = n === start ? last : valueTicks(f, hi, n, bare);
    last = t;
    if (t.values.length < 2) return t;
    if (packed) {
      if (ticksFitPx(t, plotWidth)) return t;
      continue;
    }
    const span = t.values[t.values.length - 1] - t.values[0];
    const spacing = span > 0 ? (plotWidth * (t.values[1] - t.values[0])) / span : plotWidth;
    const widest = maxOf(t.values, (v) => t.text(v).length) * CHAR_PX;
    if (spacing >= widest + TICK_GAP_PX) return t;
  }
  return last;
}

/** The box height of a figure of horizontal bars or stacked rows, as the chart kit sizes it. */
export function barsStillHeight(f: FigureDescription): number {
  const n = f.categories?.length ?? 0;
  return f.kind === "stacked" ? stackedRowsHeightPx(n) : barsHeightPx(f.series.length, n);
}

/**
 * A figure of horizontal bars or stacked rows drawn as the chart kit draws it: bars in a laptop's
 * and a phone's layout (`sideBarsStillSvg`), stacked rows as `stackedRowsStillSvg` draws them.
 */
export function barsStillSvg(f: FigureDescription, box: LaptopBox = "full"): string {
  return f.kind === "stacked" ? stackedRowsStillSvg(f) : sideBarsStillSvg(f, box);
}

/**
 * The layout of a figure of horizontal bars in one chart box: where its plot sits (px from the
 * box's left and right, its height) and how its rows are drawn (`namesAbove`: a phone's, each
 * category named above its bars).
 */
interface BarsLayout {
  cls: "first-figure-laptop" | "first-figure-phone";
  ticks: Ticks & { unit: string };
  tickCls: "first-figure-wide" | "first-figure-narrow";
  left: number;
  right: number;
  height: number;
  namesAbove: boolean;
  label: (v: number) => string;
}

/**
 * Horizontal bars (`bars`: a row per category, its series side by side, each bar in its
 * category's colour where it has one, its value past its end) as the chart kit draws them
 * (figure-props.ts barsProps, on a linear axis), in two layouts, each shown at its width
 * (app/globals.css): a laptop's, the category names down the left, cut as the page cuts them;
 * and a phone's, where the kit names each category above its bars (chart-container.tsx
 * `namesAbove`): the plot the box's width, a row a name's line taller, bars 12 px thick, the
 * values in their compact form, fewer ticks and without the unit the axis title names. The
 * plot's box is placed by CSS variables the stylesheet reads per width.
 */
function sideBarsStillSvg(f: FigureDescription, box: LaptopBox): string {
  const categories = f.categories ?? [];
  const unit = f.y.unit ?? "";
  const names = notedCategories(f, f.shortNames ? shortLabels(categories, f.shortNames) : categories);
  const full = notedCategories(f);
  const value = (s: FigureDescription["series"][number], i: number) =>
    s.points.find(([x]) => x === i)?.[1] ?? null;
  const texts = (format: (v: number) => string) =>
    f.series.flatMap((s) =>
      categories.flatMap((_, i) => (value(s, i) === null ? [] : [format(value(s, i)!)])),
    );
  const hi = maxOf(
    f.series.flatMap((s) => s.points),
    ([, v]) => v ?? 0,
  );
  const height = barsStillHeight(f);
  const widest = maxOf(names, (n) => n.length);
  const labelled = f.shortNames !== undefined || (f.categoryNotes ?? []).some(Boolean);
  const phoneLabel = compactValueText(unit);
  const phoneRight = MARGIN.right + labelRoomPx(texts(phoneLabel));
  const phoneLeft = MARGIN.left + NAMES_ABOVE.axisPx;
  const laptopLeft = MARGIN.left + barNamesPx(widest, labelled);
  // The labels are said together: one unit and one precision for all of them, as the page writes them.
  const laptopLabel = valueTextAlike(
    unit,
    f.series.flatMap((s) => s.points.map(([, v]) => v)),
  );
  const laptopRight = MARGIN.right + labelRoomPx(texts(laptopLabel));
  const layouts: BarsLayout[] = [
    {
      cls: "first-figure-laptop",
      // The kit fits its ticks to the plot's width: the box's, less the names and the labels.
      ticks: fittedValueTicks(f, hi, undefined, LAPTOP_BOX_PX[box] - laptopLeft - laptopRight, false, true),
      tickCls: "first-figure-wide",
      left: laptopLeft,
      right: laptopRight,
      height,
      namesAbove: false,
      label: laptopLabel,
    },
    {
      cls: "first-figure-phone",
      // The kit fits 4 ticks across the plot a phone leaves once the names are above the bars.
      ticks: fittedValueTicks(f, hi, 4, PHONE_PLOT_BOX_PX - phoneLeft - phoneRight, true, true),
      tickCls: "first-figure-narrow",
      left: phoneLeft,
      right: phoneRight,
      height: height + categories.length * NAMES_ABOVE.rowPx,
      namesAbove: true,
      label: phoneLabel,
    },
  ];
  let drawnBars = 0;
  const layers = layouts.map((l) => {
    const plotH = l.height - MARGIN.top - MARGIN.bottom - X_AXIS;
    const v0 = l.ticks.values[0] ?? 0;
    const v1 = l.ticks.values[l.ticks.values.length - 1] ?? 1;
    const x = (v: number) => (v1 > v0 ? ((v - v0) / (v1 - v0)) * 100 : 0);
    const band = categories.length > 0 ? plotH / categories.length : plotH;
    const slots = f.series.length;
    const gap = NAMES_ABOVE.gapPx;
    // Beside their names: 10 % of the band free on each side. Named above: each bar 12 px,
    // the group centred in its band (a whole pixel from the band's top, as the library places it).
    const group = namedBarGroupPx(slots);
    const barH = l.namesAbove ? NAMES_ABOVE.barPx : Math.max(1, (band * 0.8 - gap * (slots - 1)) / slots);
    const groupTop = l.namesAbove ? Math.trunc((band - group) / 2) : band * 0.1;
    const out: string[] = [`<g class="${l.cls}">`];
    // The value axis's grid, ticks and labels.
    out.push(`<g class="${l.tickCls}">`);
    l.ticks.values.forEach((v, i) => {
      const p = `${num(x(v))}%`;
      const anchor = i === 0 ? "start" : i === l.ticks.values.length - 1 ? "end" : "middle";
      out.push(`<line x1="${p}" x2="${p}" y1="0" y2="${num(plotH)}" stroke="var(--grid)"/>`);
      out.push(`<line x1="${p}" x2="${p}" y1="${num(plotH)}" y2="${num(plotH + 6)}" stroke="var(--muted)"/>`);
      out.push(
        `<text x="${p}" y="${num(plotH + 8)}" dy="0.71em" text-anchor="${anchor}" ${TEXT}>${escapeHtml(l.ticks.text(v))}</text>`,
      );
    });
    out.push("</g>");
    const labels: string[] = [];
    let bars = 0;
    categories.forEach((_, i) => {
      const y0 = i * band + groupTop;
      f.series.forEach((s, k) => {
        const v = value(s, i);
        if (v === null) return;
        const y = y0 + k * (barH + gap);
        const colour = f.categoryColours?.[i] ?? s.colour;
        // A value above 0 is at least MIN_BAR_PX long, as the page draws it.
        out.push(
          `<rect x="0" y="${num(y)}" width="${num(x(v))}%"${v > 0 ? ` style="width:max(${num(x(v))}%, ${MIN_BAR_PX}px)"` : ""} height="${num(barH)}" fill="${tokenVar(colour)}" data-colour="${colour}"/>`,
        );
        bars++;
        // A bar of no length draws no text beside it (its note, "n/a (decode)", is after its name).
        if (v > 0)
          labels.push(
            `<text x="${num(x(v))}%" dx="${LABEL_GAP_PX}" y="${num(y + barH / 2)}" dy="0.355em" font-size="${LABEL_FONT_PX}" fill="var(--fg)" stroke="var(--card)" stroke-width="3" paint-order="stroke">${escapeHtml(l.label(v)).replace(/ /g, "&#160;")}</text>`,
          );
      });
    });
    drawnBars = bars;
    out.push(`<line x1="0" x2="0" y1="0" y2="${num(plotH)}" stroke="var(--muted)"/>`);
    out.push(`<line x1="0" x2="100%" y1="${num(plotH)}" y2="${num(plotH)}" stroke="var(--muted)"/>`);
    // The names: down the left, or above each row's bars from the plot's left edge.
    names.forEach((n, i) => {
      const centre = i * band + band / 2;
      const at = l.namesAbove
        ? `x="0" y="${num(centre - group / 2 - NAMES_ABOVE.liftPx)}" text-anchor="start"`
        : `x="-8" y="${num(centre)}" dy="0.355em" text-anchor="end"`;
      out.push(`<text ${at} ${TEXT}><title>${escapeHtml(full[i] ?? n)}</title>${escapeHtml(n)}</text>`);
    });
    for (const t of labels) out.push(t);
    const title = unit ? `${f.y.label} (${l.ticks.unit})` : f.y.label;
    out.push(
      `<text x="50%" y="${num(l.height - MARGIN.bottom - MARGIN.top - 4)}" text-anchor="middle" ${TEXT}>${escapeHtml(title)}</text>`,
    );
    out.push("</g>");
    return out.join("");
  });
  const [laptop, phone] = layouts;
  const vars = [
    `--bars-left:${laptop.left}px`,
    `--bars-right:${laptop.right}px`,
    `--bars-height:${laptop.height - MARGIN.top - MARGIN.bottom - X_AXIS}px`,
    `--bars-phone-left:${phone.left}px`,
    `--bars-phone-right:${phone.right}px`,
    `--bars-phone-height:${phone.height - MARGIN.top - MARGIN.bottom - X_AXIS}px`,
  ].join(";");
  return [
    `<svg data-first-figure="${f.exportName}" data-bars="${drawnBars}" role="img" aria-label="${escapeHtml(f.title)}" overflow="visible" class="first-figure-bars"`,
    ` style="position:absolute;top:${MARGIN.top}px;overflow:visible;${vars}">`,
    ...layers,
    "</svg>",
  ].join("");
}

/**
 * Stacked rows (`stacked` and `horizontal`: a statistic a row, the series stacked in their order,
 * Σ past the end), as the chart kit draws them (figure-props.ts stackedRowsProps, on a linear
 * axis): the statistics' names down the left, the value axis below with its title.
 */
function stackedRowsStillSvg(f: FigureDescription): string {
  const categories = f.categories ?? [];
  const unit = f.y.unit ?? "";
  const names = categories;
  const full = categories;
  const value = (s: FigureDescription["series"][number], i: number) =>
    s.points.find(([x]) => x === i)?.[1] ?? null;
  // Each stack's ends; its label past the longest.
  const totals = categories.map((_, i) => stackEnds(f.series.map((s) => value(s, i))).at(-1) ?? 0);
  // The totals are said together: one unit and one precision for all of them, as the page writes them.
  const alike = valueTextAlike(unit, totals);
  const labelText = (v: number) => `${f.stackTotal ?? ""} ${alike(v)}`.trim();
  const texts = f.stackTotal ? totals.map(labelText) : [];
  const hi = maxOf(totals, (v) => v);
  const height = barsStillHeight(f);
  const widest = maxOf(names, (n) => n.length);
  const axisW = stackNamesPx(widest);
  const left = MARGIN.left + axisW;
  const right = MARGIN.right + labelRoomPx(texts);
  const top = MARGIN.top;
  const plotH = height - top - MARGIN.bottom - X_AXIS;
  const wide = fittedValueTicks(f, hi, undefined, WIDE_PLOT_PX, false);
  const v0 = wide.values[0] ?? 0;
  const v1 = wide.values[wide.values.length - 1] ?? 1;
  // The phone's ticks inside the same scale, fewer and without the unit.
  const narrow = fittedValueTicks(
    { ...f, y: { ...f.y, domain: [v0, v1] } },
    hi,
    4,
    NARROW_BARS_PLOT_PX,
    true,
  );
  const x = (v: number) => (v1 > v0 ? ((v - v0) / (v1 - v0)) * 100 : 0);
  const band = categories.length > 0 ? plotH / categories.length : plotH;
  const barH = Math.max(1, band * 0.8);
  // A stack's bands, drawn once for each plot width (the wide one and a phone's).
  const stackMarks: Record<(typeof STACK_PLOT_PX)[number][0], string[]> = {
    "first-figure-wide": [],
    "first-figure-narrow": [],
  };
  const labels: string[] = [];
  const label = (atPct: number, y: number, text: string) =>
    labels.push(
      `<text x="${num(atPct)}%" dx="${LABEL_GAP_PX}" y="${num(y)}" dy="0.355em" font-size="${LABEL_FONT_PX}" fill="var(--fg)" stroke="var(--card)" stroke-width="3" paint-order="stroke">${escapeHtml(text).replace(/ /g, "&#160;")}</text>`,
    );
  categories.forEach((_, i) => {
    const y0 = i * band + band * 0.1;
    {
      // Each band at least MIN_BAR_PX long, taken from the stack's longest bands, so the stack
      // ends at its total (stackBandsPx), as the page draws it. The plot's width is not known
      // here: each band is its share of the axis plus the px the rule moves it by on a plot of
      // the wide or the phone's width, each set shown at its width (app/globals.css).
      const values = f.series.map((s) => value(s, i));
      for (const [set, plotPx] of STACK_PLOT_PX) {
        const ppu = v1 > v0 ? plotPx / (v1 - v0) : 0;
        const drawn = stackBandsPx(values, ppu);
        let at = 0;
        let shift = 0;
        const rects: string[] = [];
        f.series.forEach((s, k) => {
          const v = values[k];
          if (v === null || v <= 0) return;
          const moved = drawn[k] - v * ppu;
          rects.push(
            `<rect style="x:calc(${num(x(at))}% + ${num(shift)}px);width:calc(${num(Math.max(x(at + v) - x(at), 0))}% + ${num(moved)}px)" y="${num(y0)}" height="${num(barH)}" fill="${tokenVar(s.colour)}"/>`,
          );
          at += v;
          shift += moved;
        });
        for (const r of rects) stackMarks[set].push(r);
      }
      if (f.stackTotal) label(x(totals[i]), y0 + barH / 2, labelText(totals[i]));
    }
  });
  const ticks = (t: Ticks, cls: string) => {
    const at = x;
    const out: string[] = [`<g class="${cls}">`];
    t.values.forEach((v, i) => {
      const p = `${num(at(v))}%`;
      const anchor = i === 0 ? "start" : i === t.values.length - 1 ? "end" : "middle";
      out.push(`<line x1="${p}" x2="${p}" y1="0" y2="${plotH}" stroke="var(--grid)"/>`);
      out.push(`<line x1="${p}" x2="${p}" y1="${plotH}" y2="${plotH + 6}" stroke="var(--muted)"/>`);
      out.push(
        `<text x="${p}" y="${plotH + 8}" dy="0.71em" text-anchor="${anchor}" ${TEXT}>${escapeHtml(t.text(v))}</text>`,
      );
    });
    out.push("</g>");
    return out.join("");
  };
  const nameTexts = names.map(
    (n, i) =>
      `<text x="-8" y="${num(i * band + band / 2)}" dy="0.355em" text-anchor="end" ${TEXT}><title>${escapeHtml(full[i] ?? n)}</title>${escapeHtml(n)}</text>`,
  );
  const title = unit ? `${f.y.label} (${wide.unit})` : f.y.label;
  return [
    `<svg data-first-figure="${f.exportName}" data-bars="${stackMarks["first-figure-wide"].length}" role="img" aria-label="${escapeHtml(f.title)}" overflow="visible"`,
    ` style="position:absolute;left:${left}px;top:${top}px;width:calc(100% - ${left + right}px);height:${plotH}px;overflow:visible">`,
    ticks(wide, "first-figure-wide"),
    ticks(narrow, "first-figure-narrow"),
    ...Object.entries(stackMarks).map(([set, rects]) => `<g class="${set}">${rects.join("")}</g>`),
    `<line x1="0" x2="0" y1="0" y2="${plotH}" stroke="var(--muted)"/>`,
    `<line x1="0" x2="100%" y1="${plotH}" y2="${plotH}" stroke="var(--muted)"/>`,
    ...nameTexts,
    ...labels,
    `<text x="50%" y="${height - MARGIN.bottom - top - 4}" text-anchor="middle" ${TEXT}>${escapeHtml(title)}</text>`,
    "</svg>",
  ].join("");
}

/**
 * What the page's preview writes around a figure the server drew: its title and its box's height
 * (and on a phone, for bars named above their rows, `phoneHeight`).
 */
export type StillFrames = Record<string, { title: string; height: number; phoneHeight?: number }>;

/** A bars figure drawn, by its export name, with its frame; none when it has no bar to draw. */
function barsStill(
  f: FigureDescription,
  box: LaptopBox = "full",
): { figures: StillFigures; frames: StillFrames } {
  const drawn = f.series.some((s) => s.points.some(([, v]) => v !== null && v > 0));
  if (!drawn) return { figures: {}, frames: {} };
  return {
    figures: { [f.exportName]: barsStillSvg(f, box) },
    frames: {
      [f.exportName]: {
        title: f.title,
        height: barsStillHeight(f),
        // Named above their bars on a phone, each row a line taller (sideBarsStillSvg).
        ...(f.kind === "bars"
          ? { phoneHeight: barsStillHeight(f) + (f.categories?.length ?? 0) * NAMES_ABOVE.rowPx }
          : {}),
      },
    },
  };
}

/**
 * The Cache view's first figure drawn on the server: the GPU cache hit rate per endpoint
 * (components/run-views/cache-view.tsx), from the per-endpoint payload the prefetch put in
 * `queryClient`, as the same figure description. None without it or without a hit rate.
 */
export function cacheFirstFigures(queryClient: QueryClient, run: RunSummary) {
  const options = runChartQueryOptions(run.id, SM_CHARTS.endpoints, chartVersion(run));
  const payload = queryClient.getQueryData(options.queryKey);
  if (!payload) return { figures: {}, frames: {} };
  return barsStill(
    endpointHitRateFigure(payload.rows, endpointHitRateMissing(run.serverMetrics?.cache ?? null)),
  );
}

/**
 * The Breakdown view's first figure drawn on the server: the segments stacked at the statistic of
 * the URL (components/run-views/breakdown-view.tsx), on its linear axis (the log axis is left to
 * the page), from the prefetched segments payload.
 */
export function breakdownFirstFigures(
  queryClient: QueryClient,
  run: RunSummary,
  stat: Statistic,
  scope: SegmentScope,
  scale: ValueScale,
) {
  const options = runChartQueryOptions(run.id, TRTLLM_CHARTS.segments, chartVersion(run));
  const payload = queryClient.getQueryData(options.queryKey);
  if (!payload || scale !== "linear") return { figures: {}, frames: {} };
  return barsStill(segmentStatsFigure(payload, [stat], scope, scale));
}

/** The per-endpoint server-metrics payload the prefetch put in `queryClient`, if it did. */
function endpointRows(queryClient: QueryClient, run: RunSummary) {
  const options = runChartQueryOptions(run.id, SM_CHARTS.endpoints, chartVersion(run));
  return queryClient.getQueryData(options.queryKey)?.rows ?? null;
}

/**
 * The KV view's first figure drawn on the server: the KV capacity per endpoint
 * (components/run-views/kv-view.tsx), from the prefetched per-endpoint payload, as the same
 * figure description. None when no endpoint's capacity is known: the view's first chart is then
 * the usage per endpoint, whose legend the chart library lays out, left to the page.
 */
export function kvFirstFigures(queryClient: QueryClient, run: RunSummary) {
  const rows = endpointRows(queryClient, run);
  if (!rows || !hasKvData(run) || !rows.some((r) => r.kvCapacityTokens !== null))
    return { figures: {}, frames: {} };
  return barsStill(endpointCapacityFigure(rows));
}

/**
 * The Offload view's first figures drawn on the server: the offload and onboard bandwidth per
 * endpoint (components/run-views/offload-view.tsx), each where the view draws it (a direction
 * some endpoint exported), from the prefetched per-endpoint payload. None for a run whose only
 * offload data is TensorRT-LLM's KV transfers (that figure reads its own payload).
 */
export function offloadFirstFigures(queryClient: QueryClient, run: RunSummary) {
  const rows = endpointRows(queryClient, run);
  const figures: StillFigures = {};
  const frames: StillFrames = {};
  if (!rows || !hasOffloadCounters(run)) return { figures, frames };
  for (const direction of ["gpuToCpu", "cpuToGpu"] as const) {
    if (!rows.some((r) => r[OFFLOAD_DIRECTIONS[direction]] !== null)) continue;
    // Side by side on a laptop, each half the view's width.
    const drawn = barsStill(endpointOffloadFigure(rows, direction), "half");
    Object.assign(figures, drawn.figures);
    Object.assign(frames, drawn.frames);
  }
  return { figures, frames };
}
