"use client";

import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatRate } from "@/lib/format-number";
import { segmentColour, segmentShareRows } from "@/lib/metrics/trtllm-chart-rows";
import type { SegmentSharePayload } from "@/lib/api/trtllm-charts";

/** Each segment's share of the mean request time, by arrival time: shows where drift comes from. */
export function ChartAreaSegmentShare({ payload }: { payload: SegmentSharePayload }) {
  const rows = segmentShareRows(payload);
  return (
    <ChartContainer
      title="Segment share over time"
      description={`Mean segment times as a share of their sum, per ${(payload.bucketMs / 1000).toFixed(2)} s of arrivals; a missing band = not recorded in that bucket`}
      csvRows={() => rows}
      exportName="segment-share-over-time"
      height={260}
    >
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={rows} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="startS"
            type="number"
            domain={["dataMin", "dataMax"]}
            tickFormatter={(v: number) => `${v.toFixed(0)} s`}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis
            domain={[0, 1]}
            tickFormatter={(v: number) => formatRate(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <Tooltip
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)", fontSize: 12 }}
            labelFormatter={(v) => `arrivals from ${Number(v).toFixed(2)} s`}
            formatter={(v, name) => [formatRate(Number(v)), String(name)]}
          />
          {payload.segmentNames.map((name) => (
            <Area
              key={name}
              dataKey={name}
              stackId="s"
              type="stepAfter"
              stroke="none"
              fill={segmentColour(name)}
              fillOpacity={0.9}
              isAnimationActive={false}
            />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
