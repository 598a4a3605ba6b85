"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { groupedRows } from "@/lib/metrics/compare-chart-rows";

export interface RunColumn {
  id: string;
  name: string;
  color: string;
}

/**
 * Grouped bars: one group per category (endpoint, role or metric), one bar per run. Used for
 * hit rates, KV capacity/usage, offload bandwidth and throughput on the compare page.
 */
export function ChartBarCompareRuns({
  title,
  description,
  items,
  runs,
  format,
  exportName,
}: {
  title: string;
  description: string;
  items: Array<{ key: string; values: Record<string, number | null> }>;
  runs: RunColumn[];
  format: (v: number) => string;
  exportName: string;
}) {
  if (items.length === 0) return null;
  const rows = groupedRows(items);
  return (
    <ChartContainer
      title={title}
      description={description}
      exportName={exportName}
      csvRows={() =>
        items.flatMap((i) =>
          runs.map((r) => ({ category: i.key, run: r.name, runId: r.id, value: i.values[r.id] })),
        )
      }
      height={240}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis dataKey="key" stroke="var(--muted)" fontSize={11} interval={0} />
          <YAxis tickFormatter={(v: number) => format(v)} stroke="var(--muted)" fontSize={11} width={72} />
          <Tooltip
            formatter={(v) => (v === null || v === undefined ? "—" : format(Number(v)))}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} itemSorter={null} />
          {runs.map((r) => (
            <Bar key={r.id} dataKey={r.id} name={r.name} fill={r.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
