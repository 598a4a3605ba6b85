"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { secondsTick } from "@/components/charts/chart-theme";
import { formatCount, formatMs, ordinal, plural } from "@/lib/format-number";
import { AIPERF_SUCCESSFUL, type FigureDefinition } from "@/components/charts/definitions";

/** An over-time payload (aiperf's or TensorRT-LLM's): each point a start time and its latencies. */
interface Props<M extends string> {
  data: { total: number; points: ReadonlyArray<{ tS: number } & Record<M, number | null>> };
  metric: M;
  label: string;
  /** Which window, requests and method (definitions.ts) */
  definition?: FigureDefinition;
}

/** Each request's latency at its start time (a sample of ≤ 2,000 when the run is larger). */
export function ChartScatterLatencyOverTime<M extends string>({
  data,
  metric,
  label,
  definition = AIPERF_SUCCESSFUL,
}: Props<M>) {
  const rows = data.points.flatMap((p) => {
    const value = p[metric];
    return value === null ? [] : [{ tS: p.tS, value }];
  });
  const sampled = data.points.length < data.total;
  const every = Math.round(data.total / Math.max(1, data.points.length));
  const sample =
    every >= 2
      ? `every ${ordinal(every)} of ${plural(data.total, "request")}`
      : `${formatCount(data.points.length)} of ${plural(data.total, "request")}`;
  return (
    <ChartContainer
      title={`${label} over time`}
      description={`By request start, seconds from the first request${sampled ? ` · ${sample}` : ""}`}
      definition={definition}
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
