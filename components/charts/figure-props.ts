/**
 * The chart kit's reading of a figure description (lib/api/figure.ts): the props `ChartContainer`
 * draws it with. Pure, so a test compares what the page says with what the report says
 * (test/unit/figure-description.test.ts).
 */
import { figureTable, tokenVar, type FigureAxis, type FigureDescription } from "@/lib/api/figure";
import { formatMs, formatNumber } from "@/lib/format-number";
import type { CsvRow } from "./export";
import type { AxisSpec, SeriesConfig } from "./plot-types";
import { secondsTick } from "./chart-theme";

export type FigureRow = { x: number } & Record<string, number>;

/** Tick and tooltip text of a value in its unit. */
export function unitFormat(unit: string): (v: number) => string {
  if (unit === "ms") return formatMs;
  if (unit === "s") return secondsTick;
  return (v) => (unit ? `${formatNumber(v, 3)} ${unit}` : formatNumber(v, 3));
}

const axis = (a: FigureAxis, key?: string): AxisSpec => ({
  ...(key ? { key } : {}),
  title: a.label,
  unit: a.unit,
  format: unitFormat(a.unit),
});

export function figureProps(f: FigureDescription) {
  // A point without a value is not drawn (never as 0); one row per point of each series.
  const rowsOf = (i: number): FigureRow[] =>
    f.series[i].points.flatMap(([x, y]) => (y === null ? [] : [{ x, [f.series[i].key]: y } as FigureRow]));
  const single = f.series.length === 1;
  const series: SeriesConfig<FigureRow> = Object.fromEntries(
    f.series.map((s, i) => [
      s.key,
      {
        label: s.name,
        color: tokenVar(s.colour),
        unit: f.y.unit,
        format: unitFormat(f.y.unit),
        ...(single ? {} : { data: rowsOf(i) }),
      },
    ]),
  );
  const table = figureTable(f);
  const csvRows = (): CsvRow[] =>
    table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i]])) as CsvRow);
  return {
    title: f.title,
    description: f.description,
    definition: f.definition,
    missing: f.missing,
    exportName: f.exportName,
    kind: f.kind,
    data: single ? rowsOf(0) : [],
    series,
    x: axis(f.x, "x"),
    // One series: the y axis reads its key (the dense scatter's canvas places and reads points by it).
    y: axis(f.y, single ? f.series[0].key : undefined),
    legend: f.legend,
    csvRows,
  };
}
