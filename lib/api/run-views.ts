import { AIPERF_CHARTS, SM_CHARTS, TRTLLM_CHARTS, type ChartDef } from "./chart-catalog";
import type { RunSummary } from "./schemas";

export interface RunViewManifest {
  /** The `?view=` value. */
  id: string;
  label: string;
  /**
   * Whether the view has something to show for the run: the tabs grey out views without, and the
   * server only prefetches for views with. It must agree with the view's own empty state.
   */
  hasData(run: RunSummary): boolean;
  /** What the view needs and where it comes from: the disabled tab's reason and the empty view's text. */
  missing: string;
  /**
   * The payload the view draws first, which the server puts in the page's cache so that chart
   * needs no round trip after hydration. Only small payloads, and only when the run stored one.
   */
  firstChart?: ChartDef | ((run: RunSummary) => ChartDef);
}

const serverMetricsFirst = SM_CHARTS.endpoints;

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Any cache hit rate the Cache view can show: server counters or gauges, perf metrics, aiperf, Dynamo. */
export function hasCacheData(r: RunSummary): boolean {
  const c = r.serverMetrics?.cache;
  return (
    (c !== undefined &&
      [c.gpuHitRate, c.cpuHitRate, c.overallHitRate, c.externalHitRate, c.gaugeHitRateAvg].some(isNumber)) ||
    // Counters exported at 0 lookups are an idle cache the view says so of, not a missing one.
    (c !== undefined && isNumber(c.lookupTokens)) ||
    isNumber(r.timeBreakdown?.kvCacheHitRate) ||
    // The reuse ledger: a multi-turn run's records say what was reusable and what was reported.
    r.info.reuseLedger === true ||
    isNumber(r.timeBreakdown?.kvBlockLookups) ||
    r.endpoints.some((e) => isNumber(e.cacheHitRate) || isNumber(e.kvCacheHitRate)) ||
    [
      r.info.theoreticalCacheHitRate,
      r.info.frontendCacheHitRate,
      r.info.routerKvHitRate,
      r.info.routerLogPredictedHitRate,
    ].some(isNumber)
  );
}

/** KV capacity or usage, for the run or any endpoint (the KV view's facts and charts). */
export function hasKvData(r: RunSummary): boolean {
  const kv = r.serverMetrics?.kvCache;
  return (
    (kv !== undefined && [kv.gpuTotalTokens, kv.gpuUsageAvg, kv.gpuUsageMax].some(isNumber)) ||
    r.endpoints.some((e) => isNumber(e.kvCapacityTokens) || isNumber(e.kvUsageAvg))
  );
}

/** GPU telemetry samples, or the GPU statistics of aiperf's summary. */
export function hasGpuTelemetry(r: RunSummary): boolean {
  return r.files.some((f) => f.kind === "aiperf-gpu-telemetry") || isNumber(r.info.telemetryGpus);
}

/** Offload byte counters in the server metrics. */
export function hasOffloadCounters(r: RunSummary): boolean {
  const o = r.serverMetrics?.kvOffload;
  return o !== undefined && (o.bytesGpuToCpu !== null || o.bytesCpuToGpu !== null);
}

/**
 * Whether ingest stored the check of our statistics against aiperf's summary: only for runs with
 * both per-request records and a summary, so the Latency view asks for it only then.
 */
export function hasAiperfAgreement(r: RunSummary): boolean {
  const kinds = new Set(r.files.map((f) => f.kind));
  return kinds.has("aiperf-records") && kinds.has("aiperf-summary");
}

/**
 * The view a request's link by its id (`?rid=` without a view, docs/http-api.md §A request's
 * link) opens: the Breakdown's waterfall for a TensorRT-LLM request, the timeline's detail for an
 * aiperf record (the same requests `requests/by-id` looks in); null for a run without either.
 */
export function requestLinkView(r: RunSummary): "breakdown" | "timeline" | null {
  if (r.timeBreakdown !== null) return "breakdown";
  return hasTimelineData(r) ? "timeline" : null;
}

/** Per-request rows the request timeline draws: TensorRT-LLM perf metrics or aiperf records. */
export function hasTimelineData(r: RunSummary): boolean {
  return r.timeBreakdown !== null || r.files.some((f) => f.kind === "aiperf-records");
}

/**
 * A multi-turn run: aiperf records with turn indices above 0, which the aiperf analyzer marks
 * in the run's info when it stores the Turns payload.
 */
export function hasTurnData(r: RunSummary): boolean {
  return isNumber(r.info.maxTurnIndex) && r.info.maxTurnIndex > 0;
}

