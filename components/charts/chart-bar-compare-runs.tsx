"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { groupedRows } from "@/lib/metrics/compare-chart-rows";

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
}

/**
 * Grouped bars: one group per category (endpoint, role or metric), one bar per run. Used for
 * hit rates, KV capacity/usage, offload bandwidth and throughput on the compare page.
 */
export function ChartBarCompareRuns({ items, runs, format, ...frame }: Props) {
  if (items.length === 0) return null;
  return (
    <ChartContainer
      {...frame}
      csvRows={() =>
        items.flatMap((i) =>
          runs.map((r) => ({ category: i.key, run: r.name, runId: r.id, value: i.values[r.id] })),
        )
      }
      height={250}
      kind="bar"
      data={groupedRows(items)}
      series={Object.fromEntries(runs.map((r) => [r.id, { label: r.name, color: r.color, format }]))}
      x={{ key: "key", everyTick: true }}
      y={{ format }}
      legend
    />
  );
}
