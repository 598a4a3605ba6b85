/** The Throughput and GPU views' charts for the report, from aiperf's records and telemetry. */
import { formatNumber } from "@/lib/format-number";
import type { Figure, Section } from "./html";
import { reportFigure, type Payloads } from "./figure-kit";
import { aiperfErrorsFigure, errorsDenominator } from "@/lib/metrics/figures/errors";
import type { RequestsBlock } from "@/lib/api/schemas";
import { aiperfInFlightFigure, aiperfThroughputFigure } from "@/lib/metrics/figures/timeline";
import { GPU_METRICS, gpuEnergyFacts, gpuFigure, gpuOutsideWindowText } from "@/lib/metrics/figures/gpu";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

/** The Throughput view's figures: the throughput, the requests in flight and the errors by type. */
export function throughputFigures(p: Payloads, requests: RequestsBlock | null): Figure[] {
  const tl = p.get(AIPERF_CHARTS.timeline);
  const out: Figure[] = [];
  // Drawn from the descriptions the Throughput view draws too (lib/metrics/figures/timeline.ts).
  if (tl) out.push(reportFigure(aiperfThroughputFigure(tl)), reportFigure(aiperfInFlightFigure(tl)));
  // Drawn from the description the Throughput view draws too (lib/metrics/figures/errors.ts).
  const errors = p.get(AIPERF_CHARTS.errors);
  if (errors && errors.total > 0)
    out.push(reportFigure(aiperfErrorsFigure(errors, errorsDenominator(requests))));
  return out;
}

/** aiperf's own per-GPU statistics (summary telemetry_data), where no samples were uploaded. */
export function gpuSummaryTables(p: Payloads): Section["blocks"] {
  const d = p.get(AIPERF_CHARTS.gpuSummary);
  if (!d) return [];
  const n = (v: number | null, digits: number, unit: string) =>
    v === null ? "—" : `${formatNumber(v, digits)}${unit}`;
  return [
    {
      kind: "table",
      title: "GPUs (aiperf summary telemetry_data; busy: utilisation or memory used above 0)",
      table: {
        columns: [
          "GPU",
          "busy",
          "power avg",
          "power max",
          "utilisation avg",
          "utilisation max",
          "memory used max",
          "energy",
        ],
        rows: d.gpus.map((g) => [
          g.model ? `${g.label} (${g.model})` : g.label,
          g.busy === null ? "—" : g.busy ? "yes" : "idle",
          n(g.powerAvgW, 1, " W"),
          n(g.powerMaxW, 1, " W"),
          n(g.utilizationAvgPct, 1, " %"),
          n(g.utilizationMaxPct, 1, " %"),
          n(g.memoryUsedMaxGb, 2, " GB"),
          g.energyJ === null ? "—" : `${formatNumber(g.energyJ / 1000, 2)} kJ`,
        ]),
      },
    },
  ];
}

/**
 * The GPU view's energy line (GPUs, energy in the profiling window, per output token), as the
 * view says it, where the run has telemetry in its window.
 */
export function gpuEnergyBlocks(p: Payloads): Section["blocks"] {
  const gpu = p.get(AIPERF_CHARTS.gpu);
  const facts = gpu ? gpuEnergyFacts(gpu) : [];
  return facts.length === 0 ? [] : [{ kind: "facts", facts }];
}

/**
 * The GPU view's notice, as the view says it: telemetry, but no sample in the profiling window, is
 * one note for the whole view (how many samples, their span and the window's), not the same
 * "outside the window" line under each of three empty figures.
 */
export function gpuOutsideWindowBlocks(p: Payloads): Section["blocks"] {
  const gpu = p.get(AIPERF_CHARTS.gpu);
  const outside = gpu ? gpuOutsideWindowText(gpu) : null;
  return outside === null
    ? []
    : [{ kind: "note", text: `No GPU telemetry in the profiling window. ${outside}` }];
}

/**
 * The GPU view's figures, from the descriptions it draws too (lib/metrics/figures/gpu.ts); none
 * when no sample is in the profiling window (`gpuOutsideWindowBlocks` says so once).
 */
export function gpuFigures(p: Payloads): Figure[] {
  const gpu = p.get(AIPERF_CHARTS.gpu);
  if (!gpu || gpuOutsideWindowText(gpu) !== null) return [];
  return GPU_METRICS.map((m) => reportFigure(gpuFigure(gpu, m)));
}
