/**
 * TTFT against input length, from aiperf's records, as a renderer-neutral description
 * (lib/api/figure.ts): each request a point, prefill cost a slope, queueing a spread. The Latency
 * view (components/run-views/latency-view.tsx) and the offline report both draw it.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import { AIPERF_SUCCESSFUL, type FigureDefinition, type FigureDescription } from "@/lib/api/figure";
import { formatCount } from "@/lib/format-number";

/** `definition`: the run's requests as the page says them (lib/metrics/figures/request-definitions.ts). */
export function ttftVsInputFigure(
  payload: ChartPayload<typeof AIPERF_CHARTS.ttftVsInput>,
  definition: FigureDefinition = AIPERF_SUCCESSFUL,
): FigureDescription {
  const sampled = payload.points.length < payload.total;
  return {
    id: AIPERF_CHARTS.ttftVsInput.key,
    exportName: "ttft-vs-input",
    kind: "scatter",
    title: "TTFT vs input length",
    description: `Successful profiling requests${sampled ? ` (sample of ${formatCount(payload.points.length)} of ${formatCount(payload.total)})` : ""}`,
    definition: {
      ...definition,
      requests: `${definition.requests === AIPERF_SUCCESSFUL.requests ? "successful profiling requests" : definition.requests} with both a TTFT and an input length`,
    },
    missing: "No successful request has both a TTFT and an input length: upload aiperf profile_export.jsonl.",
    x: { label: "input length", unit: "tokens" },
    y: { label: "TTFT", unit: "ms" },
    series: [
      {
        key: "ttftMs",
        name: "TTFT",
        colour: "chart-4",
        points: payload.points.map((p) => [p.inputTokens, p.ttftMs] as const),
      },
    ],
    legend: false,
  };
}
