"use client";

import type { z } from "zod";
import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { LEGEND_STYLE, secondsTick } from "@/components/aiperf/axis";
import { ChartContainer } from "@/components/charts/chart-container";
import type { timelinePayloadSchema } from "@/lib/api/aiperf-charts";

/** Requests in flight: time-weighted average per bucket, and the bucket's peak. */
export function ChartAreaConcurrency({ data }: { data: z.infer<typeof timelinePayloadSchema> }) {
  return (
    <ChartContainer
      title="In-flight requests"
      description="Requests between start and end (warmup included), average and peak per bucket"
      csvRows={() =>
        data.points.map((p) => ({ tS: p.tS, inFlightAvg: p.inFlightAvg, inFlightMax: p.inFlightMax }))
      }
      exportName="in-flight-requests"
    >
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data.points} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis
            dataKey="tS"
            type="number"
            tickFormatter={secondsTick}
            stroke="var(--muted)"
            fontSize={11}
            domain={["dataMin", "dataMax"]}
          />
          <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={11} />
          <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
          <Legend wrapperStyle={LEGEND_STYLE} />
          <Area
            dataKey="inFlightAvg"
            name="average"
            stroke="var(--chart-6)"
            fill="var(--chart-6)"
            fillOpacity={0.25}
            isAnimationActive={false}
          />
          <Line
            dataKey="inFlightMax"
            name="peak"
            stroke="var(--chart-3)"
            dot={false}
            type="stepAfter"
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
