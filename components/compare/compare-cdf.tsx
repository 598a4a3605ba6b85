"use client";

import { useQueries } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { ChartLineCompareCdf } from "@/components/charts/chart-line-compare-cdf";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { LATENCY_METRICS, type LatencyMetric } from "@/lib/api/aiperf-charts";
import { cdfPoints } from "@/lib/metrics/compare-chart-rows";
import { formatCount } from "@/lib/format-number";
import { itlWordsOf } from "@/lib/metrics/request-words";
import { runColor } from "./run-colors";
import { ChartPicker } from "./chart-picker";
import { compareSearchParams } from "./search-params";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

const LABELS: Record<LatencyMetric, string> = { ttftMs: "TTFT", e2eMs: "E2E latency", itlMs: "ITL" };

/** The metrics' names in the compared runs' words: vLLM's and SGLang's per-request ITL is their TPOT. */
const labelsFor = (data: CompareResponse): Record<LatencyMetric, string> => ({
  ...LABELS,
  itlMs: itlWordsOf(data.runs).short,
});

/** Latency CDF overlay from each run's stored aiperf distribution payload; runs without one are left out. */
export function CompareCdf({ data }: { data: CompareResponse }) {
  const [metric, setMetric] = useQueryState("metric", compareSearchParams.metric);
  const withDist = data.runs
    .map((r, i) => ({ run: r, color: runColor(i) }))
    .filter(({ run }) => data.chartKeys[run.id]?.includes(AIPERF_CHARTS.distribution.key));
  const results = useQueries({
    queries: withDist.map(({ run }) => runChartQueryOptions(run.id, AIPERF_CHARTS.distribution)),
  });
  if (withDist.length === 0) return null;
  const labels = labelsFor(data);
  const series = withDist.flatMap(({ run, color }, i) => {
    const dist = results[i]?.data?.metrics[metric];
    return dist ? [{ runId: run.id, run: run.name, color, points: cdfPoints(dist.cdf) }] : [];
  });
  const picker = (
    <ChartPicker<LatencyMetric>
      label="Latency metric"
      value={metric}
      defaultValue="ttftMs"
      options={LATENCY_METRICS.map((m) => [m, labels[m]] as const)}
      onPick={(v) => void setMetric(v)}
    />
  );
  // A run whose records are a sample of its aiperf summary is drawn from that sample, and says so.
  const samples = withDist.flatMap(({ run }, i) => {
    const s = results[i]?.data?.sample;
    return s ? [`${run.name}: ${formatCount(s.records)} of ${formatCount(s.described)} requests`] : [];
  });
  return <ChartLineCompareCdf series={series} label={labels[metric]} actions={picker} samples={samples} />;
}
