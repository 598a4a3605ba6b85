/**
 * The latency distribution figures of aiperf's records and of TensorRT-LLM's perf metrics, as
 * renderer-neutral descriptions (lib/api/figure.ts): requests per bin (a histogram) and the share
 * of requests at or below each value (a CDF), each with its p50, p75, p90 and p99 marked. The run
 * page (components/charts/chart-figure.tsx) and the offline report (lib/runs/report) both draw
 * them from here.
 */
import type { Distribution } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS, TRTLLM_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import {
  AIPERF_SUCCESSFUL,
  TRTLLM_COMPLETED,
  type ColourToken,
  type FigureDefinition,
  type FigureDescription,
  type FigureMark,
} from "@/lib/api/figure";
import { formatMs, plural } from "@/lib/format-number";
import { latencyName } from "@/lib/api/metric-catalog";

export type TrtllmDistributionMetric = "ttftMs" | "e2eMs" | "tpotMs";

export const TRTLLM_DISTRIBUTION_METRICS: readonly TrtllmDistributionMetric[] = ["ttftMs", "e2eMs", "tpotMs"];

// Close percentiles (p90 ≈ p99 in a tight run) each have their own colour and label row.
const PERCENTILES: ReadonlyArray<{ key: "p50" | "p75" | "p90" | "p99"; colour: ColourToken }> = [
  { key: "p50", colour: "chart-5" },
  { key: "p75", colour: "chart-6" },
  { key: "p90", colour: "chart-3" },
  { key: "p99", colour: "chart-7" },
];

interface Words {
  key: string;
  metric: string;
  label: string;
  /** Which requests it counts, a singular noun ("completed request") */
  population: string;
  definition: FigureDefinition;
  missing: string;
}

/** The span of the bins (round edges: the first and last bars whole, ticks on bin edges). */
function span(d: Distribution): readonly [number, number] {
  return [Math.min(d.min, d.bins[0]?.start ?? d.min), Math.max(d.max, d.bins.at(-1)?.end ?? d.max)];
}

const marks = (d: Distribution | null): FigureMark[] =>
  d ? PERCENTILES.map((p) => ({ x: d[p.key], label: p.key, colour: p.colour })) : [];

/**
 * "Requests per 5 ms bin, of 198 successful profiling requests": the bin width, then how many
 * requests the bars hold ("198 … requests per bin" read as 198 in every bin).
 */
function binsDescription(d: Distribution | null, population: string): string {
  const first = d?.bins[0];
  const width = first ? `${formatMs(first.end - first.start)} ` : "";
  return `Requests per ${width}bin, of ${plural(d?.count ?? 0, population)}`;
}

function histogramFigure(d: Distribution | null, w: Words): FigureDescription {
  const bins = (d?.bins ?? []).map((b) => ({ lo: b.start, hi: b.end, count: b.count }));
  return {
    id: `${w.key}-${w.metric}-histogram`,
    exportName: "latency-histogram",
    kind: "histogram",
    title: `${w.label}: histogram`,
    description: binsDescription(d, w.population),
    definition: w.definition,
    missing: w.missing,
    x: { label: w.label, unit: "ms", ...(d ? { domain: span(d) } : {}) },
    y: { label: "requests", unit: "", integers: true },
    series: [
      {
        key: "count",
        name: "requests",
        colour: "chart-1",
        points: bins.map((b) => [(b.lo + b.hi) / 2, b.count] as const),
      },
    ],
    bins,
    marks: marks(d),
    legend: false,
  };
}

function cdfFigure(d: Distribution | null, w: Words): FigureDescription {
  return {
    id: `${w.key}-${w.metric}-cdf`,
    exportName: "latency-cdf",
    kind: "line",
    title: `${w.label}: CDF`,
    description: `Percent of ${w.population}s at or below each value`,
    definition: w.definition,
    missing: w.missing,
    x: { label: w.label, unit: "ms", ...(d ? { domain: span(d) } : {}) },
    y: { label: "requests at or below", unit: "%", domain: [0, 100] },
    series: [
      {
        key: "percent",
        name: "requests ≤ value",
        colour: "chart-2",
        points: (d?.cdf ?? []).map((c) => [c.value, c.fraction * 100] as const),
      },
    ],
    step: true,
    marks: marks(d),
    legend: false,
  };
}

/**
 * aiperf's latency distribution of one metric, its histogram then its CDF. `label` names the
 * metric in the run's tool's words (vLLM's and SGLang's TPOT for the ITL, lib/metrics/request-words.ts).
 */
export function aiperfLatencyDistributionFigures(
  payload: ChartPayload<typeof AIPERF_CHARTS.distribution>,
  metric: string,
  opts: { label: string; definition?: FigureDefinition },
): [FigureDescription, FigureDescription] {
  const w: Words = {
    key: AIPERF_CHARTS.distribution.key,
    metric,
    label: opts.label,
    population: "successful profiling request",
    definition: opts.definition ?? AIPERF_SUCCESSFUL,
    missing: `No successful request has a ${opts.label}: a run whose every request failed has none (see the errors under Throughput); otherwise upload aiperf profile_export.jsonl.`,
  };
  const d = payload.metrics[metric] ?? null;
  return [histogramFigure(d, w), cdfFigure(d, w)];
}

/** TensorRT-LLM's latency distribution (perf metrics, server stamps) of one metric: histogram, CDF. */
export function trtllmLatencyDistributionFigures(
  payload: ChartPayload<typeof TRTLLM_CHARTS.latencyDistribution>,
  metric: TrtllmDistributionMetric,
): [FigureDescription, FigureDescription] {
  const label = latencyName(metric);
  const w: Words = {
    key: TRTLLM_CHARTS.latencyDistribution.key,
    metric,
    label,
    population: "completed request",
    definition: TRTLLM_COMPLETED,
    missing:
      metric === "tpotMs"
        ? `No completed request has a ${label}: it needs the step metrics (return_perf_metrics on).`
        : `No completed request in the perf metrics has a ${label}.`,
  };
  const d = payload.metrics[metric] ?? null;
  return [histogramFigure(d, w), cdfFigure(d, w)];
}
