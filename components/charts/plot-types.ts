import type { LabelPlacer } from "@/lib/metrics/label-placement";
import type { ReactElement, ReactNode } from "react";
import type { AxisDomain } from "recharts";
import type { CsvRow } from "./export";

export type Mark = "line" | "area" | "bar" | "scatter";

/** How one data key is drawn and named; the legend and the tooltip read the same entry. */
export interface SeriesSpec<R = Record<string, unknown>> {
  label: string;
  color: string;
  /** Appended to the value in the tooltip when no `format` is given. */
  unit?: string;
  /** Tooltip text of a value. */
  format?: (v: number) => string;
  /** The mark to draw; defaults to the chart's kind (a peak line over an average area). */
  mark?: Mark;
  /** Data key when the series key is not one (overlaid series with their own rows). */
  dataKey?: string;
  /** Rows of this series alone (CDFs of several runs on one axis). */
  data?: readonly object[];
  stack?: string;
  step?: boolean;
  /** Id of the y axis this series is measured on, when the chart has two. */
  axis?: string;
  dots?: boolean;
  /** A dashed line: the second of two quantities drawn in one colour (a run's delivered beside its predicted). */
  dashed?: boolean;
  connectNulls?: boolean;
  fillOpacity?: number;
  /** No outline (stacked bands that touch); on a line, dots without the line between them. */
  noStroke?: boolean;
  /** Per-row attributes of a bar (fill by role or segment, hatching). */
  cell?: (row: R) => Record<string, string | undefined>;
  /** Data key of a text drawn at the end of each bar, or beside each scatter point. */
  labels?: string;
  /**
   * Where a scatter series' labels go: the chart's one placer for all its series, which puts each
   * label where it overlaps none drawn before it (lib/metrics/label-placement.ts). Without it,
   * each label sits above its point.
   */
  labelPlacer?: LabelPlacer;
  /**
   * Every marker of the chart (of every series, labelled or not), in data units: the placer keeps
   * each label off all of them, not only off the labels drawn before it.
   */
  labelMarkers?: ReadonlyArray<{ x: number; y: number; radiusPx?: number }>;
  /**
   * Each bar's value written past its end (with `format`), and a bar of a value above 0 drawn at
   * least MIN_BAR_PX long: beside a 9.5 GB/s bar a 5 MB/s one was no bar at all
   * (lib/metrics/bar-labels.ts). A string: the data key of what is written there instead (a
   * segment's "not recorded"; on a stack's end, `stackEnd`, the stack's total).
   */
  valueLabels?: boolean | string;
  /** A bar of a value above 0 drawn at least MIN_BAR_PX long, without a label (a stack's bands). */
  minLength?: boolean;
  /**
   * The end of a stack: a series that draws nothing, placed last in its stack, where the stack's
   * `valueLabels` (its total) is written past the stack's end; left out of the legend, the
   * tooltip and the table (`stackEnd()` in plot-parts.tsx makes one).
   */
  stackEnd?: boolean;
  /** A scatter series drawn as the line through its points (in row order), without dots. */
  line?: boolean;
  /**
   * Data keys of a scatter series' intervals on x and on y, each [below, above] the point (repeated
   * runs' min–max around their median), drawn as error bars.
   */
  errorBars?: { x?: string; y?: string };
  /** The symbol of a scatter series' points (a run overlaid on sweeps is a star). */
  symbol?: "circle" | "diamond" | "star" | "triangle" | "square";
  /** Left out of the legend and the tooltip (the invisible offset bar of a waterfall). */
  hidden?: boolean;
  /** Left out of the legend only: the second edge of a band its first edge names. */
  legend?: false;
}

export type SeriesConfig<R = Record<string, unknown>> = Record<string, SeriesSpec<R>>;

export interface AxisSpec {
  /** Data key of the axis (the x value, or the category of a horizontal bar chart). */
  key?: string;
  /** Axis title; the unit is added in brackets. */
  title?: string;
  unit?: string;
  /** A number axis where the kind would put categories (time on x). */
  numeric?: boolean;
  format?: (v: number) => string;
  /** Appended to each tick when there is no `format`. */
  tickUnit?: string;
  domain?: AxisDomain;
  /** A logarithmic value axis (values spanning decades); the domain must then stay above 0. */
  log?: boolean;
  /** Explicit tick values (round numbers, see lib/metrics/nice-scale.ts) instead of Recharts' equal splits. */
  ticks?: number[];
  width?: number;
  id?: string;
  right?: boolean;
  hide?: boolean;
  noTicks?: boolean;
  integers?: boolean;
  everyTick?: boolean;
  /** The name a scatter tooltip gives this coordinate. */
  name?: string;
  overlaid?: boolean;
  /** Smaller tick text, for long category names (worker ids). */
  small?: boolean;
  /**
   * The full name behind a short category label, shown on hover. The tick is then one line,
   * never wrapped (wrapped names printed over their neighbours).
   */
  fullName?: (label: string) => string;
  /**
   * On a phone, a category axis down the side names each row above its bar instead, from the
   * plot's left edge: its gutter (150 px of a 330 px chart) left the bars some 60 px.
   */
  namesAbove?: boolean;
}

export interface TooltipSpec<R = Record<string, unknown>> {
  label?: (label: unknown, rows: ReadonlyArray<{ payload?: unknown }>) => ReactNode;
  /** Value and name of one entry, from the value, its series key and its row. */
  value?: (v: number, key: string, row: R) => [ReactNode, ReactNode] | ReactNode;
  content?: ReactElement;
  cursor?: boolean | object;
}

/** CSV columns of plotted rows: header → field, or → the value of a row. */
export type CsvColumns<R> = Record<string, keyof R | ((row: R) => CsvRow[string])>;
