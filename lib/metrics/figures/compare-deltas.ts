/**
 * The comparison report's bars of the delta table, as renderer-neutral descriptions
 * (lib/api/figure.ts): one figure per group of rows in one unit (bars cannot share an axis across
 * units), one bar per run beside the others, each run in its compare colour.
 */
import type { CompareResponse } from "@/lib/api/compare-schemas";
import type { FigureDescription } from "@/lib/api/figure";
import { runToken } from "./compare-cdf";

export function compareDeltaFigures(c: CompareResponse): FigureDescription[] {
  const groups = new Map<string, CompareResponse["rows"]>();
  for (const row of c.rows)
    groups.set(`${row.group}|${row.unit}`, [...(groups.get(`${row.group}|${row.unit}`) ?? []), row]);
  return [...groups.values()].map((rows) => ({
    id: `delta-${rows[0].group}-${rows[0].unit}`.replace(/[^\w-]+/g, "-"),
    exportName: "compare-deltas",
    kind: "bars",
    title: `${rows[0].group}, ${rows[0].unit} (${c.stat})`,
    description: "Each run's value beside the others; the table below has the deltas against the baseline.",
    definition: {},
    missing: "no run recorded these metrics",
    categories: rows.map((r) => r.label),
    x: { label: "metric", unit: "" },
    y: { label: rows[0].group, unit: rows[0].unit },
    series: c.runs.map((run, i) => ({
      key: run.id,
      name: run.name,
      colour: runToken(i),
      points: rows.map((r, j) => [j, r.cells.find((k) => k.runId === run.id)?.value ?? null] as const),
    })),
    legend: true,
  }));
}
