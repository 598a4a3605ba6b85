/**
 * The chart kit's reading of a figure description (lib/api/figure.ts): the props `ChartContainer`
 * draws it with. Pure, so a test compares what the page says with what the report says
 * (test/unit/figure-description.test.ts).
 */
import {
  figureTable,
  notedCategories,
  onRightAxis,
  seriesAxis,
  seriesLabel,
  tokenVar,
  type FigureAxis,
  type FigureDescription,
} from "@/lib/api/figure";
import type { ValueScale } from "@/lib/api/trtllm-charts";
import { labelledBandPx, labelRoomPx, logFloor, unitText, valueText } from "@/lib/metrics/bar-labels";
import type { CsvRow } from "./export";
import { shortLabels } from "@/lib/metrics/short-labels";
import type { AxisSpec, Mark, SeriesConfig, SeriesSpec } from "./plot-types";

/**
 * A plotted row: x (a bar's category name) and a value per series key, a histogram's bin edges;
 * a stacked column's row also names its bands not recorded (`notRecorded`, the series' names).
 */
export type FigureRow = { x: number | string } & Record<string, number | string | string[]>;

/** The key of a stacked column's row that lists the names of its bands not recorded. */
export const NOT_RECORDED = "notRecorded";

/** Tick text of a value in its axis's unit (the report writes the same). */
export const unitFormat = unitText;

/**
 * Tooltip and bar-label text of a bar's value, in its own unit where the axis's is one of a
 * family (5 MB/s on a GB/s axis); the report's bar labels write the same.
 */
export const barValueFormat = valueText;

const axis = (a: FigureAxis, key?: string): AxisSpec => ({
  ...(key ? { key } : {}),
  title: a.label,
  unit: a.unit,
  // A percent axis's ticks are whole ("50%"); its tooltip says a tenth (unitFormat).
  ...(a.unit === "%" ? { tickUnit: "%" } : { format: unitFormat(a.unit) }),
  ...(a.domain ? { domain: [a.domain[0], a.domain[1]] as [number, number] } : {}),
  ...(a.integers ? { integers: true } : {}),
});

/**
 * `scale`: how the value axis of bars is drawn, "log" only where the description offers it
 * (`y.logOption`); linear, as the report draws it, by default.
 */
export function figureProps(f: FigureDescription, scale: ValueScale = "linear") {
  // A point without a value is not drawn (never as 0); one row per point of each series. A
  // histogram's row is a bin: its centre, its edges (the tooltip's range) and its count.
  const rowsOf = (i: number): FigureRow[] =>
    f.kind === "histogram"
      ? (f.bins ?? []).map((b) => ({
          x: (b.lo + b.hi) / 2,
          start: b.lo,
          end: b.hi,
          [f.series[i].key]: b.count,
        }))
      : f.series[i].points.flatMap(([x, y]) =>
          y === null ? [] : [{ x, [f.series[i].key]: y } as FigureRow],
        );
  const single = f.series.length === 1;
  const histogram = f.kind === "histogram";
  if (f.kind === "bars") return barsProps(f, scale);
  if (f.kind === "stacked") return stackedProps(f);
  // A series on the right axis is measured on it (its unit in the tooltip) and drawn dashed.
  const series: SeriesConfig<FigureRow> = Object.fromEntries(
    f.series.map((s, i) => [
      s.key,
      {
        label: seriesLabel(f, s),
        color: tokenVar(s.colour),
        unit: seriesAxis(f, s).unit,
        format: unitFormat(seriesAxis(f, s).unit),
        ...(f.step || s.step ? { step: true } : {}),
        ...(single ? {} : { data: rowsOf(i) }),
        ...(onRightAxis(f, s) ? { axis: Y2, dashed: true } : {}),
      },
    ]),
  );
  return {
    ...frameOf(f),
    kind: (f.kind === "histogram" ? "bar" : f.kind) satisfies Mark as Mark,
    data: single ? rowsOf(0) : [],
    series,
    // Lines and a histogram's bins (a pixel apart) stand on a number axis, not on categories.
    x: { ...axis(f.x, "x"), ...(f.kind !== "scatter" ? { numeric: true } : {}) },
    ...(histogram ? { barCategoryGap: 1 } : {}),
    // One series: the y axis reads its key (the dense scatter's canvas places and reads points by it).
    y: axis(f.y, single && !histogram ? f.series[0].key : undefined),
    // Lines and scatters: the right axis of the series that say so, with its own title and unit.
    ...(f.y2 && (f.kind === "line" || f.kind === "scatter")
      ? { y2: { ...axis(f.y2), id: Y2, right: true } satisfies AxisSpec }
      : {}),
  };
}

/** The id of the right axis, which its series name as theirs. */
const Y2 = "y2";

const csvRowsOf = (f: FigureDescription) => (): CsvRow[] => {
  const table = figureTable(f);
  return table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i]])) as CsvRow);
};

