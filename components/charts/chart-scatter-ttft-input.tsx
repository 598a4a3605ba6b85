"use client";

import type { z } from "zod";
import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { ttftVsInputPayloadSchema } from "@/lib/api/aiperf-charts";

/** TTFT against prompt length: prefill cost shows as a slope, queueing as a spread. */
export function ChartScatterTtftInput({ data }: { data: z.infer<typeof ttftVsInputPayloadSchema> }) {
  return (
    <ChartContainer
      title="TTFT vs input length"
      description={`Successful profiling requests${data.points.length < data.total ? ` (sample of ${data.points.length} of ${data.total})` : ""}`}
      csvRows={() => data.points.map((p) => ({ inputTokens: p.inputTokens, ttftMs: p.ttftMs }))}
      exportName="ttft-vs-input"
    >
      <ResponsiveContainer width="100%" height="100%">
        <ScatterChart margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis
            dataKey="inputTokens"
            type="number"
            name="input tokens"
            stroke="var(--muted)"
            fontSize={11}
            domain={["dataMin", "dataMax"]}
          />
          <YAxis
            dataKey="ttftMs"
            type="number"
            name="TTFT"
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
          <Scatter data={data.points} fill="var(--chart-4)" isAnimationActive={false} />
        </ScatterChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
