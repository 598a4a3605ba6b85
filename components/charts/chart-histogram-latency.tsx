"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { histogramRows } from "@/lib/metrics/aiperf-chart-rows";

// Labels on alternating sides so close percentiles (p90 ≈ p99 in a tight run) stay readable.
const MARKERS = [
  { key: "p50", colour: "var(--chart-5)", position: "top" },
  { key: "p90", colour: "var(--chart-3)", position: "insideTopLeft" },
  { key: "p99", colour: "var(--chart-7)", position: "insideTopRight" },
] as const;

/** Requests per latency bin, with p50/p90/p99 marked. */
export function ChartHistogramLatency({ dist, label }: { dist: Distribution; label: string }) {
  const rows = histogramRows(dist);
  return (
    <ChartContainer
      title={`${label}: histogram`}
      description={`${dist.count.toLocaleString("en-US")} successful profiling requests per bin (ms)`}
      csvRows={() => rows.map((r) => ({ startMs: r.start, endMs: r.end, requests: r.count }))}
      exportName="latency-histogram"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 16, right: 16, bottom: 4, left: 0 }} barCategoryGap={1}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="mid"
            type="number"
            domain={[dist.min, dist.max]}
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={11} />
          <Tooltip
            labelFormatter={(_, p) => {
              const r = p?.[0]?.payload as { start: number; end: number } | undefined;
              return r ? `${formatMs(r.start)} – ${formatMs(r.end)}` : "";
            }}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }}
          />
          <Bar dataKey="count" name="requests" fill="var(--chart-1)" isAnimationActive={false} />
          {MARKERS.map((m) => (
            <ReferenceLine
              key={m.key}
              x={dist[m.key]}
              stroke={m.colour}
              strokeDasharray="4 2"
              label={{ value: m.key, position: m.position, fill: m.colour, fontSize: 11 }}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
