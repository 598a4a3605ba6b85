/**
 * The Throughput view's charts of aiperf's records over time, as renderer-neutral descriptions
 * (lib/api/figure.ts): the throughput (output tokens per second on the left axis, requests and
 * errors per second on the right) and the in-flight requests (per time bucket, the time-weighted
 * average and the peak). The Throughput view (components/aiperf/throughput-view.tsx) and the
 * offline report both draw them.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { FigureDescription } from "@/lib/api/figure";
import { METRICS } from "@/lib/api/metric-catalog";
import { formatNumber } from "@/lib/format-number";

type Timeline = ChartPayload<typeof AIPERF_CHARTS.timeline>;

const TIME = { label: "time from the first request", unit: "s" } as const;

const line = (payload: Timeline, pick: (p: Timeline["points"][number]) => number) =>
  payload.points.map((p) => [p.tS, pick(p)] as const);

/**
 * Output tokens per second (dispersed over each request's decode) on the left axis; requests and
 * errors per second (each spread over its lifetime) on the right: a rate of hundreds of tokens
 * would flatten one of a few requests into the bottom of a shared axis (docs/metrics.md §Requests
 * over time).
 */
export function aiperfThroughputFigure(payload: Timeline): FigureDescription {
  const tokens = METRICS.outputTokenThroughput;
  const requests = METRICS.requestThroughput;
  return {
    id: `${AIPERF_CHARTS.timeline.key}-throughput`,
    exportName: "throughput-over-time",
    kind: "line",
    title: "Throughput over time",
    description:
      `Output tokens spread evenly from each request's first token to its end (dispersed throughput); ` +
      `each request and error spread evenly from its start to its end; per ${formatNumber(payload.bucketS, 3)} s`,
    definition: {
      window: "profiling phase, from the first request",
      requests: "successful profiling requests; errors/s counts failed ones (warm-up excluded)",
      method:
        "output tokens spread over each decode window (dispersed); each request and error spread over its lifetime, start to end",
    },
    missing: "The run is too short for two time buckets.",
    x: TIME,
    y: { label: tokens.label, unit: tokens.unit },
    y2: { label: requests.label, unit: requests.unit },
    series: [
      {
        key: "outputTokensPerS",
        name: tokens.short,
        colour: "chart-1",
        points: line(payload, (p) => p.outputTokensPerS),
      },
      {
        key: "requestsPerS",
        name: requests.short,
        colour: "chart-2",
        axis: "y2",
        points: line(payload, (p) => p.requestsPerS),
      },
      {
        key: "errorsPerS",
        name: "Errors/s",
        colour: "chart-7",
        axis: "y2",
        points: line(payload, (p) => p.errorsPerS),
      },
    ],
    legend: true,
  };
}

/** The requests in flight per time bucket: the time-weighted average and the peak. */
export function aiperfInFlightFigure(payload: Timeline): FigureDescription {
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
    x: TIME,
    y: { label: "requests in flight", unit: "", integers: true },
    series: [
      { key: "inFlightAvg", name: "average", colour: "chart-6", points: line(payload, (p) => p.inFlightAvg) },
      // The peak holds until the next bucket's: drawn as steps on the page.
      {
        key: "inFlightMax",
        name: "peak",
        colour: "chart-3",
        step: true,
        points: line(payload, (p) => p.inFlightMax),
      },
    ],
    legend: true,
  };
}
