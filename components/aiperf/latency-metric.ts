import { requestWords } from "@/lib/metrics/request-words";
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

/**
 * A latency metric's name on the Latency view: the inter-token latency in the run's tool's words
 * (TPOT for vLLM and SGLang). The server's drawing of the view's first figures uses it too.
 */
export function latencyLabel(run: Parameters<typeof requestWords>[0], metric: LatencyMetricId): string {
  return metric === "itlMs" ? requestWords(run).itl.label : metricLabel(metric);
}
