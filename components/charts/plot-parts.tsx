"use client";

import {
  Area,
  Bar,
  Cell,
  ErrorBar,
  LabelList,
  Line,
  Rectangle,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
  useXAxisScale,
  useYAxisScale,
} from "recharts";
import { AXIS_STYLE, LABEL_HALO, TOOLTIP_ITEM_STYLE, TOOLTIP_STYLE } from "./chart-theme";
import { LABEL_FONT_PX, LABEL_GAP_PX, minBarPx, NAMES_ABOVE, stackBandsPx } from "@/lib/metrics/bar-labels";
import type { CsvRow } from "./export";
import type { ReactElement } from "react";
import type { LabelPlacer } from "@/lib/metrics/label-placement";
import type { AxisSpec, CsvColumns, Mark, SeriesConfig, SeriesSpec, TooltipSpec } from "./plot-types";

// The pieces the chart container assembles: axes with titles, one mark per series, the tooltip.

const axisTitle = (a: AxisSpec) => (a.title ? (a.unit ? `${a.title} (${a.unit})` : a.title) : undefined);

// `includeHidden`: the series are registered hidden (drawn on a canvas) but still set the domain.
export function xAxis(a: AxisSpec, number: boolean, bars: boolean, includeHidden = false) {
  const title = axisTitle(a);
  return (
    <XAxis
      key="x"
      dataKey={a.key}
      type={number ? "number" : "category"}
      name={a.name}
      domain={a.domain ?? (number && !bars ? ["dataMin", "dataMax"] : undefined)}
      ticks={a.ticks}
      scale={a.log ? "log" : undefined}
      allowDataOverflow={a.log ? true : undefined}
      tickFormatter={a.format}
      unit={a.tickUnit}
      tick={a.noTicks ? false : number ? edgeTick(a) : undefined}
      // The library thins ticks as if each were centred; an end tick drawn to one side of its
      // position needs about half a label more room from its neighbour.
      minTickGap={number ? 32 : undefined}
      allowDecimals={a.integers ? false : undefined}
      allowDuplicatedCategory={a.overlaid ? false : undefined}
      // Both ends kept: the default drops the first tick when its centred box would pass the left
      // edge, but an end tick is drawn inward (edgeTick), so it fits.
      interval={a.everyTick ? 0 : number ? "preserveStartEnd" : undefined}
      hide={a.hide}
      includeHidden={includeHidden || undefined}
      height={title ? 40 : 24}
      label={
        title ? { value: title, position: "insideBottom", fill: "var(--muted)", fontSize: 11 } : undefined
      }
      {...AXIS_STYLE}
    />
  );
}

/** The width a category axis keeps when it names its rows above their bars (`namesAbove`). */
export const NAMES_ABOVE_AXIS_PX = NAMES_ABOVE.axisPx;

/**
 * `above`: the categories are named above their bars, from the plot's left edge (`left`, px from
 * the chart's), each `lift` px above its row's centre (half the bars' thickness, and a gap).
 */
export function yAxis(
  a: AxisSpec,
  number: boolean,
  includeHidden = false,
  above?: { left: number; lift: number },
) {
  const title = axisTitle(a);
  return (
    <YAxis
      key={a.id ?? "y"}
      yAxisId={a.id ?? 0}
      dataKey={a.key}
      type={number ? "number" : "category"}
      name={a.name}
      orientation={a.right ? "right" : "left"}
      domain={a.domain ?? (a.ticks ? [0, a.ticks[a.ticks.length - 1]] : undefined)}
      ticks={a.ticks}
      scale={a.log ? "log" : undefined}
      allowDataOverflow={a.log ? true : undefined}
      tickFormatter={a.format}
      unit={a.tickUnit}
      allowDecimals={a.integers ? false : undefined}
      // A category axis down the side that names every row (its rows a label's line apart).
      interval={a.everyTick || above ? 0 : undefined}
      hide={a.hide}
      includeHidden={includeHidden || undefined}
      width={above ? NAMES_ABOVE_AXIS_PX : (a.width ?? "auto")}
      label={
        title
          ? {
              value: title,
              angle: a.right ? 90 : -90,
              position: a.right ? "insideRight" : "insideLeft",
              style: { textAnchor: "middle" },
              fill: "var(--muted)",
              fontSize: 11,
            }
          : undefined
      }
      {...AXIS_STYLE}
      fontSize={a.small ? 10 : AXIS_STYLE.fontSize}
      tick={
        above
          ? nameAboveTick(a.fullName ?? ((l) => l), above.left, above.lift)
          : a.fullName
            ? categoryTick(a.fullName, a.small ? 10 : AXIS_STYLE.fontSize)
            : undefined
      }
    />
  );
}