/** What every kind says the same way: its words, its definition, its export and its table. */
const frameOf = (f: FigureDescription) => ({
  title: f.title,
  description: f.description,
  definition: f.definition,
  missing: f.missing,
  exportName: f.exportName,
  legend: f.legend,
  csvRows: csvRowsOf(f),
});

/** Bars' and stacked columns' series: a value in its own unit, each in its colour. */
const barSeries = (
  f: FigureDescription,
  spec: Partial<SeriesSpec<FigureRow>> = {},
): SeriesConfig<FigureRow> =>
  Object.fromEntries(
    f.series.map((s) => [
      s.key,
      { label: s.name, color: tokenVar(s.colour), unit: f.y.unit, format: barValueFormat(f.y.unit), ...spec },
    ]),
  );

/** The values of a figure's series that are recorded. */
const valuesOf = (f: FigureDescription) =>
  f.series.flatMap((s) => s.points.flatMap(([, v]) => (v === null ? [] : [v])));

/**
 * A bar's category as the page's axis names it: cut to `shortNames` characters when the figure
 * asks (what tells the names apart kept), its note after it; `full` is its whole name and note,
 * what the report writes and the tick's hover title.
 */
export function categoryLabels(f: FigureDescription): { label: string; full: string }[] {
  const categories = f.categories ?? [];
  const labels = notedCategories(f, f.shortNames ? shortLabels(categories, f.shortNames) : categories);
  const full = notedCategories(f);
  return labels.map((label, i) => ({ label, full: full[i] }));
}

/**
 * Bars: one horizontal row per category (long names stay readable), its series side by side; a
 * value not recorded is no bar (never a 0-length one). A category's own colour (its role) fills
 * its bar, a note goes after its name: a bar of no length draws no text beside it.
 */
function barsProps(f: FigureDescription, scale: ValueScale) {
  const names = categoryLabels(f);
  const data: FigureRow[] = names.map(({ label }, i) => {
    const row: FigureRow = { x: label };
    for (const s of f.series) {
      const v = s.points.find(([x]) => x === i)?.[1];
      if (v !== null && v !== undefined) row[s.key] = v;
    }
    return row;
  });
  const full = new Map(names.map((n) => [n.label, n.full]));
  const colours = f.categoryColours;
  const fill = new Map(names.map((n, i) => [n.label, colours?.[i]]));
  const cell = colours
    ? (r: FigureRow) => {
        const token = fill.get(String(r.x));
        return token ? { fill: tokenVar(token), "data-colour": token } : {};
      }
    : undefined;
  const labelled = f.shortNames !== undefined || f.categoryNotes?.some(Boolean);
  const widest = Math.max(0, ...names.map((n) => n.label.length));
  const values = valuesOf(f);
  const texts = values.map(barValueFormat(f.y.unit));
  // A log value axis where the description offers one (values spanning decades), from the power
  // of ten at or below the smallest value, up to the description's top.
  const log = scale === "log" && f.y.logOption === true;
  return {
    ...frameOf(f),
    kind: "bar" as Mark,
    horizontal: true,
    height: Math.max(
      140,
      Math.max(16 + 24 * f.series.length, labelledBandPx(f.series.length)) * names.length + 56,
    ),
    marginRight: labelRoomPx(texts),
    data,
    // Each bar's value past its end, a value above 0 never shorter than MIN_BAR_PX: as the
    // report draws them (lib/runs/report/svg-plot.ts).
    series: barSeries(f, { valueLabels: true, ...(cell ? { cell } : {}) }),
    // The value runs along; the categories are named down the side (their axis needs no title),
    // each on one line, its whole name on hover.
    x: log
      ? {
          ...axis(f.y),
          log: true,
          domain: [logFloor(values), f.y.domain?.[1] ?? "auto"] as [number, number | "auto"],
        }
      : axis(f.y),
    y: {
      key: "x",
      width: labelled ? Math.min(240, Math.max(120, Math.ceil(16 + 6.6 * widest))) : 200,
      ...(labelled ? { fullName: (l: string) => full.get(l) ?? l } : {}),
    } as AxisSpec,
  };
}

/**
 * Stacked columns: one per category, left to right, too many to name one by one (a few hundred
 * requests read as a profile); a band not recorded is left out of its column and named in the
 * row's `notRecorded`.
 */
function stackedProps(f: FigureDescription) {
  const categories = f.categories ?? [];
  const data: FigureRow[] = categories.map((c) => ({ x: c, [NOT_RECORDED]: [] as string[] }));
  for (const s of f.series)
    for (const [i, v] of s.points) {
      const row = data[i];
      if (!row) continue;
      if (v === null) (row[NOT_RECORDED] as string[]).push(s.name);
      else row[s.key] = v;
    }
  return {
    ...frameOf(f),
    kind: "bar" as Mark,
    height: 330,
    data,
    series: barSeries(f, { stack: "s" }),
    barCategoryGap: categories.length > 200 ? 0 : 1,
    x: { key: "x", title: f.x.label, noTicks: true } as AxisSpec,
    y: axis(f.y),
  };
}
