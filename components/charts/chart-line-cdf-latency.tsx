"use client";

import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { cdfRows } from "@/lib/metrics/aiperf-chart-rows";

/** Share of requests at or below each latency, with the p50/p90/p99 levels drawn. */
export function ChartLineCdfLatency({ dist, label }: { dist: Distribution; label: string }) {
  const rows = cdfRows(dist);
  return (
    <ChartContainer
      title={`${label}: CDF`}
      description="Percent of successful profiling requests at or below each value"
      csvRows={() => rows.map((r) => ({ valueMs: r.value, percent: r.percent }))}
      exportName="latency-cdf"
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 16, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis
            dataKey="value"
            type="number"
            domain={[dist.min, dist.max]}
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis domain={[0, 100]} unit="%" stroke="var(--muted)" fontSize={11} />
          <Tooltip
            labelFormatter={(v) => formatMs(Number(v))}
            formatter={(v) => `${Number(v).toFixed(1)}%`}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }}
          />
          <Line
            dataKey="percent"
            name="requests ≤ value"
            stroke="var(--chart-2)"
            dot={false}
            type="stepAfter"
            isAnimationActive={false}
          />
          <ReferenceLine
            x={dist.p50}
            stroke="var(--chart-5)"
            strokeDasharray="4 2"
            label={{ value: "p50", position: "top", fontSize: 11, fill: "var(--chart-5)" }}
          />
          <ReferenceLine
            x={dist.p90}
            stroke="var(--chart-3)"
            strokeDasharray="4 2"
            label={{ value: "p90", position: "insideTopLeft", fontSize: 11, fill: "var(--chart-3)" }}
          />
          <ReferenceLine
            x={dist.p99}
            stroke="var(--chart-7)"
            strokeDasharray="4 2"
            label={{ value: "p99", position: "insideTopRight", fontSize: 11, fill: "var(--chart-7)" }}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
