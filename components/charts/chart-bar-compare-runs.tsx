"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { groupedRows } from "@/lib/metrics/compare-chart-rows";
import { shortLabels } from "@/lib/metrics/short-labels";

export interface RunColumn {
  id: string;
  name: string;
  color: string;
}

interface Props {
  title: string;
  description: string;
  items: Array<{ key: string; values: Record<string, number | null> }>;
  runs: RunColumn[];
  format: (v: number) => string;
  exportName: string;
  /** What is missing and how to get it, said when no run has the metric. */
  missing: string;
  /** Title of the value axis, with its unit in brackets. */
  valueTitle: string;
}

/**
 * Grouped bars: one group per category (endpoint, role or metric), one bar per run. Used for
 * hit rates, KV capacity/usage, offload bandwidth and throughput on the compare page.
 */
export function ChartBarCompareRuns({ items: all, runs, format, valueTitle, description, ...frame }: Props) {
  const has = (v: number | null | undefined) => v !== null && v !== undefined;
  // A category no run has a value for (a decode endpoint's hit rate) is an empty row: named in the
  // description instead, and kept in the CSV.
  const items = all.filter((i) => Object.values(i.values).some(has));
  const empty = all.filter((i) => !items.includes(i)).map((i) => i.key);
  if (items.length === 0) return null;
  // A run without the metric gets no bar, so no legend entry and no empty slot in each group.
  const shown = runs.filter((r) => items.some((i) => has(i.values[r.id])));
  // Categories one run owns (an endpoint belongs to one run): one full bar each, coloured by its
  // run, rather than a group of slots of which all but one are empty.
  const single = items.every((i) => shown.filter((r) => has(i.values[r.id])).length <= 1);
  const slots = single ? 1 : shown.length;
  // Many categories, or a few long ones (the endpoints of several runs), printed over each other
  // side by side on x; they then run down y, one line each, with the full name on hover.
  const sideways = items.length > 6 || (items.length > 3 && items.some((i) => i.key.length > 12));
  // Sized by its data: a band per category sideways; the legend (one line per run on a phone)
  // takes its room from the plot, so it is added to the frame rather than squeezing the bars.
  const legendRoom = 18 * shown.length;
  const height = sideways ? 70 + items.length * (slots * 10 + 14) + legendRoom : 200 + legendRoom;
  const short = shortLabels(
    items.map((i) => i.key),
    20,
  );
  const full = new Map(items.map((i, n) => [short[n], i.key]));
  const rows = groupedRows(items).map((r, n) => ({ ...r, axis: short[n] }));
  return (
    <ChartContainer
      {...frame}
      description={empty.length > 0 ? `${description} · no value: ${empty.join(", ")}` : description}
      definition={{
        window: "each run's own, as on its views",
        method: "each run's figure as its own views compute it; a run without the metric has no bar",
      }}
      csvRows={() =>
        all.flatMap((i) =>
          runs.map((r) => ({ category: i.key, run: r.name, runId: r.id, value: i.values[r.id] })),
        )
      }
      height={height}
      kind="bar"
      horizontal={sideways}
      data={rows}
      series={Object.fromEntries(
        shown.map((r) => [
          r.id,
          { label: r.name, color: r.color, format, ...(single ? { stack: "run" } : {}) },
        ]),
      )}
      x={sideways ? { format, title: valueTitle } : { key: "axis", everyTick: true }}
      y={
        sideways
          ? { key: "axis", width: 150, fullName: (l) => full.get(l) ?? l }
          : { format, title: valueTitle }
      }
      tooltip={{ label: (l) => full.get(String(l)) ?? String(l) }}
      legend
    />
  );
}
