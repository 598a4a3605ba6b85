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
export function ChartBarCompareRuns({ items, runs, format, valueTitle, ...frame }: Props) {
  if (items.length === 0) return null;
  // Many categories (the endpoints of several runs) printed over each other side by side on x;
  // they then run down y, one line each, with the full name on hover.
  const sideways = items.length > 6;
  const short = shortLabels(
    items.map((i) => i.key),
    20,
  );
  const full = new Map(items.map((i, n) => [short[n], i.key]));
  const rows = groupedRows(items).map((r, n) => ({ ...r, axis: short[n] }));
  return (
    <ChartContainer
      {...frame}
      definition={{
        window: "each run's own, as on its views",
        method: "each run's figure as its own views compute it; a run without the metric has no bar",
      }}
      csvRows={() =>
        items.flatMap((i) =>
          runs.map((r) => ({ category: i.key, run: r.name, runId: r.id, value: i.values[r.id] })),
        )
      }
      height={sideways ? 60 + items.length * (runs.length * 8 + 12) : 250}
      kind="bar"
      horizontal={sideways}
      data={rows}
      series={Object.fromEntries(runs.map((r) => [r.id, { label: r.name, color: r.color, format }]))}
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