type EdgeTickProps = TickProps & { index?: number; visibleTicksCount?: number };

/**
 * A value tick that keeps inside the plot at its ends: the first starts at its position and the
 * last ends at it. Centred, the first printed under the y axis's lowest tick and the last ran
 * past the drawing's right edge.
 */
function edgeTick(a: AxisSpec) {
  // As the library writes a tick: the formatted value, then the tick unit.
  const text = (v: unknown) =>
    `${typeof v === "number" && a.format ? a.format(v) : String(v)}${a.tickUnit ?? ""}`;
  function EdgeTick({ x = 0, y = 0, payload, index = 0, visibleTicksCount = 0 }: EdgeTickProps) {
    // A lone tick (a phone's axis with room for one) is the axis's end, drawn inwards.
    const lone = visibleTicksCount === 1 && payload?.value !== (Array.isArray(a.domain) ? a.domain[0] : 0);
    const anchor = lone ? "end" : index === 0 ? "start" : index === visibleTicksCount - 1 ? "end" : "middle";
    return (
      <text
        x={x}
        y={y}
        dy="0.71em"
        textAnchor={anchor}
        fontSize={AXIS_STYLE.fontSize}
        fill="var(--muted)"
        className="recharts-cartesian-axis-tick-value"
      >
        {text(payload?.value)}
      </text>
    );
  }
  return EdgeTick;
}

type TickProps = {
  x?: number | string;
  y?: number | string;
  textAnchor?: string;
  payload?: { value?: unknown };
};

/** A category tick on one line, with the full name as its hover title. */
function categoryTick(fullName: (label: string) => string, fontSize: number) {
  function CategoryTick({ x = 0, y = 0, textAnchor = "end", payload }: TickProps) {
    const label = String(payload?.value ?? "");
    // The title on a group, so the tick's text is the label alone.
    return (
      <g>
        <title>{fullName(label)}</title>
        <text
          x={x}
          y={y}
          dy={4}
          textAnchor={textAnchor as "start" | "middle" | "end"}
          fontSize={fontSize}
          fill="var(--muted)"
          className="recharts-cartesian-axis-tick-value"
        >
          {label}
        </text>
      </g>
    );
  }
  return CategoryTick;
}

/**
 * A category named above its bar: from the plot's left edge (`left`), its baseline `lift` px above
 * the row's centre, on one line, the full name as its hover title.
 */
function nameAboveTick(fullName: (label: string) => string, left: number, lift: number) {
  function NameAboveTick({ y = 0, payload }: TickProps) {
    const label = String(payload?.value ?? "");
    return (
      <g>
        <title>{fullName(label)}</title>
        <text
          x={left}
          y={Number(y) - lift}
          textAnchor="start"
          fontSize={AXIS_STYLE.fontSize}
          fill="var(--muted)"
          className="recharts-cartesian-axis-tick-value"
          data-name-above=""
        >
          {label}
        </text>
      </g>
    );
  }
  return NameAboveTick;
}

const formatTickValue = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** A scatter point drawn as nothing: the series is only its connecting line. */
const NO_DOT = () => <g />;

