"use client";

import type { ReactNode } from "react";
import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import type { TimeRow } from "@/lib/metrics/server-metrics/chart-rows";

export interface TimeLine {
  key: string;
  name: string;
  color: string;
}

export interface TimeLinesProps {
  title: string;
  description: ReactNode;
  exportName: string;
  rows: TimeRow[];
  lines: TimeLine[];
  unit?: string;
  /** Stacked areas instead of lines (parts of a whole, e.g. prompt tokens by source). */
  stacked?: boolean;
  reference?: { y: number; label: string };
  yMax?: number;
}

/** Lines (or stacked areas) over seconds from the first interval; gaps stay gaps. */
export function TimeLines({
  title,
  description,
  exportName,
  rows,
  lines,
  unit,
  stacked,
  reference,
  yMax,
}: TimeLinesProps) {
  const axes = (
    <>
      <CartesianGrid stroke="var(--grid)" />
      <XAxis
        dataKey="t"
        type="number"
        unit=" s"
        stroke="var(--muted)"
        fontSize={11}
        domain={["dataMin", "dataMax"]}
      />
      <YAxis unit={unit} stroke="var(--muted)" fontSize={11} domain={[0, yMax ?? "auto"]} />
      <Tooltip contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }} />
      <Legend />
      {reference ? (
        <ReferenceLine
          y={reference.y}
          stroke="var(--muted)"
          strokeDasharray="4 4"
          label={{ value: reference.label, fontSize: 11, fill: "var(--muted)" }}
        />
      ) : null}
    </>
  );
  return (
    <ChartContainer title={title} description={description} exportName={exportName} csvRows={() => rows}>
      <ResponsiveContainer width="100%" height="100%">
        {stacked ? (
          <AreaChart data={rows} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
            {axes}
            {lines.map((l) => (
              <Area
                key={l.key}
                dataKey={l.key}
                name={l.name}
                stackId="1"
                stroke={l.color}
                fill={l.color}
                isAnimationActive={false}
              />
            ))}
          </AreaChart>
        ) : (
          <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
            {axes}
            {lines.map((l) => (
              <Line
                key={l.key}
                dataKey={l.key}
                name={l.name}
                stroke={l.color}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        )}
      </ResponsiveContainer>
    </ChartContainer>
  );
}
