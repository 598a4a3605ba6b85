/**
 * The chart kit's reading of a figure description (lib/api/figure.ts): the props `ChartContainer`
 * draws it with. Pure, so a test compares what the page says with what the report says
 * (test/unit/figure-description.test.ts).
 */
import { figureTable, tokenVar, type FigureAxis, type FigureDescription } from "@/lib/api/figure";
import { labelledBandPx, labelRoomPx, unitText } from "@/lib/metrics/bar-labels";
import type { CsvRow } from "./export";
import type { AxisSpec, Mark, SeriesConfig } from "./plot-types";

/**
 * A plotted row: x (a bar's category name) and a value per series key, a histogram's bin edges;
 * a stacked column's row also names its bands not recorded (`notRecorded`, the series' names).
 */
export type FigureRow = { x: number | string } & Record<string, number | string | string[]>;

/** The key of a stacked column's row that lists the names of its bands not recorded. */
export const NOT_RECORDED = "notRecorded";

/** Tick, tooltip and bar-label text of a value in its unit (the report writes the same). */
export const unitFormat = unitText;

const axis = (a: FigureAxis, key?: string): AxisSpec => ({
  ...(key ? { key } : {}),
  title: a.label,
  unit: a.unit,
  // A percent axis's ticks are whole ("50%"); its tooltip says a tenth (unitFormat).
  ...(a.unit === "%" ? { tickUnit: "%" } : { format: unitFormat(a.unit) }),
  ...(a.domain ? { domain: [a.domain[0], a.domain[1]] as [number, number] } : {}),
  ...(a.integers ? { integers: true } : {}),
});

export function figureProps(f: FigureDescription) {
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
  if (f.kind === "bars") return barsProps(f);
  if (f.kind === "stacked") return stackedProps(f);
  const series: SeriesConfig<FigureRow> = Object.fromEntries(
    f.series.map((s, i) => [
      s.key,
      {
        label: s.name,
        color: tokenVar(s.colour),
        unit: f.y.unit,
        format: unitFormat(f.y.unit),
        ...(f.step ? { step: true } : {}),
        ...(single ? {} : { data: rowsOf(i) }),
      },
    ]),
  );
  const csvRows = csvRowsOf(f);
  return {
    title: f.title,
    description: f.description,
    definition: f.definition,
    missing: f.missing,
    exportName: f.exportName,
    kind: (f.kind === "histogram" ? "bar" : f.kind) satisfies Mark as Mark,
    data: single ? rowsOf(0) : [],
    series,
    // Lines and a histogram's bins (a pixel apart) stand on a number axis, not on categories.
    x: { ...axis(f.x, "x"), ...(f.kind !== "scatter" ? { numeric: true } : {}) },
    ...(histogram ? { barCategoryGap: 1 } : {}),
    // One series: the y axis reads its key (the dense scatter's canvas places and reads points by it).
    y: axis(f.y, single && !histogram ? f.series[0].key : undefined),
    legend: f.legend,
    csvRows,
  };
}

const csvRowsOf = (f: FigureDescription) => (): CsvRow[] => {
  const table = figureTable(f);
  return table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i]])) as CsvRow);
};

/**
 * Bars: one horizontal row per category (long names stay readable), its series side by side; a
 * value not recorded is no bar (never a 0-length one).
 */
function barsProps(f: FigureDescription) {
  const categories = f.categories ?? [];
  const data: FigureRow[] = categories.map((c, i) => {
    const row: FigureRow = { x: c };
    for (const s of f.series) {
      const v = s.points.find(([x]) => x === i)?.[1];
      if (v !== null && v !== undefined) row[s.key] = v;
    }
    return row;
  });
  const series: SeriesConfig<FigureRow> = Object.fromEntries(
    f.series.map((s) => [
      s.key,
      {
        label: s.name,
        color: tokenVar(s.colour),
        unit: f.y.unit,
        format: unitFormat(f.y.unit),
        // Each bar's value past its end, a value above 0 never shorter than MIN_BAR_PX: as the
        // report draws them (lib/runs/report/svg-plot.ts).
        valueLabels: true,
      },
    ]),
  );
  const texts = f.series.flatMap((s) =>
    s.points.flatMap(([, v]) => (v === null ? [] : [unitFormat(f.y.unit)(v)])),
  );
  return {
    title: f.title,
    description: f.description,
    definition: f.definition,
    missing: f.missing,
    exportName: f.exportName,
    kind: "bar" as Mark,
    horizontal: true,
    height: Math.max(
      140,
      Math.max(16 + 24 * f.series.length, labelledBandPx(f.series.length)) * categories.length + 56,
    ),
    marginRight: labelRoomPx(texts),
    data,
    series,
    // The value runs along; the categories are named down the side (their axis needs no title).
    x: axis(f.y),
    y: { key: "x", width: 200 } as AxisSpec,
    legend: f.legend,
    csvRows: csvRowsOf(f),
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
  const series: SeriesConfig<FigureRow> = Object.fromEntries(
    f.series.map((s) => [
      s.key,
      { label: s.name, color: tokenVar(s.colour), unit: f.y.unit, format: unitFormat(f.y.unit), stack: "s" },
    ]),
  );
  return {
    title: f.title,
    description: f.description,
    definition: f.definition,
    missing: f.missing,
    exportName: f.exportName,
    kind: "bar" as Mark,
    height: 330,
    data,
    series,
    barCategoryGap: categories.length > 200 ? 0 : 1,
    x: { key: "x", title: f.x.label, noTicks: true } as AxisSpec,
    y: axis(f.y),
    legend: f.legend,
    csvRows: csvRowsOf(f),
  };
}
