/**
 * The GPU telemetry figures (power, utilisation, memory used), as renderer-neutral descriptions
 * (lib/api/figure.ts): one line per GPU over time. The GPU view (components/run-views/gpu-view.tsx)
 * and the offline report both draw them.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { ColourToken, FigureDescription } from "@/lib/api/figure";

export type GpuMetric = "powerW" | "utilizationPct" | "memoryUsedGb";

const WORDS: Record<GpuMetric, { title: string; axis: string; unit: string }> = {
  powerW: { title: "GPU power", axis: "power", unit: "W" },
  utilizationPct: { title: "GPU utilisation", axis: "utilisation", unit: "%" },
  memoryUsedGb: { title: "GPU memory used", axis: "memory used", unit: "GB" },
};

export const GPU_METRICS = Object.keys(WORDS) as GpuMetric[];

/** The chart colours in turn, one per GPU. */
const colourOf = (i: number) => `chart-${(i % 8) + 1}` as ColourToken;

export function gpuFigure(
  payload: ChartPayload<typeof AIPERF_CHARTS.gpu>,
  metric: GpuMetric,
): FigureDescription {
  const { title, axis, unit } = WORDS[metric];
  return {
    id: `${AIPERF_CHARTS.gpu.key}-${metric}`,
    exportName: `gpu-${metric}`,
    kind: "line",
    title,
    description: `${unit} per GPU over time (s from the first request)`,
    definition: {
      window: "every telemetry sample, which may start before the first request or end after the last",
      method: "DCGM gauge samples per GPU (a level at each instant, not a window average)",
    },
    missing: `The GPU telemetry has no ${title.toLowerCase()} samples: the exporter did not report this field.`,
    x: { label: "time from the first request", unit: "s" },
    y: { label: axis, unit },
    series: payload.gpus.map((g, i) => ({
      key: `gpu${i}`,
      name: g.label,
      colour: colourOf(i),
      points: g.points.map((pt) => [pt.tS, pt[metric]] as const),
    })),
    legend: true,
  };
}
