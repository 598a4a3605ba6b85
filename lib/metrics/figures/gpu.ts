/**
 * The GPU telemetry figures (power, utilisation, memory used), as renderer-neutral descriptions
 * (lib/api/figure.ts): one line per GPU over time. The GPU view (components/run-views/gpu-view.tsx)
 * and the offline report both draw them.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { ColourToken, FigureDescription } from "@/lib/api/figure";
import { formatCount, formatNumber, plural } from "@/lib/format-number";

export type GpuMetric = "powerW" | "utilizationPct" | "memoryUsedGb";

const WORDS: Record<GpuMetric, { title: string; axis: string; unit: string }> = {
  powerW: { title: "GPU power", axis: "power", unit: "W" },
  utilizationPct: { title: "GPU utilisation", axis: "utilisation", unit: "%" },
  memoryUsedGb: { title: "GPU memory used", axis: "memory used", unit: "GB" },
};

export const GPU_METRICS = Object.keys(WORDS) as GpuMetric[];

/** Seconds on the charts' axis, a negative one with the typographic minus ("−412.3 s"). */
const seconds = (s: number) => `${s < 0 ? "−" : ""}${formatNumber(Math.abs(s), 1)} s`;

/**
 * Why the GPU view has nothing to draw when the run has telemetry but no sample in its profiling
 * window (the samples were scraped before the first or after the last profiling request): how
 * many samples, their time range and the window's, said once for the whole view. Null when some
 * sample is in the window, or the run has no window to judge by.
 */
export function gpuOutsideWindowText(payload: ChartPayload<typeof AIPERF_CHARTS.gpu>): string | null {
  const w = payload.window;
  if (w === null || w.samples === 0 || w.outside < w.samples) return null;
  const { firstS: from, lastS: to } = w;
  const samples = `the run's ${formatCount(w.samples)} GPU telemetry ${w.samples === 1 ? "sample" : "samples"}`;
  const where =
    to !== null && to < w.fromS
      ? ", all before the first profiling request"
      : from !== null && from > w.toS
        ? ", all after the last profiling request"
        : "";
  const span =
    from !== null && to !== null ? `: they were taken from ${seconds(from)} to ${seconds(to)}${where}` : "";
  const window = `${span ? ", and" : ":"} the window runs from ${seconds(w.fromS)} to ${seconds(w.toS)} (time from the first request)`;
  return `None of ${samples} is in its profiling window${span}${window}. They say nothing about this benchmark, so there is no power, utilisation, memory or energy to show.`;
}

/** The chart colours in turn, one per GPU. */
const colourOf = (i: number) => `chart-${(i % 8) + 1}` as ColourToken;

export function gpuFigure(
  payload: ChartPayload<typeof AIPERF_CHARTS.gpu>,
  metric: GpuMetric,
): FigureDescription {
  const { title, axis, unit } = WORDS[metric];
  // Only the profiling window is drawn: a sample before the first request or after the last says
  // nothing about the benchmark, and drawn beside the others it read as part of it.
  const w = payload.window;
  const inside = (tS: number) => w === null || (tS >= w.fromS && tS <= w.toS);
  const left =
    w && w.outside > 0
      ? w.outside === w.samples
        ? `; all ${formatCount(w.samples)} samples lie outside the profiling window, none drawn`
        : `; ${formatCount(w.outside)} of ${formatCount(w.samples)} samples outside the profiling window (${formatNumber(w.fromS, 1)}–${formatNumber(w.toS, 1)} s) left out`
      : "";
  return {
    id: `${AIPERF_CHARTS.gpu.key}-${metric}`,
    exportName: `gpu-${metric}`,
    kind: "line",
    title,
    description: `${unit} per GPU over time (s from the first request)${left}`,
    definition: {
      window: w
        ? "the profiling window: telemetry samples from the first profiling request's start to the last one's end"
        : "every telemetry sample, which may start before the first request or end after the last",
      method: "DCGM gauge samples per GPU (a level at each instant, not a window average)",
    },
    missing:
      w && w.samples > 0 && w.outside === w.samples
        ? `Every telemetry sample (${formatCount(w.samples)}) is from before the first or after the last profiling request: none is drawn, as none says anything about this benchmark.`
        : `The GPU telemetry has no ${title.toLowerCase()} samples: the exporter did not report this field.`,
    x: { label: "time from the first request", unit: "s" },
    y: { label: axis, unit },
    series: payload.gpus.map((g, i) => ({
      key: `gpu${i}`,
      name: g.label,
      colour: colourOf(i),
      points: g.points.filter((pt) => inside(pt.tS)).map((pt) => [pt.tS, pt[metric]] as const),
    })),
    legend: true,
  };
}

/**
 * The GPU view's energy line, as the view lists it and the offline report says it too: how many
 * GPUs, the energy in the profiling window and per output token (docs/metrics.md §GPU telemetry).
 * Empty when no sample is in the profiling window (`gpuOutsideWindowText` says why instead).
 */
export function gpuEnergyFacts(payload: ChartPayload<typeof AIPERF_CHARTS.gpu>): Array<[string, string]> {
  if (gpuOutsideWindowText(payload) !== null) return [];
  const d = payload;
  return [
    [
      "GPUs",
      `${formatCount(d.distinctGpus)}${d.duplicateGpus > 0 ? ` (${plural(d.gpus.length, "exporter series", "exporter series")})` : ""}`,
    ],
    ["energy in the profiling window", d.energyJ === null ? "—" : `${formatNumber(d.energyJ / 1000, 2)} kJ`],
    [
      "energy per output token",
      d.energyPerOutputTokenJ !== null
        ? `${formatNumber(d.energyPerOutputTokenJ, 3)} J`
        : d.outputTokens === null
          ? "— (upload profile_export.jsonl too)"
          : "— (fewer than two energy samples inside the profiling window)",
    ],
  ];
}
