"use client";

import type { z } from "zod";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { LEGEND_STYLE, secondsTick } from "@/components/aiperf/axis";
import { ChartContainer } from "@/components/charts/chart-container";
import type { timelinePayloadSchema } from "@/lib/api/aiperf-charts";

/** Completed requests and output tokens per second, by completion time. */
export function ChartLineThroughput({ data }: { data: z.infer<typeof timelinePayloadSchema> }) {
  return (
    <ChartContainer
      title="Throughput over time"
      description={`Successful profiling requests by completion time, per ${data.bucketS} s bucket`}
      csvRows={() =>
        data.points.map((p) => ({
          tS: p.tS,
          requestsPerS: p.requestsPerS,
          outputTokensPerS: p.outputTokensPerS,
          errorsPerS: p.errorsPerS,
        }))
      }
      exportName="throughput-over-time"
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data.points} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis
            dataKey="tS"
            type="number"
            tickFormatter={secondsTick}
            stroke="var(--muted)"
            fontSize={11}
            domain={["dataMin", "dataMax"]}
          />
          <YAxis yAxisId="tok" stroke="var(--muted)" fontSize={11} />
          <YAxis yAxisId="req" orientation="right" stroke="var(--muted)" fontSize={11} />
          <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
          <Legend wrapperStyle={LEGEND_STYLE} />
          <Line
            yAxisId="tok"
            dataKey="outputTokensPerS"
            name="output tokens/s"
            stroke="var(--chart-1)"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            yAxisId="req"
            dataKey="requestsPerS"
            name="requests/s"
            stroke="var(--chart-2)"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            yAxisId="req"
            dataKey="errorsPerS"
            name="errors/s"
            stroke="var(--chart-7)"
            dot={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
