"use client";

import { useCallback, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from "react";
import {
  AreaChart,
  BarChart,
  CartesianGrid,
  Legend,
  LineChart,
  ResponsiveContainer,
  ScatterChart,
} from "recharts";
import { ActiveRow } from "./active-row";
import { fittedHorizontalAxis, positionExtent, readableAxis, tickText, valueExtent } from "./axis-ticks";
import { CanvasMarks, DENSE_MARKS, markCount } from "./canvas-marks";
import { PendingMark } from "./chart-pending";
import { ChartTable } from "./chart-table";
import { CHART_MARGIN, LEGEND_STYLE } from "./chart-theme";
import { definitionText, type FigureDefinition } from "./definitions";
import { useChartSource } from "./export-context";
import { horizontalTicks, useNarrow } from "./use-narrow";
import { NAMES_ABOVE, namedBarGroupPx } from "@/lib/metrics/bar-labels";
import { downloadCsv, exportFileName, type CsvRow } from "./export";
import { FigureExportButtons } from "./figure-export-buttons";
import { plotMarks } from "./plot-marks";
import {
  csvRow,
  legendText,
  NAMES_ABOVE_AXIS_PX,
  plottedRow,
  seriesMarks,
  tooltipOf,
  xAxis,
  yAxis,
} from "./plot-parts";
import type { AxisSpec, CsvColumns, Mark, SeriesConfig, TooltipSpec } from "./plot-types";

export type { AxisSpec, SeriesConfig, SeriesSpec, TooltipSpec } from "./plot-types";

export interface ChartContainerProps<R extends object = Record<string, unknown>> {
  title: string;
  /** One line under the title: what the chart shows and in which unit. */
  description?: ReactNode;
  /** Which window, requests and method the figure uses (definitions.ts), a line under the description. */
  definition?: FigureDefinition;
  /** Rows behind the chart, for the CSV export; omit (with `csv`) to hide the button. */
  csvRows?: () => CsvRow[];
  /** CSV columns of the plotted rows: header → field, or → value of a row. */
  csv?: CsvColumns<R>;
  /** File name stem for exports */
  exportName?: string;
  height?: number;
  /** Extra controls shown at the right of the title (statistic picker, sort, …). */
  actions?: ReactNode;
  /** Reference lines, patterns and other marks drawn over the series; a whole drawing when no `kind`. */
  children?: ReactNode;
  /** The plot: without it the children are drawn as they are (a hand-made SVG). */
  kind?: Mark;
  data?: readonly R[];
  series?: SeriesConfig<R>;
  x?: AxisSpec;
  y?: AxisSpec | AxisSpec[];
  /** Bars run sideways: categories on y, values on x. */
  horizontal?: boolean;
  tooltip?: TooltipSpec<R> | false;
  legend?: boolean;
  /** Room beyond the shared margin, for labels drawn past the bars. */
  marginRight?: number;
  /** Room beyond the shared margin above the plot, for the label rows of x marks (reference-marks.tsx). */
  marginTop?: number;
  barCategoryGap?: number;
  onRowClick?: (index: number) => void;
  /**
   * What is missing and how to get it (which file, which flag), said in place of the plot when it
   * has nothing to draw: a chart without data is never drawn as bare axes.
   */
  missing?: ReactNode;
  /**
   * The same figure drawn by the server as SVG markup (lib/runs/first-figures.ts), shown in the
   * plot's box from the page's first paint until the library has drawn the chart over it
   * (app/globals.css hides it then; it is dropped once the plot is measured).
   */
  still?: string;
}

/** The room a row gains on a phone for its category's name above its bar (`AxisSpec.namesAbove`). */
const NAME_ROW_PX = NAMES_ABOVE.rowPx;
/** A bar's thickness when its name is above it. */
const NAMED_BAR_PX = NAMES_ABOVE.barPx;

const CHARTS = { line: LineChart, area: AreaChart, bar: BarChart, scatter: ScatterChart } as const;

/**
 * The one frame every chart sits in: title, description, PNG and CSV export, and, given a kind and
 * a series config, the plot itself with the shared axes (titles with units), grid, tooltip, legend
 * and margin. A chart file is then a config plus the marks only it has.
 */
export function ChartContainer<R extends object = Record<string, unknown>>({
  title,
  description,
  definition,
  csvRows,
  csv,
  exportName,
  height = 300,
  actions,
  children,
  kind,
  data = [],
  series = {},
  x = {},
  y = {},
  horizontal,
  tooltip = {},
  legend,
  marginRight = 0,
  marginTop = 0,
  barCategoryGap,
  onRowClick,
  missing,
  still,
}: ChartContainerProps<R>) {
  const ref = useRef<HTMLDivElement>(null);
  const figureRef = useRef<HTMLElement>(null);
  const source = useChartSource();
  const narrow = useNarrow();
  const descriptionRef = useRef<HTMLParagraphElement>(null);
  const [asTable, setAsTable] = useState(false);
  // The plot's box, once laid out: how many x ticks fit in it.
  const [boxWidth, setBoxWidth] = useState<number | null>(null);
  const active = useRef<unknown>(undefined);
  const onActive = useCallback((row: unknown) => void (active.current = row), []);
  const tableRows =
    csvRows ??
    (csv
      ? () => data.map((r) => csvRow(r, csv))
      : kind
        ? () => data.map((r) => plottedRow(r, x, series))
        : undefined);
  const stem = exportName ?? title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const yAxes = Array.isArray(y) ? y : [y];
  const visible = Object.values(series).filter((s) => !s.hidden);
  // The figure names every series when there is more than one, even where the page's legend is
  // off for room (the per-request breakdown): a stacked bar's colours mean nothing without it.
  // A row of marks (a strokeless line) is a dot there, as on the page.
  const exportLegend = (legend || visible.length > 1 ? visible : [])
    .filter((s) => s.legend !== false)
    .map((s) => ({
      label: s.label,
      color: s.color,
      ...((s.mark ?? kind) === "line" && s.noStroke ? { shape: "dot" as const } : {}),
    }));
  // Enter on a focused chart opens the row the arrow keys (or the pointer) put the tooltip on.
  const onKeyDown = onRowClick
    ? (e: KeyboardEvent<HTMLDivElement>) => {
        if (e.key !== "Enter" && e.key !== " ") return;
        const i = data.indexOf(active.current as R);
        if (i < 0) return;
        e.preventDefault();
        onRowClick(i);
      }
    : undefined;
  const marks = kind ? plotMarks(kind, data, series, horizontal ? x : yAxes[0]) : "some";
  if (marks !== "some")
    return (
      <figure
        ref={figureRef}
        className="rounded-lg border border-border bg-card p-4"
        data-chart={stem}
        data-chart-empty=""
      >
        <h3 className="text-sm font-semibold">{title}</h3>
        <PendingMark figure={figureRef} />
        <p className="mt-1 text-sm text-muted" data-testid="chart-missing">
          {marks === "zeros" ? "Every value is 0 in this run. " : "Nothing to draw for this run. "}
          {missing}
        </p>
      </figure>
    );
  // On a phone, sideways bars that ask for it are named above their bars, each row a name's line
  // taller, so the plot is not left a sliver beside the names' gutter.
  const namesAbove = !!horizontal && kind === "bar" && narrow && yAxes[0]?.namesAbove === true;
  const shownHeight = namesAbove ? height + data.length * NAME_ROW_PX : height;
  // The server renders the wide layout (it cannot know the screen): while its drawing stands in
  // for the chart, a phone's stylesheet gives the box the rows' names' height already
  // (app/globals.css), so the figure keeps its height when the chart is drawn there.
  const phoneHeight =
    still && !!horizontal && kind === "bar" && yAxes[0]?.namesAbove === true
      ? height + data.length * NAME_ROW_PX
      : null;
  let plot = children;
  if (kind) {
    const Chart = CHARTS[kind];
    const value = horizontal ? x : yAxes[0];
    // Dense bars and points go on a canvas; their series stay registered, hidden, for the tooltip and axes.
    const dense = !horizontal && markCount(kind, data, series) >= DENSE_MARKS;
    // Round ticks on every number axis; the tooltip keeps the axes as given (its values are exact).
    const numericX = horizontal || kind === "scatter" || !!x.numeric;
    // On a phone, two value axes (left and right) write numbers alone on their ticks, each unit
    // once in its axis's title: with the unit on every tick the two left the plot 160 px of 326.
    // A phone's single-axis chart writes its ticks without the unit too ("0 / 500 / 1,000" under
    // "TTFT (ms)"): "0 ms / 500 ms / 1,000 ms" had no room across its 300 px plot.
    const bare = narrow && yAxes.filter((a) => !a.hide).length > 1 ? true : narrow ? "unit" : false;
    const bareX = narrow ? "unit" : false;
    const yShown = horizontal
      ? yAxes.map((a, i) => (i === 0 && namesAbove ? { ...a, width: NAMES_ABOVE_AXIS_PX } : a))
      : yAxes.map((a) =>
          readableAxis(
            a,
            valueExtent(data, series, a.id, kind === "scatter" ? a.key : undefined),
            "value",
            undefined,
            bare,
          ),
        );
    // Across a phone the x axis gets fewer round ticks; and as many as fit the plot's width are
    // all drawn, so the library drops none of them (a dropped tick leaves uneven labels).
    const xTarget = horizontalTicks(narrow);
    const plotWidth =
      boxWidth === null
        ? null
        : boxWidth -
          CHART_MARGIN.left -
          CHART_MARGIN.right -
          marginRight -
          yAxesRoom(yShown, data, !!horizontal, boxWidth);
    // A stack's short bands take their minimum length from its longest ones (plot-parts.tsx
    // stackBandShape): the scale ends on the first round tick at or past the longest stack's
    // total, never further for them.
    const xShown = !numericX
      ? x
      : horizontal
        ? fittedHorizontalAxis(x, valueExtent(data, series, undefined), "value", xTarget, plotWidth, bareX)
        : fittedHorizontalAxis(x, positionExtent(data, series, x.key), "position", xTarget, plotWidth, bareX);
    plot = (
      <ResponsiveContainer width="100%" height="100%" onResize={(w) => setBoxWidth(w)}>
        <Chart
          data={kind === "scatter" ? undefined : (data as unknown as object[])}
          layout={horizontal ? "vertical" : undefined}
          margin={{
            ...CHART_MARGIN,
            top: CHART_MARGIN.top + marginTop,
            right: CHART_MARGIN.right + marginRight,
          }}
          barCategoryGap={barCategoryGap}
          barSize={namesAbove ? NAMED_BAR_PX : undefined}
          // The name as aria-label, not an SVG <title>: a <title> repeats the heading's text.
          role={onRowClick ? "application" : "img"}
          aria-label={onRowClick ? `${title}: arrow keys move between bars, Enter opens one` : title}
          onClick={
            onRowClick
              ? (state: { activeTooltipIndex?: unknown }) => {
                  const i = Number(state?.activeTooltipIndex);
                  if (Number.isInteger(i) && i >= 0 && i < data.length) onRowClick(i);
                }
              : undefined
          }
        >
          <CartesianGrid
            stroke="var(--grid)"
            vertical={kind === "bar" && !horizontal ? false : undefined}
            horizontal={horizontal ? false : undefined}
          />
          {xAxis(xShown, numericX, !!horizontal, dense)}
          {yShown.map((a, i) =>
            yAxis(
              a,
              !horizontal,
              dense,
              i === 0 && namesAbove
                ? {
                    left: CHART_MARGIN.left + NAMES_ABOVE_AXIS_PX,
                    lift: barGroupPx(series) / 2 + NAMES_ABOVE.liftPx,
                  }
                : undefined,
            ),
          )}
          {tooltip ? tooltipOf(tooltip, series, value, horizontal ? undefined : x, dense) : null}
          {(legend ?? visible.length > 1) ? (
            <Legend wrapperStyle={LEGEND_STYLE} itemSorter={null} formatter={legendText} />
          ) : null}
          {seriesMarks(kind, series, data, onRowClick !== undefined, dense, !!horizontal)}
          {dense && (kind === "bar" || kind === "scatter") ? (
            <CanvasMarks
              kind={kind}
              rows={data}
              series={series as SeriesConfig<never>}
              x={x}
              y={yAxes[0]}
              gap={barCategoryGap}
              label={title}
            />
          ) : null}
          {onRowClick ? <ActiveRow onChange={onActive} /> : null}
          {children}
        </Chart>
      </ResponsiveContainer>
    );
  }
  return (
    <figure ref={figureRef} className="rounded-lg border border-border bg-card p-4" data-chart={stem}>
      <figcaption className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="text-sm font-semibold">{title}</h3>
          <PendingMark figure={figureRef} />
          {description ? (
            <p ref={descriptionRef} className="text-xs text-muted">
              {description}
            </p>
          ) : null}
          {definition ? (
            <p className="text-xs text-muted" data-testid="chart-definition">
              {definitionText(definition)}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {actions}
          {tableRows ? (
            <button
              type="button"
              className="btn-ghost"
              aria-pressed={asTable}
              onClick={() => setAsTable((t) => !t)}
            >
              {asTable ? "View as chart" : "View as table"}
            </button>
          ) : null}
          <FigureExportButtons
            title={title}
            plot={ref}
            description={descriptionRef}
            legend={exportLegend}
            stem={stem}
          />
          {tableRows ? (
            <button
              type="button"
              className="btn-ghost"
              onClick={() => downloadCsv(tableRows(), exportFileName(source?.filePrefix, stem, "csv"))}
            >
              CSV
            </button>
          ) : null}
        </div>
      </figcaption>
      {asTable && tableRows ? (
        <ChartTable rows={tableRows()} caption={title} />
      ) : (
        <div
          ref={ref}
          style={
            phoneHeight === null
              ? { height: shownHeight }
              : ({ height: shownHeight, "--phone-height": `${phoneHeight}px` } as CSSProperties)
          }
          className={phoneHeight === null ? "relative w-full" : "relative w-full phone-height"}
          data-plot=""
          onKeyDown={onKeyDown}
        >
          {still && kind && boxWidth === null ? (
            <div className="first-figure" dangerouslySetInnerHTML={{ __html: still }} />
          ) : null}
          {plot}
        </div>
      )}
    </figure>
  );
}

/** How thick a category's bars are side by side when each is NAMED_BAR_PX: a stack is one bar. */
function barGroupPx<R extends object>(series: SeriesConfig<R>): number {
  const stacks = new Set<string>();
  let single = 0;
  for (const s of Object.values(series)) {
    if (s.stack !== undefined) stacks.add(s.stack);
    else if (!s.hidden) single++;
  }
  // The library keeps 4 px between a category's bars.
  return namedBarGroupPx(stacks.size + single);
}

/**
 * About how much width the y axes take from the plot (their ticks and titles; a category axis its
 * longest name, up to 45% of the chart), erring wide: a plot thought narrower gets fewer x ticks,
 * never overprinted ones.
 */
function yAxesRoom<R extends object>(
  axes: readonly AxisSpec[],
  data: readonly R[],
  categories: boolean,
  boxWidth: number,
): number {
  const CHAR_PX = 7;
  let room = 0;
  for (const a of axes) {
    if (a.hide) continue;
    if (typeof a.width === "number") {
      room += a.width;
      continue;
    }
    const title = a.title ? 24 : 0;
    if (categories) {
      const longest = Math.max(
        0,
        ...data.map((r) => String((r as Record<string, unknown>)[a.key ?? ""] ?? "").length),
      );
      room += Math.min(longest * CHAR_PX + 12, 0.45 * boxWidth) + title;
    } else {
      const ticks = a.ticks ?? [];
      const widest = Math.max(4, ...ticks.map((v) => tickText(a, v).length));
      room += widest * CHAR_PX + 12 + title;
    }
  }
  return room;
}
