"use client";

import { useQueries } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { ChartLineCompareCdf } from "@/components/charts/chart-line-compare-cdf";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { LATENCY_METRICS } from "@/lib/api/aiperf-charts";
import type { LatencyField } from "@/lib/api/metric-catalog";
import { compareCdfFigure, compareCdfLabel, compareCdfMetrics } from "@/lib/metrics/figures/compare-cdf";
import { ChartPicker } from "./chart-picker";
import { compareSearchParams } from "./search-params";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

/** Latency CDF overlay from each run's stored distribution payload (aiperf's, else TensorRT-LLM's); runs without one are left out. */
export function CompareCdf({ data }: { data: CompareResponse }) {
  const [metric, setMetric] = useQueryState("metric", compareSearchParams.metric);
  // Each run's aiperf distribution, else its TensorRT-LLM one (one payload shape), as the report reads them.
  const withDist = data.runs.flatMap((run, index) => {
    const keys = data.chartKeys[run.id] ?? [];
    const chart = keys.includes(AIPERF_CHARTS.distribution.key)
      ? AIPERF_CHARTS.distribution
      : keys.includes(TRTLLM_CHARTS.latencyDistribution.key)
        ? TRTLLM_CHARTS.latencyDistribution
        : null;
    return chart ? [{ run, index, chart }] : [];
  });
  const results = useQueries({
    queries: withDist.map(({ run, chart }) => runChartQueryOptions(run.id, chart)),
  });
  if (withDist.length === 0) return null;
  const runs = withDist.map(({ run, index }, i) => ({
    id: run.id,
    name: run.name,
    index,
    distribution: results[i]?.data ?? null,
  }));
  // The client's three, and the server's TPOT where a TensorRT-LLM run has it.
  const metrics = [...LATENCY_METRICS, ...compareCdfMetrics(runs).filter((m) => m === "tpotMs")];
  // The metrics' names in the compared runs' words: vLLM's and SGLang's per-request ITL is their TPOT.
  const label = (m: LatencyField) => compareCdfLabel(data.runs, m);
  const picker = (
    <ChartPicker<LatencyField>
      label="Latency metric"
      value={metric}
      defaultValue="ttftMs"
      options={metrics.map((m) => [m, label(m)] as const)}
      onPick={(v) => void setMetric(v)}
    />
  );
  const figure = compareCdfFigure(runs, metric, label(metric));
  return <ChartLineCompareCdf figure={figure} actions={picker} />;
}
