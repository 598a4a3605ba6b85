"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { binRange, latencyAxis, PercentileMarks } from "@/components/charts/reference-marks";
import { formatMs } from "@/lib/format-number";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { histogramRows } from "@/lib/metrics/aiperf-chart-rows";

/** Requests per latency bin, with p50/p75/p90/p99 marked. */
export function ChartHistogramLatency({
  dist,
  label,
  population = "successful profiling requests",
}: {
  dist: Distribution;
  label: string;
  /** Which requests the distribution counts, for the description */
  population?: string;
}) {
  const rows = histogramRows(dist);
  return (
    <ChartContainer
      title={`${label}: histogram`}
      description={`${dist.count.toLocaleString("en-US")} ${population} per bin (ms)`}
      csvRows={() => rows.map((r) => ({ startMs: r.start, endMs: r.end, requests: r.count }))}
      exportName="latency-histogram"
      missing={`No successful request has a ${label}: a run whose every request failed has none (see the errors under Throughput); otherwise upload aiperf profile_export.jsonl.`}
      kind="bar"
      data={rows}
      barCategoryGap={1}
      series={{ count: { label: "requests", color: "var(--chart-1)" } }}
      x={latencyAxis(dist, label, "mid")}
      y={{ title: "requests", integers: true }}
      tooltip={{ label: binRange("start", "end", formatMs) }}
    >
      <PercentileMarks at={dist} domain={[dist.min, dist.max]} />
    </ChartContainer>
  );
}
