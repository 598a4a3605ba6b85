import { METRICS } from "@/lib/api/metric-catalog";
import { latencyLabel } from "@/lib/metrics/request-words";

/** The latency metric picked in the URL (`?metric=`), shared by the latency charts; named by the metric catalog. */
export const LATENCY_METRIC_OPTIONS = [
  { id: "ttftMs", label: METRICS.ttft.long, short: METRICS.ttft.short },
  { id: "e2eMs", label: METRICS.e2e.long, short: METRICS.e2e.short },
  { id: "itlMs", label: METRICS.itl.long, short: METRICS.itl.short },
] as const;

export type LatencyMetricId = (typeof LATENCY_METRIC_OPTIONS)[number]["id"];

/**
 * A latency metric's name on the Latency view: the inter-token latency in the run's tool's words
 * (TPOT for vLLM and SGLang). The server's drawing of the view's first figures and the report use it too.
 */
export { latencyLabel };
