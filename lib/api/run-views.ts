import type { z } from "zod";
import { AIPERF_CHART_KEYS, distributionPayloadSchema } from "./aiperf-charts";
import type { RunSummary } from "./schemas";
import { SM_ENDPOINTS_CHART, smEndpointsPayloadSchema } from "./server-metrics-charts";
import { segmentsPayloadSchema, TRTLLM_CHART_KEYS } from "./trtllm-charts";

export interface RunViewManifest {
  /** The `?view=` value. */
  id: string;
  label: string;
  /**
   * Whether the view has something to show for the run: the tabs grey out views without, and the
   * server only prefetches for views with. It must agree with the view's own empty state.
   */
  hasData(run: RunSummary): boolean;
  /**
   * The payload the view draws first, which the server puts in the page's cache so that chart
   * needs no round trip after hydration. Only small payloads, and only when the run stored one.
   */
  firstChart?: { key: string; schema: z.ZodType };
}

const serverMetricsFirst = { key: SM_ENDPOINTS_CHART, schema: smEndpointsPayloadSchema };

const VIEWS = [
  { id: "overview", label: "Overview", hasData: () => true },
  {
    id: "latency",
    label: "Latency",
    // The summary's latency table is there for any requests block; the distribution is stored
    // only for runs with per-request records, and the prefetch finds none otherwise.
    // TensorRT-LLM perf metrics carry their own per-request latency (timeBreakdown.latency).
    hasData: (r) => r.requests !== null || r.timeBreakdown?.latency != null,
    firstChart: { key: AIPERF_CHART_KEYS.distribution, schema: distributionPayloadSchema },
  },
  { id: "throughput", label: "Throughput", hasData: (r) => r.requests?.source === "aiperf" },
  {
    id: "breakdown",
    label: "Breakdown",
    hasData: (r) => r.timeBreakdown !== null,
    firstChart: { key: TRTLLM_CHART_KEYS.segments, schema: segmentsPayloadSchema },
  },
  {
    id: "cache",
    label: "Cache",
    hasData: (r) =>
      r.serverMetrics !== null ||
      r.timeBreakdown?.kvCacheHitRate != null ||
      typeof r.info.theoreticalCacheHitRate === "number",
    firstChart: serverMetricsFirst,
  },
  {
    id: "kv",
    label: "KV",
    hasData: (r) => r.serverMetrics !== null,
    firstChart: serverMetricsFirst,
  },
  {
    id: "offload",
    label: "Offload",
    // Server metrics without offload counters have nothing for this view.
    hasData: (r) =>
      (r.serverMetrics !== null &&
        (r.serverMetrics.kvOffload.bytesGpuToCpu !== null ||
          r.serverMetrics.kvOffload.bytesCpuToGpu !== null)) ||
      r.timeBreakdown?.kvTransfer != null,
    firstChart: serverMetricsFirst,
  },
  { id: "gpu", label: "GPU", hasData: (r) => r.files.some((f) => f.kind === "aiperf-gpu-telemetry") },
  { id: "endpoints", label: "Endpoints", hasData: (r) => r.endpoints.length > 0 },
  { id: "files", label: "Files", hasData: () => true },
] as const satisfies readonly RunViewManifest[];

export type RunViewId = (typeof VIEWS)[number]["id"];

/**
 * The run page's views, in tab order. A plain module (no React) so the tabs, the views registry
 * in the components and the server prefetch all read the same list.
 */
export const RUN_VIEWS: ReadonlyArray<RunViewManifest & { id: RunViewId }> = VIEWS;

export const RUN_VIEW_IDS: readonly RunViewId[] = VIEWS.map((v) => v.id);

export const DEFAULT_VIEW: RunViewId = "overview";

export function runView(id: RunViewId): RunViewManifest {
  return RUN_VIEWS.find((v) => v.id === id) ?? RUN_VIEWS[0];
}
