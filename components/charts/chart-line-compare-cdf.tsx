"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { cdfCsvRows, type CdfPoint } from "@/lib/metrics/compare-chart-rows";

export interface CdfSeries {
  runId: string;
  run: string;
  color: string;
  points: CdfPoint[];
}

type Props = {
  series: CdfSeries[];
  label: string;
  actions?: React.ReactNode;
  /** Runs whose records are a sample of what aiperf summarised, each "<run>: 10 of 64 requests" */
  samples?: string[];
};

/** Latency CDFs of several runs on one axis: a shift left is faster at every percentile. */
export function ChartLineCompareCdf({ series, label, actions, samples = [] }: Props) {
  const line = (s: CdfSeries) => ({ label: s.run, color: s.color, data: s.points, dataKey: "percent" });
  return (
    <ChartContainer
      title={`${label}: CDF overlay`}
      description={`Percent of successful profiling requests at or below each value, per run${
        samples.length > 0
          ? `. Drawn from a sample of the records aiperf summarised (${samples.join("; ")}); the tables give aiperf's own figures`
          : ""
      }`}
      definition={{
        window: "each run's profiling phase (aiperf) or perf-metrics files (TensorRT-LLM)",
        requests: "aiperf: successful profiling requests; TensorRT-LLM: completed requests",
      }}
      csvRows={() => cdfCsvRows(series)}
      exportName="compare-latency-cdf"
      missing={`No run here has per-request ${label} records: compare runs with aiperf profile_export.jsonl.`}
      actions={actions}
      kind="line"
      series={Object.fromEntries(series.map((s) => [s.runId, { ...line(s), step: true }]))}
      x={{ key: "valueMs", numeric: true, overlaid: true, title: label, unit: "ms", format: formatMs }}
      y={{ title: "requests at or below", unit: "%", tickUnit: "%", domain: [0, 100] }}
      tooltip={{ label: (v) => formatMs(Number(v)), value: (v) => `${v.toFixed(1)}%` }}
      legend
    />
  );
}
