"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { paletteColor, secondsTick } from "@/components/charts/chart-theme";
import type { GpuPayload } from "@/lib/api/aiperf-charts";
import { gpuRows, type GpuMetric } from "@/lib/metrics/aiperf-chart-rows";

const TITLES: Record<GpuMetric, { title: string; unit: string }> = {
  powerW: { title: "GPU power", unit: "W" },
  utilizationPct: { title: "GPU utilisation", unit: "%" },
  memoryUsedGb: { title: "GPU memory used", unit: "GB" },
};

/** One line per GPU for one telemetry metric, seconds from the run's first request. */
export function ChartLineGpu({ data, metric }: { data: GpuPayload; metric: GpuMetric }) {
  const rows = gpuRows(data, metric);
  const { title, unit } = TITLES[metric];
  const label = (k: string) => (k === "tS" ? k : (data.gpus[Number(k.slice(3))]?.label ?? k));
  const line = (label: string, i: number) => ({
    label,
    color: paletteColor(i),
    unit: ` ${unit}`,
    connectNulls: true,
  });
  return (
    <ChartContainer
      title={title}
      description={`${unit} per GPU over time (s from the first request)`}
      definition={{
        window: "every telemetry sample, which may start before the first request or end after the last",
        method: "DCGM gauge samples per GPU (a level at each instant, not a window average)",
      }}
      csvRows={() => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [label(k), v])))}
      exportName={`gpu-${metric}`}
      missing={`The GPU telemetry has no ${title.toLowerCase()} samples: the exporter did not report this field.`}
      kind="line"
      data={rows}
      series={Object.fromEntries(data.gpus.map((g, i) => [`gpu${i}`, line(g.label, i)]))}
      x={{ key: "tS", numeric: true, title: "time from the first request", unit: "s", format: secondsTick }}
      y={{ title: title.replace(/^GPU /, ""), unit, tickUnit: unit === "%" ? "%" : undefined }}
      legend
    />
  );
}
