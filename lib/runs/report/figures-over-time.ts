/**
 * The Latency view's over-time figures in the report, drawn from the figure descriptions the page
 * draws too (lib/metrics/figures/latency-over-time.ts): one per metric, aiperf's then TensorRT-LLM's.
 */
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import {
  AIPERF_OVER_TIME_METRICS,
  aiperfLatencyOverTimeFigure,
  TRTLLM_OVER_TIME_METRICS,
  trtllmLatencyOverTimeFigure,
} from "@/lib/metrics/figures/latency-over-time";
import type { FigureDefinition } from "@/lib/api/figure";
import type { Figure } from "./html";
import { reportFigure, type Payloads } from "./figure-kit";

/**
 * `itlName`: the per-request ITL in the words of the tool that measured it (lib/metrics/request-words.ts);
 * `definition`: the run's requests as the page says them (lib/metrics/figures/request-definitions.ts).
 */
export function overTimeFigures(p: Payloads, itlName?: string, definition?: FigureDefinition): Figure[] {
  const aiperf = p.get(AIPERF_CHARTS.overTime);
  const trtllm = p.get(TRTLLM_CHARTS.latencyOverTime);
  return [
    ...(aiperf
      ? AIPERF_OVER_TIME_METRICS.map((m) => aiperfLatencyOverTimeFigure(aiperf, m, { itlName, definition }))
      : []),
    ...(trtllm ? TRTLLM_OVER_TIME_METRICS.map((m) => trtllmLatencyOverTimeFigure(trtllm, m)) : []),
  ].map(reportFigure);
}
