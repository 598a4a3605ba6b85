/**
 * The latency-over-time figure of aiperf's records and of TensorRT-LLM's perf metrics, as a
 * renderer-neutral description (lib/api/figure.ts): each request's latency at its start. The run
 * page (components/charts/chart-figure.tsx) and the offline report (lib/runs/report) both draw it
 * from here, so title, axes, units and series names are the same in both. Labels and units come
 * from the metric catalog (lib/api/metric-catalog.ts).
 */
import { AIPERF_CHARTS, TRTLLM_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import {
  AIPERF_SUCCESSFUL,
  TRTLLM_COMPLETED,
  type FigureDefinition,
  type FigureDescription,
} from "@/lib/api/figure";
import { METRICS, type MetricDef } from "@/lib/api/metric-catalog";
import { formatCount, ordinal, plural } from "@/lib/format-number";

export type AiperfOverTimeMetric = "ttftMs" | "e2eMs" | "itlMs";
export type TrtllmOverTimeMetric = "ttftMs" | "e2eMs" | "tpotMs";

const AIPERF_METRIC: Record<AiperfOverTimeMetric, MetricDef> = {
  ttftMs: METRICS.ttft,
  e2eMs: METRICS.e2e,
  itlMs: METRICS.itl,
};

const TRTLLM_METRIC: Record<TrtllmOverTimeMetric, MetricDef> = {
  ttftMs: METRICS.trtllmTtft,
  e2eMs: METRICS.trtllmE2e,
  tpotMs: METRICS.trtllmTpot,
};

export const AIPERF_OVER_TIME_METRICS = Object.keys(AIPERF_METRIC) as AiperfOverTimeMetric[];
export const TRTLLM_OVER_TIME_METRICS = Object.keys(TRTLLM_METRIC) as TrtllmOverTimeMetric[];

interface OverTimeData {
  total: number;
  points: ReadonlyArray<{ tS: number } & Record<string, number | null>>;
}

interface Words {
  key: string;
  metric: string;
  label: string;
  unit: string;
  definition: FigureDefinition;
  missing: string;
}

function overTimeFigure(data: OverTimeData, w: Words): FigureDescription {
  const sampled = data.points.length < data.total;
  const every = Math.round(data.total / Math.max(1, data.points.length));
  const sample =
    every >= 2
      ? `every ${ordinal(every)} of ${plural(data.total, "request")}`
      : `${formatCount(data.points.length)} of ${plural(data.total, "request")}`;
  return {
    id: `${w.key}-${w.metric}`,
    exportName: "latency-over-time",
    kind: "scatter",
    title: `${w.label} over time`,
    description: `By request start, seconds from the first request${sampled ? ` · ${sample}` : ""}`,
    definition: w.definition,
    missing: w.missing,
    x: { label: "Request start", unit: "s" },
    y: { label: w.label, unit: w.unit },
    series: [
      {
        key: "value",
        name: w.label,
        colour: "chart-1",
        points: data.points.map((p) => [p.tS, p[w.metric] ?? null] as const),
      },
    ],
    legend: false,
  };
}

/**
 * aiperf's latency over time for one metric. `itlName` is the per-request ITL in the words of the
 * tool that measured it (vLLM's and SGLang's "TPOT", lib/metrics/request-words.ts).
 */
export function aiperfLatencyOverTimeFigure(
  payload: ChartPayload<typeof AIPERF_CHARTS.overTime>,
  metric: AiperfOverTimeMetric,
  opts: { itlName?: string; definition?: FigureDefinition } = {},
): FigureDescription {
  const def = AIPERF_METRIC[metric];
  const label = metric === "itlMs" && opts.itlName ? opts.itlName : def.label;
  return overTimeFigure(payload, {
    key: AIPERF_CHARTS.overTime.key,
    metric,
    label,
    unit: def.unit,
    definition: opts.definition ?? AIPERF_SUCCESSFUL,
    missing: `No successful request has a ${label}: a run whose every request failed has none (see the errors under Throughput); otherwise upload aiperf profile_export.jsonl.`,
  });
}

/** TensorRT-LLM's latency over time (perf metrics, server stamps) for one metric. */
export function trtllmLatencyOverTimeFigure(
  payload: ChartPayload<typeof TRTLLM_CHARTS.latencyOverTime>,
  metric: TrtllmOverTimeMetric,
): FigureDescription {
  const def = TRTLLM_METRIC[metric];
  return overTimeFigure(payload, {
    key: TRTLLM_CHARTS.latencyOverTime.key,
    metric,
    label: def.label,
    unit: def.unit,
    definition: TRTLLM_COMPLETED,
    missing:
      metric === "tpotMs"
        ? `No completed request has a ${def.label}: it needs the step metrics (return_perf_metrics on).`
        : `No completed request in the perf metrics has a ${def.label}.`,
  });
}
