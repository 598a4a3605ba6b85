/** The Latency view's charts for the report: distributions, CDFs and latency over time. */
import type { FigureDefinition } from "@/lib/api/figure";
import type { RunSummary } from "@/lib/api/schemas";
import { latencyLabel, requestWords } from "@/lib/metrics/request-words";
import type { Figure } from "./html";
import { overTimeFigures } from "./figures-over-time";
import { reportFigure, type Payloads } from "./figure-kit";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { LATENCY_METRICS } from "@/lib/api/aiperf-charts";
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
function distributionFigures(p: Payloads, run: RunLike, definition?: FigureDefinition): Figure[] {
  const aiperf = p.get(AIPERF_CHARTS.distribution);
  const trtllm = p.get(TRTLLM_CHARTS.latencyDistribution);
  return [
    ...(aiperf
      ? LATENCY_METRICS.filter((m) => m in aiperf.metrics).flatMap((m) =>
          aiperfLatencyDistributionFigures(aiperf, m, { label: latencyLabel(run, m), definition }),
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

/** What the latency figures read of a run: whose words its requests are in. */
type RunLike = Pick<RunSummary, "info" | "requests">;

/**
 * The Latency view's figures in parts, each made when called: each metric named as the view names
 * it (the metric catalog's words, the per-request ITL in the run's producer's: vLLM's and SGLang's
 * TPOT, lib/metrics/request-words.ts).
 */
export function latencyFigureParts(
  p: Payloads,
  run: RunLike,
  definition?: FigureDefinition,
): Array<() => Figure[]> {
  return [
    () => distributionFigures(p, run, definition),
    () => overTimeFigures(p, requestWords(run).itl.short, definition),
    () => ttftVsInput(p, definition),
    () => timeslices(p),
  ];
}
