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
 * percentile marks and colours, which are the theme's CSS variables so it reads in light and dark.
 * The server does not know the plot's width: the plot is placed by CSS (its left and right
 * margins in px) and every x position is a percentage of it; the marks are drawn in a box
 * stretched to the plot with strokes that do not scale. The x ticks come in two sets, for a wide
 * plot and a phone's (app/globals.css shows one), as the kit fits fewer ticks across a phone.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions } from "@/lib/api/query-options";
import type { RunSummary } from "@/lib/api/schemas";
import { ticksCovering, ticksWithin } from "@/lib/metrics/nice-scale";
import { escapeHtml } from "./report/escape-html";

/** Server-drawn figures by `<exportName>/<metric>` (components/run/still-figures.tsx reads them). */
export type StillFigures = Record<string, string>;

/** The chart kit's box: ChartContainer's default height and the shared margin (chart-theme.ts). */
const HEIGHT = 300;
const MARGIN = { top: 16, right: 16, bottom: 4, left: 4 } as const;
/** An x axis with a title is 40 px high (plot-parts.tsx). */
const X_AXIS = 40;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom - X_AXIS;
/** About how wide a character of the 11 px axis font is, as axis-ticks.ts reckons. */
const CHAR_PX = 7;
const TICK_GAP_PX = 12;
/** Plot widths the x ticks are fitted to: a half-width chart on a laptop, and a phone's. */
const WIDE_PLOT_PX = 440;
const NARROW_PLOT_PX = 250;
/** The percentile marks of reference-marks.tsx, one label row each. */
const PERCENTILES = [
  { key: "p50", color: "var(--chart-5)" },
  { key: "p75", color: "var(--chart-6)" },
  { key: "p90", color: "var(--chart-3)" },
  { key: "p99", color: "var(--chart-7)" },
] as const;

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
    if (f.verticalGrid) out.push(`<line x1="${at}" x2="${at}" y1="0" y2="${PLOT_H}" stroke="var(--grid)"/>`);
    out.push(`<line x1="${at}" x2="${at}" y1="${PLOT_H}" y2="${PLOT_H + 6}" stroke="var(--muted)"/>`);
    out.push(
      `<text x="${at}" y="${PLOT_H + 8}" dy="0.71em" text-anchor="${anchor}" ${TEXT}>${escapeHtml(t.text(v))}</text>`,
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
 * drawn over it with the axes outside (overflow visible). `marks` are drawn in a 1000 × PLOT_H
 * box stretched to the plot.
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
    ` style="position:absolute;left:${left}px;top:${MARGIN.top}px;width:calc(100% - ${left + right}px);height:${PLOT_H}px;overflow:visible">`,
  ];
  // Horizontal grid at the y ticks, the y axis with its ticks and title.
  for (const v of f.yTicks.values)
    out.push(`<line x1="0" x2="100%" y1="${num(f.y(v))}" y2="${num(f.y(v))}" stroke="var(--grid)"/>`);
  out.push(xTickSet(f, f.xTicks.wide, "first-figure-wide"));
  out.push(xTickSet(f, f.xTicks.narrow, "first-figure-narrow"));
  out.push(
    `<svg width="100%" height="${PLOT_H}" viewBox="0 0 1000 ${PLOT_H}" preserveAspectRatio="none" overflow="visible">${marks}</svg>`,
  );
  out.push(`<line x1="0" x2="0" y1="0" y2="${PLOT_H}" stroke="var(--muted)"/>`);
  out.push(`<line x1="0" x2="100%" y1="${PLOT_H}" y2="${PLOT_H}" stroke="var(--muted)"/>`);
  for (const v of f.yTicks.values) {
    const y = num(f.y(v));
    out.push(`<line x1="-6" x2="0" y1="${y}" y2="${y}" stroke="var(--muted)"/>`);
    out.push(
      `<text x="-8" y="${y}" dy="0.355em" text-anchor="end" ${TEXT}>${escapeHtml(f.yTicks.text(v))}</text>`,
    );
  }
  out.push(
    `<text transform="translate(${MARGIN.left + 2 - left} ${PLOT_H / 2}) rotate(-90)" dy="0.71em" text-anchor="middle" ${TEXT}>${escapeHtml(f.yTitle)}</text>`,
  );
  out.push(
    `<text x="50%" y="${HEIGHT - MARGIN.bottom - MARGIN.top - 4}" text-anchor="middle" ${TEXT}>${escapeHtml(f.xTitle)}</text>`,
  );
  out.push(over);
  out.push("</svg>");
  return out.join("");
}

