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
 * plot and a phone's (app/globals.css shows one), as the kit fits fewer ticks across a phone.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { tokenVar, type FigureDescription } from "@/lib/api/figure";
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
import { unitText } from "@/lib/metrics/bar-labels";
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
function fittedMsTicks(lo: number, hi: number, target: number | undefined, plotWidth: number) {
  const first = msTicks(lo, hi, target);
  for (let n = target ?? 6; n >= 1; n--) {
    const t = n === (target ?? 6) ? first : msTicks(lo, hi, n);
    if (t.values.length < 2) return t;
    const spacing = hi > lo ? (plotWidth * (t.values[1] - t.values[0])) / (hi - lo) : plotWidth;
    const widest = maxOf(t.values, (v) => t.text(v).length) * CHAR_PX;
    if (spacing >= widest + TICK_GAP_PX) return t;
  }
  return first;
}

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
  for (const v of f.yTicks.values) {
    const y = num(f.y(v));
    out.push(`<line x1="-6" x2="0" y1="${y}" y2="${y}" stroke="var(--muted)"/>`);
    out.push(
      `<text x="-8" y="${y}" dy="0.355em" text-anchor="end" ${TEXT}>${escapeHtml(f.yTicks.text(v))}</text>`,
    );
  }
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
  const narrow = fittedMsTicks(lo, hi, 4, NARROW_PLOT_PX);
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
