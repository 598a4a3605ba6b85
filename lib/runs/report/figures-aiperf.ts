/** The Throughput and GPU views' charts for the report, from aiperf's records and telemetry. */
import type { z } from "zod";
import { timelinePayloadSchema } from "@/lib/api/aiperf-charts";
import { formatNumber } from "@/lib/format-number";
import type { Figure, Section } from "./html";
import { figure, reportFigure, type Payloads } from "./figure-kit";
import { aiperfErrorsFigure } from "@/lib/metrics/figures/errors";
import { aiperfInFlightFigure } from "@/lib/metrics/figures/timeline";
import { GPU_METRICS, gpuFigure } from "@/lib/metrics/figures/gpu";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

type TimelinePoint = z.infer<typeof timelinePayloadSchema>["points"][number];

const TIME = { title: "Time since the run's first request", unit: "s" };

export function throughputFigures(p: Payloads): Figure[] {
  const tl = p.get(AIPERF_CHARTS.timeline);
  const out: Figure[] = [];
  if (tl) {
    const line = (label: string, pick: (pt: TimelinePoint) => number) => ({
      label,
      points: tl.points.map((pt) => [pt.tS, pick(pt)] as const),
    });
    out.push(
      figure(
        `${AIPERF_CHARTS.timeline.key}-requests`,
        "Requests per second",
        `Each request spread evenly over its lifetime, start to end (the area is every request once), per ${formatNumber(tl.bucketS, 3)} s; failed requests as errors per second beside them.`,
        {
          kind: "line",
          x: TIME,
          y: { title: "Rate", unit: "req/s" },
          series: [line("requests/s", (pt) => pt.requestsPerS), line("errors/s", (pt) => pt.errorsPerS)],
        },
        "the run is too short for two time buckets",
      ),
      figure(
        `${AIPERF_CHARTS.timeline.key}-tokens`,
        "Output tokens per second",
        "Each request's tokens spread over its decode.",
        {
          kind: "line",
          x: TIME,
          y: { title: "Output throughput", unit: "tok/s" },
          series: [line("output tokens/s", (pt) => pt.outputTokensPerS)],
        },
        "the records carry no output token counts",
      ),
    );
    // Drawn from the description the Throughput view draws too (lib/metrics/figures/timeline.ts).
    out.push(reportFigure(aiperfInFlightFigure(tl)));
  }
  // Drawn from the description the Throughput view draws too (lib/metrics/figures/errors.ts).
  const errors = p.get(AIPERF_CHARTS.errors);
  if (errors && errors.total > 0) out.push(reportFigure(aiperfErrorsFigure(errors)));
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

/** The GPU view's figures, from the descriptions it draws too (lib/metrics/figures/gpu.ts). */
export function gpuFigures(p: Payloads): Figure[] {
  const gpu = p.get(AIPERF_CHARTS.gpu);
  return gpu ? GPU_METRICS.map((m) => reportFigure(gpuFigure(gpu, m))) : [];
}