export function seriesMarks<R extends object>(
  kind: Mark,
  series: SeriesConfig<R>,
  rows: readonly R[],
  clickable: boolean,
  /** Registered for the tooltip and axes but not drawn (a canvas draws them). */
  hide = false,
  /** Bars run sideways: a value label goes to the right of its bar, else above it. */
  horizontal = false,
) {
  return Object.entries(series).map(([key, s]) => {
    const common = {
      key,
      dataKey: s.dataKey ?? key,
      name: s.label,
      isAnimationActive: false,
      ...(hide ? { hide: true } : {}),
      ...(s.axis ? { yAxisId: s.axis } : {}),
      ...(s.hidden ? { legendType: "none" as const, tooltipType: "none" as const } : {}),
      ...(s.legend === false ? { legendType: "none" as const } : {}),
    };
    const curve = s.step ? ("stepAfter" as const) : ("linear" as const);
    switch (s.mark ?? kind) {
      case "line":
        return (
          <Line
            {...common}
            data={s.data as object[] | undefined}
            type={curve}
            // A strokeless line is a row of marks (runs judged regressed): filled dots only. Its
            // stroke keeps the colour at width 0, since the legend's dot takes the stroke's colour.
            stroke={s.color}
            {...(s.noStroke ? { strokeWidth: 0 } : {})}
            dot={s.noStroke ? { r: 5, fill: s.color, stroke: s.color } : (s.dots ?? false)}
            {...(s.noStroke && !s.hidden && s.legend !== false ? { legendType: "circle" as const } : {})}
            {...(s.dashed ? { strokeDasharray: "6 4", legendType: "plainline" as const } : {})}
            connectNulls={s.connectNulls}
          />
        );
      case "area":
        return (
          <Area
            {...common}
            type={curve}
            stackId={s.stack}
            stroke={s.noStroke ? "none" : s.color}
            fill={s.color}
            fillOpacity={s.fillOpacity}
          />
        );
      case "scatter":
        return (
          <Scatter
            {...common}
            data={(s.data ?? rows) as object[]}
            fill={s.color}
            shape={s.line ? NO_DOT : (s.symbol ?? "circle")}
            line={s.line ? { stroke: s.color, strokeWidth: 2 } : undefined}
            legendType={s.hidden ? "none" : s.line ? "line" : undefined}
          >
            {(["x", "y"] as const).map((d) =>
              s.errorBars?.[d] ? (
                <ErrorBar
                  key={d}
                  dataKey={s.errorBars[d]}
                  direction={d}
                  width={6}
                  stroke={s.color}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                />
              ) : null,
            )}
            {s.labels && s.labelPlacer ? (
              <LabelList dataKey={s.labels} content={placedLabel(s.labelPlacer, key, s.labelMarkers)} />
            ) : s.labels ? (
              <LabelList
                dataKey={s.labels}
                position="top"
                offset={8}
                fontSize={11}
                fill="var(--fg)"
                {...LABEL_HALO}
                // One line per label: recharts wraps a label at its spaces into the width of the
                // mark, which put "c4 ×3" on two lines across the point's own bars.
                formatter={(v: unknown) =>
                  typeof v === "string" ? v.replace(/ /g, "\u00a0") : typeof v === "number" ? v : ""
                }
              />
            ) : null}
          </Scatter>
        );
      case "bar": {
        const labelKey = s.valueLabels === true ? (s.dataKey ?? key) : s.valueLabels || undefined;
        return (
          <Bar
            {...common}
            // A stack's end is a bar of no length after the stack's last band, drawn as nothing
            // (a shape of its own, so the library keeps it and its label): its label is the total.
            {...(s.stackEnd ? { dataKey: () => 0, shape: NO_BAR, minPointSize: 0 } : {})}
            stackId={s.stack}
            fill={s.color}
            cursor={clickable ? "pointer" : undefined}
            // A value above 0 is a visible bar however small beside the others, its label the
            // exact value (lib/metrics/bar-labels.ts). Read from the row, not from what the
            // library passes (a stack's running total): an empty slot of a stack stays empty.
            // A stack's band gets its minimum from the stack's longest bands (stackBandsPx), so
            // the stack ends at its total; the library's minimum would push the bands after it on.
            {...(!s.stackEnd && s.minLength && s.stack !== undefined
              ? { shape: stackBandShape(stackKeys(series, s.stack), s.dataKey ?? key, horizontal) }
              : !s.stackEnd && (s.valueLabels || s.minLength)
                ? {
                    minPointSize: (_v: number | null | undefined, i: number) =>
                      minBarPx((rows[i] as Record<string, unknown> | undefined)?.[s.dataKey ?? key]),
                  }
                : {})}
          >
            {s.cell ? rows.map((r, i) => <Cell key={i} {...s.cell!(r)} />) : null}
            {labelKey ? (
              <LabelList
                dataKey={labelKey}
                // Past the bar's end, never on it: sideways to its right, else above it.
                position={horizontal ? "right" : "top"}
                offset={LABEL_GAP_PX}
                fontSize={LABEL_FONT_PX}
                fill="var(--fg)"
                className="chart-value-label"
                {...LABEL_HALO}
                // One line per label: the library wraps a label at its spaces into its bar's
                // width, which put a stack's "Σ 991.5 ms" on two lines past its end.
                formatter={(v: unknown) =>
                  (typeof v === "number"
                    ? s.format
                      ? s.format(v)
                      : formatTickValue(v)
                    : typeof v === "string"
                      ? v
                      : ""
                  ).replace(/ /g, "\u00a0")
                }
              />
            ) : null}
            {s.labels ? (
              <LabelList dataKey={s.labels} position="right" fontSize={11} fill="var(--fg)" {...LABEL_HALO} />
            ) : null}
          </Bar>
        );
      }
    }
  });
}

