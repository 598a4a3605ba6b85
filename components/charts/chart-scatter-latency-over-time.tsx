"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { secondsTick } from "@/components/charts/chart-theme";
import { formatMs } from "@/lib/format-number";

/** An over-time payload (aiperf's or TensorRT-LLM's): each point a start time and its latencies. */
interface Props<M extends string> {
  data: { total: number; points: ReadonlyArray<{ tS: number } & Record<M, number | null>> };
  metric: M;
  label: string;
}

/** Each request's latency at its start time (a sample of ≤ 2,000 when the run is larger). */
export function ChartScatterLatencyOverTime<M extends string>({ data, metric, label }: Props<M>) {
  const rows = data.points.flatMap((p) => {
    const value = p[metric];
    return value === null ? [] : [{ tS: p.tS, value }];
  });
  const sampled = data.points.length < data.total;
  return (
    <ChartContainer
      title={`${label} over time`}
      description={`By request start, seconds from the first request${sampled ? ` · every ${Math.round(data.total / data.points.length)}th of ${data.total.toLocaleString("en-US")} requests` : ""}`}
      csvRows={() => rows.map((r) => ({ startS: r.tS, valueMs: r.value }))}
      exportName="latency-over-time"
      missing={`No successful request has a ${label}: a run whose every request failed has none (see the errors under Throughput); otherwise upload aiperf profile_export.jsonl.`}
      kind="scatter"
      data={rows}
      series={{ value: { label, color: "var(--chart-1)" } }}
      x={{ key: "tS", name: "start", title: "request start", unit: "s", format: secondsTick }}
      y={{ key: "value", name: label, title: label, unit: "ms", format: formatMs }}
      tooltip={{
        value: (v, key) => [key === "tS" ? secondsTick(v) : formatMs(v), key === "tS" ? "start" : label],
      }}
      legend={false}
    />
  );
}
