/** What the report's figures share: reading stored payloads, and drawing a figure description as a report figure. */
import type { z } from "zod";
import type { ChartDef } from "@/lib/api/chart-catalog";
import {
  definitionText,
  figureTable,
  notedCategories,
  onRightAxis,
  seriesLabel,
  tokenColour,
  type FigureDescription,
} from "@/lib/api/figure";
import { formatNumber } from "@/lib/format-number";
import { stackEnds, valueTextAlike } from "@/lib/metrics/bar-labels";
import type { Figure } from "./html";
import type { Plot } from "./svg-plot";

/** A run's stored chart payloads, each read as its chart; null when absent or not of that shape. */
export interface Payloads {
  keys: readonly string[];
  get<S extends z.ZodType>(chart: ChartDef<S>): z.output<S> | null;
}

export function payloadsFrom(stored: ReadonlyMap<string, string>): Payloads {
  return {
    keys: [...stored.keys()],
    get({ key, schema }) {
      const raw = stored.get(key);
      if (raw === undefined) return null;
      const parsed = schema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    },
  };
}

export const cell = (v: number | null | undefined, digits = 3) =>
  v === null || v === undefined ? "not recorded" : formatNumber(v, digits);

/** A stack's total past its end ("Σ 1.250 ms"), every stack's total in one unit and one precision. */
function stackTotalText(f: FigureDescription): (v: number) => string {
  const totals = (f.categories ?? []).map(
    (_, i) => stackEnds(f.series.map((s) => s.points.find(([x]) => x === i)?.[1] ?? null)).at(-1) ?? 0,
  );
  const text = valueTextAlike(f.y.unit, totals);
  return (v) => `${f.stackTotal} ${text(v)}`;
}

/**
 * A figure description (lib/api/figure.ts) as a report figure: the same title, words, axes, units,
 * series names and colours the page's chart kit draws it with (components/charts/figure-props.ts);
 * colours are the light theme's values of the page's tokens, the report being a light page.
 */
export function reportFigure(f: FigureDescription): Figure {
  const table = figureTable(f);
  const x = { title: f.x.label, unit: f.x.unit };
  const y = { title: f.y.label, unit: f.y.unit };
  const marks = (f.marks ?? []).map((m) => ({ x: m.x, label: m.label, colour: tokenColour(m.colour) }));
  const valueAt = (s: FigureDescription["series"][number], i: number) =>
    s.points.find(([x]) => x === i)?.[1] ?? null;
  const plot: Plot =
    f.kind === "stacked"
      ? {
          kind: "stacked",
          categories: [...(f.categories ?? [])],
          category: x,
          value: y,
          ...(f.horizontal ? { horizontal: true } : {}),
          // The page's total past a stack's end (components/charts/figure-props.ts): the same text.
          // Its totals said together, in one unit and one number of decimals, as the page writes them.
          ...(f.stackTotal ? { totalText: stackTotalText(f) } : {}),
          series: f.series.map((s) => {
            const at = new Map(s.points);
            return {
              label: s.name,
              colour: tokenColour(s.colour),
              values: (f.categories ?? []).map((_, i) => at.get(i) ?? null),
            };
          }),
        }
      : f.kind === "bars"
        ? {
            kind: "bars",
            // Whole names, each with its note (the page's hover title).
            categories: notedCategories(f),
            value: y,
            // The description's top of the value axis (the run's requests the errors are of).
            ...(f.y.domain ? { valueMax: f.y.domain[1] } : {}),
            // The page's bar labels (components/charts/figure-props.ts): the same text, each
            // value in its own unit (5 MB/s on a GB/s axis).
            valueText: valueTextAlike(
              f.y.unit,
              f.series.flatMap((s) => s.points.map(([, v]) => v)),
            ),
            series: f.series.map((s) => ({
              label: s.name,
              colour: tokenColour(s.colour),
              ...(f.categoryColours ? { colours: f.categoryColours.map((c) => tokenColour(c)) } : {}),
              values: (f.categories ?? []).map((_, i) => valueAt(s, i)),
            })),
          }
        : f.kind === "histogram"
          ? {
              kind: "histogram",
              x,
              y,
              bins: f.bins ?? [],
              label: f.series[0]?.name,
              colour: f.series[0] ? tokenColour(f.series[0].colour) : undefined,
              marks,
            }
          : {
              kind: f.kind,
              x,
              y,
              // The right axis and the series measured on it, named as the page names them.
              ...(f.y2 ? { y2: { title: f.y2.label, unit: f.y2.unit } } : {}),
              series: f.series.map((s) => ({
                label: seriesLabel(f, s),
                colour: tokenColour(s.colour),
                points: s.points,
                ...(onRightAxis(f, s) ? { axis: "y2" as const } : {}),
              })),
              marks,
              ...(f.levels?.length ? { levels: f.levels } : {}),
              ...(f.kind === "line" && f.bands ? { bands: { until: f.stepEnd } } : {}),
            };
  return {
    id: f.id,
    title: f.title,
    description: f.description,
    definition: definitionText(f.definition),
    described: true,
    plot,
    missing: f.missing,
    table: {
      columns: table.columns,
      rows: table.rows.map((r) => r.map((v) => (typeof v === "string" ? v : cell(v)))),
    },
  };
}