const placedLabels = new WeakMap<
  LabelPlacer,
  Map<string, (props: PlacedLabelProps) => ReactElement | string>
>();

interface PlacedLabelProps {
  /** The point's symbol box (a scatter point's label is never polar) */
  viewBox?: unknown;
  value?: unknown;
  index?: number;
}

/**
 * A scatter series' label drawn where `placer` puts it (over no other label and no marker of the
 * chart, `markers` in data units), one line, haloed in the card colour as the other labels are; a
 * label set away from its point is joined to it by a line, and one with no free place is left
 * out (the point's tooltip names it). One component per placer and series, so the library keeps
 * the labels mounted across renders.
 */
function placedLabel(
  placer: LabelPlacer,
  series: string,
  markers?: ReadonlyArray<{ x: number; y: number; radiusPx?: number }>,
) {
  let bySeries = placedLabels.get(placer);
  if (!bySeries) placedLabels.set(placer, (bySeries = new Map()));
  const known = bySeries.get(series);
  if (known) return known;
  const Label = ({ viewBox: box0, value, index }: PlacedLabelProps): ReactElement | string => {
    const xScale = useXAxisScale();
    const yScale = useYAxisScale();
    if (markers && xScale && yScale)
      placer.markers(
        markers.flatMap((m): Array<[number, number, number] | [number, number]> => {
          const mx = xScale(m.x);
          const my = yScale(m.y);
          if (mx === undefined || my === undefined) return [];
          return m.radiusPx === undefined ? [[mx, my]] : [[mx, my, m.radiusPx]];
        }),
      );
    const viewBox = box0 as { x?: number; y?: number; width?: number; height?: number } | undefined;
    const text = typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
    if (!text || !viewBox || viewBox.x === undefined || viewBox.y === undefined) return "";
    const px = viewBox.x + (viewBox.width ?? 0) / 2;
    const py = viewBox.y + (viewBox.height ?? 0) / 2;
    const box = placer.place(`${series}:${index ?? 0}`, px, py, text);
    if (!box) return "";
    const label = (
      <text
        x={box.x + box.w / 2}
        y={box.y + box.h / 2}
        textAnchor="middle"
        dominantBaseline="central"
        fontSize={LABEL_FONT_PX_SCATTER}
        fill="var(--fg)"
        {...LABEL_HALO}
        className="recharts-text recharts-label"
      >
        {text.replace(/ /g, "\u00a0")}
      </text>
    );
    return box.leader ? (
      <g className="placed-label">
        <line x1={px} y1={py} x2={box.leader.x} y2={box.leader.y} stroke="var(--muted)" strokeWidth={1} />
        {label}
      </g>
    ) : (
      label
    );
  };
  bySeries.set(series, Label);
  return Label;
}

/** The font of a scatter point's label, px. */
const LABEL_FONT_PX_SCATTER = 11;

/** A stack's end marker draws no mark. */
const NO_BAR = () => <g />;

/** The data keys of stack `stack`'s bands, in the order the library stacks them (its end left out). */
function stackKeys<R>(series: SeriesConfig<R>, stack: string): string[] {
  return Object.entries(series).flatMap(([k, s]) =>
    s.stack === stack && !s.stackEnd ? [s.dataKey ?? k] : [],
  );
}

type BandProps = {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  /** The band's [start, end] on the value axis (a running total of the stack). */
  value?: unknown;
  /** Where the value axis's 0 is, in px. */
  stackedBarStart?: number;
  payload?: Record<string, unknown>;
};

/**
 * A band of a stack (`keys`, its bands' data keys in order) drawn as `stackBandsPx` lays the
 * row's stack out: at least MIN_BAR_PX long, the stack ending where its total is on the axis.
 * The axis's px per unit is read from where the library put this band's end (a linear axis).
 * Sideways (`horizontal`) the stack runs right from 0, else up.
 */
