"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { segmentColor } from "@/components/compare/run-colors";
import type { RunSummary } from "@/lib/api/schemas";
import { formatMs } from "@/lib/format-number";
import type { CompareStat } from "@/lib/api/compare-schemas";
import { segmentBarRows } from "@/lib/metrics/compare-chart-rows";

/** Each run's request time split into segments at the chosen statistic, one stacked bar per run. */
export function ChartBarCompareSegments({ runs, stat }: { runs: RunSummary[]; stat: CompareStat }) {
  const { segments, rows } = segmentBarRows(runs, stat);
  if (rows.length === 0) return null;
  return (
    <ChartContainer
      title={`Time breakdown at ${stat}`}
      description={`Segment ${stat} per run (ms). A stack of ${stat}s is not the ${stat} of the total.`}
      csvRows={() =>
        rows.flatMap((r) =>
          segments.map((s) => ({
            run: r.run,
            runId: r.runId,
            segment: s.name,
            [`${stat}Ms`]: r[s.name] as number | undefined,
          })),
        )
      }
      exportName={`compare-segments-${stat}`}
      height={Math.max(160, 60 + rows.length * 48)}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis
            type="number"
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis type="category" dataKey="run" width={140} stroke="var(--muted)" fontSize={11} />
          <Tooltip
            formatter={(v) => formatMs(Number(v))}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} itemSorter={null} />
          {segments.map((s) => (
            <Bar
              key={s.name}
              dataKey={s.name}
              name={s.label}
              stackId="t"
              fill={segmentColor(s.name)}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
