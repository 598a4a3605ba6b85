"use client";

import { ToggleGroup } from "@/components/breakdown/breakdown-controls";
import { ChartFigure } from "@/components/charts/chart-figure";
import { ChartStatus } from "@/components/charts/chart-status";
import { useAfterPaint } from "@/components/charts/use-after-paint";
import { useRunChart } from "@/components/charts/use-run-chart";
import { useStillFigure } from "@/components/run/still-figures";

import type { TimeBreakdownBlock } from "@/lib/api/schemas";
import { formatMs, plural } from "@/lib/format-number";

import {
  missingText,
  TRTLLM_LATENCY_OPTIONS,
  trtllmLatencyDefinitions,
  trtllmLatencyLabel,
  type TrtllmLatencyId,
} from "./latency-definitions";
import { TrtllmLatencyStatsTable } from "./latency-stats-table";
import { TrtllmSlowestRequests } from "./slowest-requests";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { trtllmLatencyOverTimeFigure } from "@/lib/metrics/figures/latency-over-time";
import { trtllmLatencyDistributionFigures } from "@/lib/metrics/figures/latency-distribution";

interface Props {
  runId: string;
  breakdown: TimeBreakdownBlock & { latency: NonNullable<TimeBreakdownBlock["latency"]> };
  metric: TrtllmLatencyId;
  onMetric: (m: TrtllmLatencyId) => void;
}

/** The latency view of a run whose per-request latency comes from TensorRT-LLM perf metrics. */
export function TrtllmLatencySection({ runId, breakdown, metric, onMetric }: Props) {
  const dist = useRunChart(runId, TRTLLM_CHARTS.latencyDistribution);
  // The scatter (up to 2,000 points) is fetched and drawn once the histogram has painted.
  const afterFirst = useAfterPaint(!dist.isLoading);
  const overTime = useRunChart(runId, TRTLLM_CHARTS.latencyOverTime, !dist.isLoading);
  const label = trtllmLatencyLabel(metric);
  // The server's drawing of the distribution (lib/runs/first-figures.ts), until the charts draw.
  const stills = {
    histogram: useStillFigure(`latency-histogram/${metric}`),
    cdf: useStillFigure(`latency-cdf/${metric}`),
  };
  const d = dist.data?.metrics[metric] ?? null;
  const pointCount = overTime.data?.points.filter((p) => p[metric] !== null).length ?? 0;
  // The distribution comes first and the statistics table and definitions follow it, so a 390 px
  // phone shows the histogram on its first screen.
  return (
    <div className="space-y-4" data-testid="trtllm-latency">
      <p className="text-sm text-muted">
        From TensorRT-LLM perf metrics: {plural(breakdown.requestCount, "request")}, {breakdown.mode} serving.
      </p>
      <ToggleGroup
        label="metric"
        // A metric no request recorded is not offered as if it had a chart (TPOT without step metrics).
        options={TRTLLM_LATENCY_OPTIONS.map((o) => ({
          id: o.id,
          text: o.short,
          ...(breakdown.latency[o.id] === null
            ? { disabled: `${o.short} is not recorded in this run: ${missingText(o.id)}` }
            : {}),
        }))}
        value={metric}
        onChange={onMetric}
      />
      <ChartStatus loading={dist.isLoading} error={dist.error} what="distribution" />
      {d && d.count > 1 && dist.data ? (
        <div className="grid gap-4 lg:grid-cols-2">
          {trtllmLatencyDistributionFigures(dist.data, metric).map((f) => (
            <ChartFigure
              key={f.id}
              figure={f}
              still={f.kind === "histogram" ? stills.histogram : stills.cdf}
            />
          ))}
        </div>
      ) : d ? (
        <p className="text-sm text-muted" data-testid="trtllm-latency-missing">
          One request recorded {label.toLowerCase()} ({formatMs(d.p50)}): a distribution needs more than one.
        </p>
      ) : dist.data ? (
        <p className="text-sm text-muted" data-testid="trtllm-latency-missing">
          {capitalised(missingText(metric))}.
        </p>
      ) : null}
      <TrtllmLatencyStatsTable latency={breakdown.latency} />
      <dl className="space-y-1 text-xs text-muted" data-testid="trtllm-latency-definitions">
        {trtllmLatencyDefinitions(breakdown.mode, breakdown.latency).map((def) => (
          <div key={def.term}>
            <dt className="inline font-medium text-fg">{def.term}: </dt>
            <dd className="inline">{def.text}</dd>
          </div>
        ))}
      </dl>
      {afterFirst && overTime.data && pointCount > 1 ? (
        <ChartFigure figure={trtllmLatencyOverTimeFigure(overTime.data, metric)} />
      ) : null}
      <TrtllmSlowestRequests runId={runId} metric={metric} label={label} enabled={afterFirst} />
    </div>
  );
}

const capitalised = (s: string) => s[0].toUpperCase() + s.slice(1);
