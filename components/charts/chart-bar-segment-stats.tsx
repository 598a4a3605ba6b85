"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { segmentColour, stackedStatRow, type SegmentStatRow } from "@/lib/metrics/trtllm-chart-rows";
import type { Statistic } from "@/lib/api/trtllm-charts";

/**
 * Every segment at one statistic, stacked in request order. Each segment's statistic is taken
 * over its own requests, so the stack is a profile, not the statistic of the total.
 */
export function ChartBarSegmentStats({
  rows,
  stat,
  actions,
}: {
  rows: readonly SegmentStatRow[];
  stat: Statistic;
  actions?: React.ReactNode;
}) {
  const data = [stackedStatRow(rows)];
  const missing = rows.filter((r) => r.valueMs === null).map((r) => r.name);
  return (
    <ChartContainer
      title={`Where the time goes (${stat})`}
      description={
        missing.length
          ? `ms per segment; not recorded in this run: ${missing.join(", ")}`
          : "ms per segment, each at the chosen statistic"
      }
      csvRows={() =>
        rows.map((r) => ({ segment: r.name, [`${stat}Ms`]: r.valueMs ?? "not recorded", count: r.count }))
      }
      exportName={`time-breakdown-${stat}`}
      height={140}
      actions={actions}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 4, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis
            type="number"
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis type="category" dataKey="label" hide />
          <Tooltip
            cursor={false}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)", fontSize: 12 }}
            formatter={(v, name) => [formatMs(Number(v)), String(name)]}
          />
          {rows
            .filter((r) => r.valueMs !== null)
            .map((r) => (
              <Bar
                key={r.name}
                dataKey={r.name}
                stackId="s"
                fill={segmentColour(r.name)}
                isAnimationActive={false}
              />
            ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
