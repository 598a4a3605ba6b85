"use client";

import type { z } from "zod";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { LEGEND_STYLE } from "@/components/aiperf/axis";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { timeslicesPayloadSchema } from "@/lib/api/aiperf-charts";

/**
 * aiperf's own per-timeslice TTFT and latency. The x axis is the slice number, not seconds:
 * older aiperf renumbers non-empty slices, so index × duration is not a true offset.
 */
export function ChartLineLatencyTimeslices({ data }: { data: z.infer<typeof timeslicesPayloadSchema> }) {
  return (
    <ChartContainer
      title="Latency per timeslice (aiperf)"
      description={`From aiperf's timeslice export${data.sliceDurationS ? `, ${data.sliceDurationS} s slices` : ""}; a partial last slice is marked in the CSV`}
      csvRows={() => data.slices}
      exportName="latency-timeslices"
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data.slices} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis dataKey="index" stroke="var(--muted)" fontSize={11} />
          <YAxis tickFormatter={(v: number) => formatMs(v)} stroke="var(--muted)" fontSize={11} />
          <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
          <Legend wrapperStyle={LEGEND_STYLE} />
          <Line
            dataKey="ttftAvgMs"
            name="TTFT avg"
            stroke="var(--chart-1)"
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="ttftP99Ms"
            name="TTFT p99"
            stroke="var(--chart-7)"
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="e2eAvgMs"
            name="latency avg"
            stroke="var(--chart-2)"
            connectNulls
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
