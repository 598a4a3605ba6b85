"use client";

import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import { ChartFigure } from "@/components/charts/chart-figure";
import { GPU_METRICS, gpuEnergyFacts, gpuFigure, gpuOutsideWindowText } from "@/lib/metrics/figures/gpu";
import type { RunViewProps } from "@/components/run/run-view-props";
import { formatCount, formatNumber, plural } from "@/lib/format-number";

import { GpuSummaryTable } from "@/components/aiperf/gpu-summary-table";
import { EmptyView } from "./empty-view";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

export function GpuView({ run }: RunViewProps) {
  const hasTelemetry = run.files.some((f) => f.kind === "aiperf-gpu-telemetry");
  const gpu = useRunChart(run.id, AIPERF_CHARTS.gpu, hasTelemetry);
  if (!hasTelemetry && typeof run.info.telemetryGpus === "number") return <GpuSummaryTable runId={run.id} />;
  if (!hasTelemetry) {
    return (
      <EmptyView title="No GPU telemetry in this run">
        Upload aiperf gpu_telemetry_export.jsonl to see power, utilisation and memory per GPU.
      </EmptyView>
    );
  }
  const d = gpu.data;
  // Telemetry, but none of it in the run's window: one notice says why, in place of the energy
  // line and three charts that would each say there is nothing to draw.
  const outside = d ? gpuOutsideWindowText(d) : null;
  if (d && outside !== null)
    return (
      <div data-testid="gpu-outside-window">
        <EmptyView title="No GPU telemetry in the profiling window">{outside}</EmptyView>
      </div>
    );
  return (
    <div className="space-y-4">
      <ChartStatus loading={gpu.isLoading} error={gpu.error} what="GPU telemetry" />
      {d ? (
        <>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="gpu-energy">
            {/* The offline report says the same line (lib/metrics/figures/gpu.ts gpuEnergyFacts). */}
            {gpuEnergyFacts(d).map(([k, v]) => (
              <div key={k} className="flex gap-1">
                <dt className="text-muted">{k}</dt>
                <dd className="font-medium">{v}</dd>
              </div>
            ))}
          </dl>
          {d.window && d.window.outside > 0 ? (
            <p className="text-xs text-muted" data-testid="gpu-left-out">
              {formatCount(d.window.outside)} of {plural(d.window.samples, "telemetry sample")} lie outside
              the profiling window (before the first or after the last profiling request) and are not drawn:
              the charts show {formatNumber(d.window.fromS, 1)}–{formatNumber(d.window.toS, 1)} s.
            </p>
          ) : null}
          {d.duplicateGpus > 0 ? (
            <p className="text-xs text-muted" data-testid="gpu-duplicates">
              {plural(d.duplicateGpus, "GPU was", "GPUs were")} scraped through more than one exporter (
              {plural(d.gpus.length, "series", "series")} in all); each appears once per exporter below but
              counts once for energy.
            </p>
          ) : null}
          <div className="grid gap-4 lg:grid-cols-2">
            {GPU_METRICS.map((m) => (
              <ChartFigure key={m} figure={gpuFigure(d, m)} />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}
