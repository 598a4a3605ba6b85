"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { latencyAxis, PercentileMarks } from "@/components/charts/reference-marks";
import { formatMs } from "@/lib/format-number";
import { cdfRows } from "@/lib/metrics/aiperf-chart-rows";
import type { LatencyDistributionProps } from "@/components/charts/chart-histogram-latency";
import { AIPERF_SUCCESSFUL } from "@/components/charts/definitions";

/** Share of requests at or below each latency, with the p50/p75/p90/p99 levels drawn. */
export function ChartLineCdfLatency({
  dist,
  label,
  population = "successful profiling request",
  definition = AIPERF_SUCCESSFUL,
  still,
}: LatencyDistributionProps) {
  const rows = cdfRows(dist);
  return (
    <ChartContainer
      title={`${label}: CDF`}
      description={`Percent of ${population}s at or below each value`}
      csvRows={() => rows.map((r) => ({ valueMs: r.value, percent: r.percent }))}
      definition={definition}
      exportName="latency-cdf"
      missing={`No successful request has a ${label}: a run whose every request failed has none (see the errors under Throughput); otherwise upload aiperf profile_export.jsonl.`}
      kind="line"
      data={rows}
      series={{ percent: { label: "requests ≤ value", color: "var(--chart-2)", step: true } }}
      x={latencyAxis(dist, label, "value")}
      y={{ title: "requests at or below", unit: "%", tickUnit: "%", domain: [0, 100] }}
      tooltip={{ label: (v) => formatMs(Number(v)), value: (v) => `${v.toFixed(1)}%` }}
      still={still}
    >
      <PercentileMarks at={dist} domain={[dist.min, dist.max]} />
    </ChartContainer>
  );
}
