/**
 * The in-flight requests of aiperf's records over time, as a renderer-neutral description
 * (lib/api/figure.ts): per time bucket, the time-weighted average and the peak. The Throughput
 * view (components/aiperf/throughput-view.tsx) and the offline report both draw it.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { FigureDescription } from "@/lib/api/figure";

export function aiperfInFlightFigure(
  payload: ChartPayload<typeof AIPERF_CHARTS.timeline>,
): FigureDescription {
  const line = (pick: (p: (typeof payload.points)[number]) => number) =>
    payload.points.map((p) => [p.tS, pick(p)] as const);
  return {
    id: `${AIPERF_CHARTS.timeline.key}-in-flight`,
    exportName: "in-flight-requests",
    kind: "line",
    title: "In-flight requests",
    description: "Requests between start and end (warmup included), average and peak per bucket",
    definition: {
      window: "from the first request (warm-up included)",
      requests: "every request sent, warm-up and errors included: all of them load the server",
      method: "time-weighted average per bucket; peak from every start and end",
    },
    missing: "The run is too short for two time buckets.",
    x: { label: "time from the first request", unit: "s" },
    y: { label: "requests in flight", unit: "", integers: true },
    series: [
      { key: "inFlightAvg", name: "average", colour: "chart-6", points: line((p) => p.inFlightAvg) },
      // The peak holds until the next bucket's: drawn as steps on the page.
      { key: "inFlightMax", name: "peak", colour: "chart-3", step: true, points: line((p) => p.inFlightMax) },
    ],
    legend: true,
  };
}
