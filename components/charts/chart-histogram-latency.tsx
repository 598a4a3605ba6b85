"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { binRange, latencyAxis, PercentileMarks } from "@/components/charts/reference-marks";
import { formatMs, plural } from "@/lib/format-number";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { histogramRows } from "@/lib/metrics/aiperf-chart-rows";
import { AIPERF_SUCCESSFUL, type FigureDefinition } from "@/components/charts/definitions";

/** What a latency distribution figure (histogram, CDF) is drawn from. */
export interface LatencyDistributionProps {
  dist: Distribution;
  label: string;
  /** Which requests the distribution counts (singular noun), for the description */
  population?: string;
  /** Which window, requests and method (definitions.ts) */
  definition?: FigureDefinition;
  /** The figure the server drew (lib/runs/first-figures.ts), shown until this one is drawn */
  still?: string;
}

/** Requests per latency bin, with p50/p75/p90/p99 marked. */
export function ChartHistogramLatency({
  dist,
  label,
  population = "successful profiling request",
  definition = AIPERF_SUCCESSFUL,
  still,
}: LatencyDistributionProps) {
  const rows = histogramRows(dist);
  return (
    <ChartContainer
      title={`${label}: histogram`}
      description={`${plural(dist.count, population)} per bin (ms)`}
      csvRows={() => rows.map((r) => ({ startMs: r.start, endMs: r.end, requests: r.count }))}
      definition={definition}
      exportName="latency-histogram"
      missing={`No successful request has a ${label}: a run whose every request failed has none (see the errors under Throughput); otherwise upload aiperf profile_export.jsonl.`}
      kind="bar"
      data={rows}
      barCategoryGap={1}
      series={{ count: { label: "requests", color: "var(--chart-1)" } }}
      x={latencyAxis(dist, label, "mid")}
      y={{ title: "requests", integers: true }}
      tooltip={{ label: binRange("start", "end", formatMs) }}
      still={still}
    >
      <PercentileMarks at={dist} domain={[dist.min, dist.max]} />
    </ChartContainer>
  );
}