function stackBandShape(keys: readonly string[], key: string, horizontal: boolean) {
  const at = keys.indexOf(key);
  function StackBand(props: BandProps) {
    const { x = 0, y = 0, width = 0, value, stackedBarStart: origin, payload } = props;
    const end = Array.isArray(value) && typeof value[1] === "number" ? value[1] : NaN;
    const ppu =
      typeof origin === "number" && end > 0 ? (horizontal ? x + width - origin : origin - y) / end : NaN;
    if (!Number.isFinite(ppu) || ppu <= 0 || at < 0) return <Rectangle {...props} />;
    const px = stackBandsPx(
      keys.map((k) => payload?.[k] as number | null | undefined),
      ppu,
    );
    const before = px.slice(0, at).reduce((a, v) => a + v, 0);
    if (px[at] <= 0) return <g />;
    return horizontal ? (
      <Rectangle {...props} x={origin! + before} width={px[at]} />
    ) : (
      <Rectangle {...props} y={origin! - before - px[at]} height={px[at]} />
    );
  }
  return StackBand;
}

/**
 * The end of stack `stack` (put it last among the stack's series): the row's `totalKey` (the
 * stack's total) written past the stack's end with `format`, as a bar's value label is.
 */
export function stackEnd<R>(stack: string, totalKey: string, format: (v: number) => string): SeriesSpec<R> {
  return {
    label: "total",
    color: "transparent",
    stack,
    stackEnd: true,
    hidden: true,
    valueLabels: totalKey,
    format,
  };
}

export function tooltipOf<R extends object>(
  spec: TooltipSpec<R>,
  series: SeriesConfig<R>,
  axis: AxisSpec,
  labelAxis?: AxisSpec,
  includeHidden = false,
) {
  const labelFormat = labelAxis?.format;
  const hidden = includeHidden || undefined;
  if (spec.content) return <Tooltip content={spec.content} cursor={spec.cursor} includeHidden={hidden} />;
  const plain = (v: number, s?: SeriesSpec<R>) =>
    s?.format
      ? s.format(v)
      : axis.format
        ? axis.format(v)
        : `${v.toLocaleString("en-US", { maximumFractionDigits: 2 })}${s?.unit ?? ""}`;
  // Series in the order they are configured (pipeline order for segments), not by name, which
  // put ctx_postprocessing before ctx_preprocessing and decode in the middle.
  const keys = Object.entries(series).map(([k, s]) => s.dataKey ?? k);
  return (
    <Tooltip
      includeHidden={hidden}
      contentStyle={TOOLTIP_STYLE}
      itemStyle={TOOLTIP_ITEM_STYLE}
      itemSorter={(item) => keys.indexOf(String(item.dataKey ?? ""))}
      cursor={spec.cursor}
      labelFormatter={
        spec.label
          ? (l, rows) => spec.label!(l, rows)
          : labelFormat
            ? (l) => (typeof l === "number" ? labelFormat(l) : l)
            : undefined
      }
      formatter={(v, name, item) => {
        if (v === null || v === undefined) return ["—", name];
        const key = String(item?.dataKey ?? "");
        if (spec.value) return spec.value(Number(v), key, item?.payload as R);
        const s = Object.values(series).find((x) => x.label === name) ?? series[key];
        return [plain(Number(v), s), name];
      }}
    />
  );
}

export function csvRow<R extends object>(row: R, columns: CsvColumns<R>): CsvRow {
  return Object.fromEntries(
    Object.entries(columns).map(([header, col]) => [
      header,
      typeof col === "function" ? col(row) : (row[col as keyof R] as CsvRow[string]),
    ]),
  );
}

/**
 * Legend text in the page's text colour: series colours are chosen to tell fills apart, not to be
 * read, and as text some fell to 1.3:1 on the card. The swatch beside it carries the colour.
 */
export function legendText(value: unknown) {
  return <span style={{ color: "var(--fg)" }}>{String(value)}</span>;
}

/** A plotted row as the "view as table" shows it when a chart declares no CSV: x, then each series. */
export function plottedRow<R extends object>(row: R, x: AxisSpec, series: SeriesConfig<R>): CsvRow {
  const cell = (key: string) => {
    const v = (row as Record<string, unknown>)[key];
    return typeof v === "number" || typeof v === "string" || v === null ? v : undefined;
  };
  const entries: Array<[string, CsvRow[string]]> = x.key ? [[x.title ?? x.key, cell(x.key)]] : [];
  for (const [key, s] of Object.entries(series))
    if (!s.hidden && !s.data)
      entries.push([s.unit ? `${s.label} (${s.unit.trim()})` : s.label, cell(s.dataKey ?? key)]);
  return Object.fromEntries(entries);
}
