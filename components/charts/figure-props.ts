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
import {
  barNamesPx,
  barsHeightPx,
  compactTickText,
  compactValueText,
  labelRoomPx,
  logFloor,
  stackEnds,
  stackNamesPx,
  stackedRowsHeightPx,
  unitText,
  valueText,
  valueTextAlike,
} from "@/lib/metrics/bar-labels";
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
 * (`y.logOption`); linear, as the report draws it, by default. `narrow`: a phone's width, where
 * bars write counts in their compact form and name their categories above them.
 */
export function figureProps(f: FigureDescription, scale: ValueScale = "linear", narrow = false) {
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
  if (f.kind === "bars") return barsProps(f, scale, narrow);
  if (f.kind === "stacked") return f.horizontal ? stackedRowsProps(f, scale) : stackedProps(f);
  if (f.kind === "line" && f.bands) return bandsProps(f);
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
function barsProps(f: FigureDescription, scale: ValueScale, narrow: boolean) {
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
  // On a phone a count is written in its compact form ("1.28 B tokens"): the exact one took the
  // plot's room. The tooltip and the table keep it exact.
  // The labels are said together: one unit and one number of decimals for all of them.
  const valueFormat = narrow ? compactValueText(f.y.unit) : valueTextAlike(f.y.unit, values);
  const texts = values.map(valueFormat);
  const valueAxis: AxisSpec = {
    ...axis(f.y),
    ...(narrow && f.y.unit !== "%" ? { format: compactTickText(f.y.unit) } : {}),
  };
  // A log value axis where the description offers one (values spanning decades), from the power
  // of ten at or below the smallest value, up to the description's top.
  const log = scale === "log" && f.y.logOption === true;
  return {
    ...frameOf(f),
    kind: "bar" as Mark,
    horizontal: true,
    height: barsHeightPx(f.series.length, names.length),
    marginRight: labelRoomPx(texts),
    data,
    // Each bar's value past its end, a value above 0 never shorter than MIN_BAR_PX: as the
    // report draws them (lib/runs/report/svg-plot.ts).
    series: barSeries(f, { valueLabels: true, format: valueFormat, ...(cell ? { cell } : {}) }),
    // The value runs along; the categories are named down the side (their axis needs no title),
    // each on one line, its whole name on hover.
    x: log
      ? {
          ...valueAxis,
          log: true,
          domain: [logFloor(values), f.y.domain?.[1] ?? "auto"] as [number, number | "auto"],
        }
      : valueAxis,
    y: {
      key: "x",
      // On a phone the names go above their bars, so the plot keeps the width.
      namesAbove: true,
      width: barNamesPx(widest, labelled === true),
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

/** The key of a stacked row's total, written past the stack's end (no series is named so). */
export const STACK_TOTAL = "stackTotal";

/**
 * The key of the series that writes it: not the total's data key, or the kit would stack the
 * total on the bands and put the axis's top at twice the stack.
 */
export const STACK_END = "stack end";

/**
 * Stacked rows: one horizontal bar per category (a statistic), named down the side, its series
 * stacked left to right in their order; a band not recorded is left out of its bar and named in
 * the row's `notRecorded`. With `stackTotal` the stack's total is written past its end after its
 * sign ("Σ 12.5 ms"), as the report writes it. `scale` "log": a value axis from the power of ten
 * below the shortest first band's end, where the description offers it.
 */
function stackedRowsProps(f: FigureDescription, scale: ValueScale) {
  const categories = f.categories ?? [];
  const data: FigureRow[] = categories.map((c) => ({ x: c, [NOT_RECORDED]: [] as string[] }));
  const ends = categories.map(() => [] as Array<number | null>);
  for (const s of f.series)
    for (const [i, v] of s.points) {
      const row = data[i];
      if (!row) continue;
      ends[i].push(v);
      if (v === null) (row[NOT_RECORDED] as string[]).push(s.name);
      else row[s.key] = v;
    }
  const totals = ends.map((e) => stackEnds(e).at(-1) ?? 0);
  data.forEach((r, i) => (r[STACK_TOTAL] = totals[i]));
  // The totals are said together: one unit and one number of decimals for all of them.
  const totalText = valueTextAlike(f.y.unit, totals);
  const total = (v: number) => `${f.stackTotal} ${totalText(v)}`;
  const log = scale === "log" && f.y.logOption === true;
  const widest = Math.max(0, ...categories.map((c) => c.length));
  return {
    ...frameOf(f),
    kind: "bar" as Mark,
    horizontal: true,
    height: stackedRowsHeightPx(categories.length),
    ...(f.stackTotal ? { marginRight: labelRoomPx(totals.map(total)) } : {}),
    data,
    series: {
      // Each band of a value above 0 at least MIN_BAR_PX long, as Compare's stacks (a 0.9 px band
      // sat under the axis line, out of the pointer's reach), the room taken from the stack's
      // longest band so it ends at its total (bar-labels.ts stackBandsPx). Not on the log axis,
      // where the first bands open up already.
      ...barSeries(f, { stack: "s", ...(log ? {} : { minLength: true }) }),
      // The stack's end: draws nothing, its total written past it (plot-parts.tsx stackEnd).
      ...(f.stackTotal
        ? {
            [STACK_END]: {
              label: "total",
              color: "transparent",
              stack: "s",
              stackEnd: true,
              hidden: true,
              valueLabels: STACK_TOTAL,
              format: total,
            },
          }
        : {}),
    } as SeriesConfig<FigureRow>,
    x: log
      ? {
          ...axis(f.y),
          log: true,
          domain: [logFloor(ends.flatMap((e) => stackEnds(e))), "auto"] as [number, "auto"],
        }
      : axis(f.y),
    y: { key: "x", width: stackNamesPx(widest) } as AxisSpec,
  };
}

/**
 * Bands: lines stacked as filled steps, each value held until the next x (the last until
 * `stepEnd`), in the rows of every series at once; a value not recorded is no band there.
 */
function bandsProps(f: FigureDescription) {
  const rows = new Map<number, FigureRow>();
  for (const s of f.series)
    for (const [x, y] of s.points) {
      const row = rows.get(x) ?? { x };
      if (y !== null) row[s.key] = y;
      rows.set(x, row);
    }
  const data = [...rows.values()].sort((a, b) => Number(a.x) - Number(b.x));
  const last = data.at(-1);
  // The last step closes at its own end, or it is a line of no width.
  if (last && f.stepEnd !== undefined) data.push({ ...last, x: f.stepEnd });
  return {
    ...frameOf(f),
    kind: "area" as Mark,
    height: 280,
    data,
    series: Object.fromEntries(
      f.series.map((s) => [
        s.key,
        {
          label: s.name,
          color: tokenVar(s.colour),
          unit: f.y.unit,
          format: unitFormat(f.y.unit),
          stack: "s",
          step: true,
          fillOpacity: 0.9,
          noStroke: true,
        },
      ]),
    ) as SeriesConfig<FigureRow>,
    x: { ...axis(f.x, "x"), numeric: true },
    y: axis(f.y),
  };
}
