"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import type { EndpointBarRow } from "@/lib/metrics/server-metrics/chart-rows";

export interface EndpointBarsProps {
  title: string;
  description: string;
  rows: EndpointBarRow[];
  exportName: string;
  /** Axis and tooltip text of a value. */
  format: (v: number) => string;
  domainMax?: number;
}

/** One bar per endpoint, coloured by its role (--role-* variables). */
export function EndpointBars({ title, description, rows, exportName, format, domainMax }: EndpointBarsProps) {
  return (
    <ChartContainer
      title={title}
      description={description}
      exportName={exportName}
      csvRows={() => rows.map((r) => ({ endpoint: r.endpoint, role: r.role, value: r.value }))}
      height={Math.max(220, 60 + rows.length * 28)}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis
            type="number"
            stroke="var(--muted)"
            fontSize={11}
            tickFormatter={format}
            domain={[0, domainMax ?? "auto"]}
          />
          <YAxis type="category" dataKey="endpoint" stroke="var(--muted)" fontSize={11} width={150} />
          <Tooltip
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }}
            formatter={(v, _n, item) => [
              format(Number(v)),
              (item?.payload as EndpointBarRow | undefined)?.role ?? "",
            ]}
          />
          <Bar dataKey="value" isAnimationActive={false}>
            {rows.map((r) => (
              <Cell key={r.endpoint} fill={`var(--role-${r.role})`} data-role={r.role} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
