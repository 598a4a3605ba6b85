"use client";

import type { z } from "zod";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import type { errorsPayloadSchema } from "@/lib/api/aiperf-charts";

/** Failed profiling requests per error type. */
export function ChartBarErrors({ data }: { data: z.infer<typeof errorsPayloadSchema> }) {
  const rows = data.groups.map((g) => ({
    name: g.code !== null ? `${g.type} (${g.code})` : g.type,
    count: g.count,
  }));
  return (
    <ChartContainer
      title="Errors by type"
      description={`${data.total.toLocaleString("en-US")} failed profiling requests`}
      csvRows={() => rows}
      exportName="errors-by-type"
      height={Math.max(120, 40 * rows.length + 40)}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis type="number" allowDecimals={false} stroke="var(--muted)" fontSize={11} />
          <YAxis type="category" dataKey="name" width={200} stroke="var(--muted)" fontSize={11} />
          <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
          <Bar dataKey="count" name="requests" fill="var(--chart-7)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
