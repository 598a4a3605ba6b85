/** The latency metric picked in the URL (`?metric=`), shared by the latency charts. */
export const LATENCY_METRIC_OPTIONS = [
  { id: "ttftMs", label: "Time to first token", short: "TTFT" },
  { id: "e2eMs", label: "End-to-end latency", short: "E2E" },
  { id: "itlMs", label: "Inter-token latency", short: "ITL" },
] as const;

export type LatencyMetricId = (typeof LATENCY_METRIC_OPTIONS)[number]["id"];

export function metricLabel(id: LatencyMetricId): string {
  return LATENCY_METRIC_OPTIONS.find((o) => o.id === id)?.label ?? id;
}