/** Agent sessions: aiperf multi-turn records or a Dynamo request trace's agent_context. */
export function hasAgentSessions(r: RunSummary): boolean {
  return isNumber(r.info.agentSessions) && r.info.agentSessions > 0;
}

/**
 * The latency distribution a run's latency is drawn from: TensorRT-LLM's perf metrics for a run
 * whose latency is theirs alone, else aiperf's records. The Latency view opens on it, and the
 * Overview's one chart (its TTFT histogram) is drawn from it.
 */
const latencyFirstChart = (r: RunSummary): ChartDef =>
  r.requests === null && r.timeBreakdown?.latency
    ? TRTLLM_CHARTS.latencyDistribution
    : AIPERF_CHARTS.distribution;

const VIEWS = [
  { id: "overview", label: "Overview", hasData: () => true, missing: "", firstChart: latencyFirstChart },
  {
    id: "latency",
    label: "Latency",
    // The summary's latency table is there for any requests block; the distribution is stored
    // only for runs with per-request records, and the prefetch finds none otherwise.
    // TensorRT-LLM perf metrics carry their own per-request latency (timeBreakdown.latency).
    hasData: (r) => r.requests !== null || r.timeBreakdown?.latency != null,
    missing:
      "upload aiperf profile_export.jsonl (per-request records) or its profile_export_aiperf.json, or TensorRT-LLM perf metrics (return_perf_metrics)",
    // A run whose latency is TensorRT-LLM's perf metrics alone opens on their distribution.
    firstChart: latencyFirstChart,
  },
  {
    id: "throughput",
    label: "Throughput",
    hasData: (r) => r.requests?.source === "aiperf",
    missing: "upload aiperf profile_export.jsonl (per-request records)",
  },
  {
    id: "turns",
    label: "Turns",
    hasData: hasTurnData,
    missing:
      "upload aiperf profile_export.jsonl of a multi-turn run (records with conversation_id and turn_index above 0)",
    firstChart: AIPERF_CHARTS.turns,
  },
  {
    id: "sessions",
    label: "Sessions",
    hasData: hasAgentSessions,
    missing:
      "upload aiperf profile_export.jsonl of a multi-turn run, or a Dynamo request trace whose rows carry agent_context",
    // No firstChart: an agentic run's sessions payload (up to 20,000 turns) is too large for the page's HTML.
  },
  {
    id: "breakdown",
    label: "Breakdown",
    hasData: (r) => r.timeBreakdown !== null,
    missing:
      "upload TensorRT-LLM perf_metrics JSONL (worker and disagg-server files, written with return_perf_metrics on)",
    firstChart: TRTLLM_CHARTS.segments,
  },
  {
    id: "timeline",
    label: "Timeline",
    hasData: hasTimelineData,
    missing:
      "upload aiperf profile_export.jsonl (per-request records) or TensorRT-LLM perf_metrics JSONL (return_perf_metrics on)",
  },
  {
    id: "cache",
    label: "Cache",
    hasData: hasCacheData,
    missing:
      "upload server metrics with prefix-cache counters (aiperf --server-metrics export or Prometheus scrapes), or TensorRT-LLM perf metrics with return_perf_metrics on",
    firstChart: serverMetricsFirst,
  },
  {
    id: "kv",
    label: "KV",
    hasData: hasKvData,
    missing:
      "upload server metrics with KV capacity or usage gauges (aiperf --server-metrics export or Prometheus scrapes; TensorRT-LLM needs enable_iter_perf_stats) or the engine's server.log",
    firstChart: serverMetricsFirst,
  },
  {
    id: "offload",
    label: "Offload",
    // Server metrics without offload counters have nothing for this view.
    hasData: (r) => hasOffloadCounters(r) || r.timeBreakdown?.kvTransfer != null,
    missing:
      "upload server metrics with KV offload counters (vLLM kv_offload_store_bytes / load_bytes or kv_offload_total_bytes, written when the OffloadingConnector is configured; TensorRT-LLM kv_cache_offload/onboard bytes) or disaggregated TensorRT-LLM perf metrics for KV transfers",
    firstChart: serverMetricsFirst,
  },
  {
    id: "gpu",
    label: "GPU",
    // The per-sample export, or aiperf's summary telemetry_data (a table of its statistics).
    hasData: (r) => hasGpuTelemetry(r),
    missing: "upload aiperf gpu_telemetry_export.jsonl, or a summary collected with --gpu-telemetry",
  },
  {
    id: "endpoints",
    label: "Endpoints",
    hasData: (r) => r.endpoints.length > 0,
    missing: "upload server metrics or TensorRT-LLM perf metrics",
  },
  { id: "files", label: "Files", hasData: () => true, missing: "" },
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