/** The p50–p99 marks: dashed lines, their names on one row each, away from the nearer edge. */
function percentileMarks(d: Distribution, x: (v: number) => number): string {
  const mid = (d.min + d.max) / 2;
  return PERCENTILES.map((m, row) => {
    const v = d[m.key];
    const at = `${num(x(v))}%`;
    const left = v > mid;
    return (
      `<line x1="${at}" x2="${at}" y1="0" y2="${PLOT_H}" stroke="${m.color}" stroke-dasharray="4 2"/>` +
      `<text x="${at}" dx="${left ? -4 : 4}" y="${11 + row * 14}" text-anchor="${left ? "end" : "start"}" font-size="11" fill="${m.color}" stroke="var(--card)" stroke-width="3" paint-order="stroke">${m.key}</text>`
    );
  }).join("");
}

/** The latency axis of a distribution (reference-marks.tsx latencyAxis): the span of its bins. */
function latencyFrame(d: Distribution, label: string) {
  const lo = Math.min(d.min, d.bins[0]?.start ?? d.min);
  const hi = Math.max(d.max, d.bins[d.bins.length - 1]?.end ?? d.max);
  const wide = fittedMsTicks(lo, hi, undefined, WIDE_PLOT_PX);
  const narrow = fittedMsTicks(lo, hi, 4, NARROW_PLOT_PX);
  const x = (v: number) => (hi > lo ? ((v - lo) / (hi - lo)) * 100 : 50);
  return { lo, hi, x, wide, narrow, xTitle: `${label} (${wide.unit})` };
}

/** Requests per bin, as the page draws the histogram (components/charts/chart-figure.tsx) (one bar per bin, a px apart). */
export function latencyHistogramSvg(d: Distribution, label: string): string {
  const { x, wide, narrow, xTitle } = latencyFrame(d, label);
  const maxCount = maxOf(d.bins, (b) => b.count);
  const values = ticksCovering(0, maxCount, 5, 1);
  const top = values[values.length - 1] || 1;
  const step = values.length > 1 ? values[1] - values[0] : 1;
  const y = (v: number) => PLOT_H - (v / top) * PLOT_H;
  const bars = d.bins
    .map((b) => {
      const x0 = x(b.start) * 10;
      const w = (x(b.end) - x(b.start)) * 10;
      return `<rect x="${num(x0)}" y="${num(y(b.count))}" width="${num(w)}" height="${num(PLOT_H - y(b.count))}" fill="var(--chart-1)" stroke="var(--card)" vector-effect="non-scaling-stroke"/>`;
    })
    .join("");
  return drawing(
    {
      x,
      y,
      xTicks: { wide, narrow },
      yTicks: { values, text: (v) => en(v, decimalsOf(step)) },
      xTitle,
      yTitle: "requests",
      verticalGrid: false,
    },
    "latency-histogram",
    `${label}: histogram`,
    bars,
    percentileMarks(d, x),
    { bars: d.bins.length },
  );
}

/** Percent of requests at or below each value, a step line as the page draws the CDF. */
export function latencyCdfSvg(d: Distribution, label: string): string {
  const { x, wide, narrow, xTitle } = latencyFrame(d, label);
  const values = ticksWithin(0, 100);
  const y = (v: number) => PLOT_H - (v / 100) * PLOT_H;
  const path = d.cdf
    .map((p, i) => {
      const px = num(x(p.value) * 10);
      const py = num(y(p.fraction * 100));
      return i === 0 ? `M${px} ${py}` : `H${px}V${py}`;
    })
    .join("");
  const line = `<path d="${path}" fill="none" stroke="var(--chart-2)" vector-effect="non-scaling-stroke"/>`;
  return drawing(
    {
      x,
      y,
      xTicks: { wide, narrow },
      yTicks: { values, text: (v) => `${en(v, decimalsOf(values[1] - values[0]))}%` },
      xTitle,
      yTitle: "requests at or below (%)",
      verticalGrid: true,
    },
    "latency-cdf",
    `${label}: CDF`,
    line,
    percentileMarks(d, x),
    { points: d.cdf.length },
  );
}

/**
 * The Latency view's first figures for `metric` (its histogram and CDF), drawn from the
 * distribution payload the prefetch put in `queryClient`; none when the prefetch found none (a
 * run without aiperf records, or one to recompute) or the metric has no distribution. `label` is
 * the metric's name as the view writes it (components/aiperf/latency-metric.ts).
 */
export function latencyFirstFigures(
  queryClient: QueryClient,
  run: RunSummary,
  metric: string,
  label: string,
): StillFigures {
  if (run.requests?.source !== "aiperf") return {};
  const options = runChartQueryOptions(run.id, AIPERF_CHARTS.distribution, chartVersion(run));
  const payload = queryClient.getQueryData(options.queryKey);
  const d = payload?.metrics[metric];
  if (!d || d.bins.length === 0 || d.cdf.length === 0) return {};
  return {
    [`latency-histogram/${metric}`]: latencyHistogramSvg(d, label),
    [`latency-cdf/${metric}`]: latencyCdfSvg(d, label),
  };
}
