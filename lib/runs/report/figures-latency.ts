/** The Latency view's charts for the report: distributions, CDFs and latency over time. */
import type { FigureDefinition } from "@/lib/api/figure";
import type { Figure } from "./html";
import { overTimeFigures } from "./figures-over-time";
import { METRIC_LABEL, reportFigure, type Payloads } from "./figure-kit";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import {
  aiperfLatencyDistributionFigures,
  TRTLLM_DISTRIBUTION_METRICS,
  trtllmLatencyDistributionFigures,
} from "@/lib/metrics/figures/latency-distribution";
import { aiperfTimeslicesFigure } from "@/lib/metrics/figures/timeslices";
import { ttftVsInputFigure } from "@/lib/metrics/figures/ttft-vs-input";

/**
 * The latency distributions, drawn from the descriptions the page draws too
 * (lib/metrics/figures/latency-distribution.ts): per metric, its histogram then its CDF.
 */
function distributionFigures(
  p: Payloads,
  labels: Record<string, string>,
  definition?: FigureDefinition,
): Figure[] {
  const aiperf = p.get(AIPERF_CHARTS.distribution);
  const trtllm = p.get(TRTLLM_CHARTS.latencyDistribution);
  return [
    ...(aiperf
      ? Object.keys(aiperf.metrics).flatMap((m) =>
          aiperfLatencyDistributionFigures(aiperf, m, { label: labels[m] ?? m, definition }),
        )
      : []),
    ...(trtllm
      ? TRTLLM_DISTRIBUTION_METRICS.filter((m) => m in trtllm.metrics).flatMap((m) =>
          trtllmLatencyDistributionFigures(trtllm, m),
        )
      : []),
  ].map(reportFigure);
}

/** TTFT against input length, from the description the Latency view draws too (lib/metrics/figures/ttft-vs-input.ts). */
function ttftVsInput(p: Payloads, definition?: FigureDefinition): Figure[] {
  const payload = p.get(AIPERF_CHARTS.ttftVsInput);
  return payload ? [reportFigure(ttftVsInputFigure(payload, definition))] : [];
}

/** aiperf's own per-slice latency, from the description the Latency view draws too (lib/metrics/figures/timeslices.ts). */
function timeslices(p: Payloads): Figure[] {
  const payload = p.get(AIPERF_CHARTS.timeslices);
  return payload ? [reportFigure(aiperfTimeslicesFigure(payload))] : [];
}

/**
 * The Latency view's figures; `itlLabel` names the per-request ITL in the run's producer's words
 * (vLLM's and SGLang's TPOT, lib/metrics/request-words.ts).
 */
export function latencyFigures(
  p: Payloads,
  itlLabel: string = METRIC_LABEL.itlMs,
  itlShort?: string,
  definition?: FigureDefinition,
): Figure[] {
  return latencyFigureParts(p, itlLabel, itlShort, definition).flatMap((part) => part());
}

/** The latency view's figures in parts, each made when called, in the order of latencyFigures. */
export function latencyFigureParts(
  p: Payloads,
  itlLabel: string = METRIC_LABEL.itlMs,
  itlShort?: string,
  definition?: FigureDefinition,
): Array<() => Figure[]> {
  const labels = { ...METRIC_LABEL, itlMs: itlLabel };
  return [
    () => distributionFigures(p, labels, definition),
    () => overTimeFigures(p, itlShort, definition),
    () => ttftVsInput(p, definition),
    () => timeslices(p),
  ];
}
