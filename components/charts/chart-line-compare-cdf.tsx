"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { cdfCsvRows, type CdfPoint } from "@/lib/metrics/compare-chart-rows";

export interface CdfSeries {
  runId: string;
  run: string;
  color: string;
  points: CdfPoint[];
}

/** Latency CDFs of several runs on one axis: a shift left is faster at every percentile. */
export function ChartLineCompareCdf({
  series,
  label,
  actions,
}: {
  series: CdfSeries[];
  label: string;
  actions?: React.ReactNode;
}) {
  return (
    <ChartContainer
      title={`${label}: CDF overlay`}
      description="Percent of successful profiling requests at or below each value, per run"
      csvRows={() => cdfCsvRows(series)}
      exportName="compare-latency-cdf"
      actions={actions}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="var(--grid)" />
          <XAxis
            dataKey="valueMs"
            type="number"
            domain={["dataMin", "dataMax"]}
            allowDuplicatedCategory={false}
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis domain={[0, 100]} unit="%" stroke="var(--muted)" fontSize={11} />
          <Tooltip
            labelFormatter={(v) => formatMs(Number(v))}
            formatter={(v) => `${Number(v).toFixed(1)}%`}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)" }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} itemSorter={null} />
          {series.map((s) => (
            <Line
              key={s.runId}
              data={s.points}
              dataKey="percent"
              name={s.run}
              stroke={s.color}
              dot={false}
              type="stepAfter"
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
