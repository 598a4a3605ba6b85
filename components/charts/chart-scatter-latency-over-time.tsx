"use client";

import type { z } from "zod";
import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { secondsTick } from "@/components/aiperf/axis";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { overTimePayloadSchema } from "@/lib/api/aiperf-charts";
import type { LatencyMetricId } from "@/components/aiperf/latency-metric";

type Payload = z.infer<typeof overTimePayloadSchema>;

/** Each request's latency at its start time (a sample of ≤ 2,000 when the run is larger). */
export function ChartScatterLatencyOverTime({
  data,
  metric,
  label,
}: {
  data: Payload;
  metric: LatencyMetricId;
  label: string;
}) {
  const rows = data.points
    .filter((p) => p[metric] !== null)
    .map((p) => ({ tS: p.tS, value: p[metric] as number }));
  const sampled = data.points.length < data.total;
  return (
    <ChartContainer
      title={`${label} over time`}
      description={`By request start, seconds from the first request${sampled ? ` · every ${Math.round(data.total / data.points.length)}th of ${data.total.toLocaleString("en-US")} requests` : ""}`}
      csvRows={() => rows.map((r) => ({ startS: r.tS, valueMs: r.value }))}
      exportName="latency-over-time"
    >
      <ResponsiveContainer width="100%" height="100%">
        <ScatterChart margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis
            dataKey="tS"
            type="number"
            name="start"
            tickFormatter={secondsTick}
            stroke="var(--muted)"
            fontSize={11}
            domain={["dataMin", "dataMax"]}
          />
          <YAxis
            dataKey="value"
            type="number"
            name={label}
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
          <Scatter data={rows} fill="var(--chart-1)" isAnimationActive={false} />
        </ScatterChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
