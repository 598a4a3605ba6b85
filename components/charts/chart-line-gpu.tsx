"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { LEGEND_STYLE, secondsTick } from "@/components/aiperf/axis";
import { ChartContainer } from "@/components/charts/chart-container";
import type { GpuPayload } from "@/lib/api/aiperf-charts";
import { gpuRows, type GpuMetric } from "@/lib/metrics/aiperf-chart-rows";

const TITLES: Record<GpuMetric, { title: string; unit: string }> = {
  powerW: { title: "GPU power", unit: "W" },
  utilizationPct: { title: "GPU utilisation", unit: "%" },
  memoryUsedGb: { title: "GPU memory used", unit: "GB" },
};

/** One line per GPU for one telemetry metric, seconds from the run's first request. */
export function ChartLineGpu({ data, metric }: { data: GpuPayload; metric: GpuMetric }) {
  const rows = gpuRows(data, metric);
  const { title, unit } = TITLES[metric];
  return (
    <ChartContainer
      title={title}
      description={`${unit} per GPU over time (s from the first request)`}
      csvRows={() =>
        rows.map((r) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [
              k === "tS" ? k : (data.gpus[Number(k.slice(3))]?.label ?? k),
              v,
            ]),
          ),
        )
      }
      exportName={`gpu-${metric}`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis
            dataKey="tS"
            type="number"
            tickFormatter={secondsTick}
            stroke="var(--muted)"
            fontSize={11}
            domain={["dataMin", "dataMax"]}
          />
          <YAxis unit={unit === "%" ? "%" : ""} stroke="var(--muted)" fontSize={11} />
          <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
          <Legend wrapperStyle={LEGEND_STYLE} />
          {data.gpus.map((g, i) => (
            <Line
              key={g.id}
              dataKey={`gpu${i}`}
              name={g.label}
              stroke={`var(--chart-${(i % 8) + 1})`}
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
