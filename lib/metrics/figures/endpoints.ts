/**
 * The per-endpoint bars of the server metrics, as renderer-neutral descriptions
 * (lib/api/figure.ts): one bar per endpoint that has the metric, in its role's colour, prefill
 * first; the Cache, KV and Offload views and the offline report both draw them. An endpoint
 * without the metric has no row (its absence is said in the Endpoints table), never a 0.
 */
import { SM_CHARTS } from "@/lib/api/chart-catalog";
import { roleToken, SERVER_COUNTERS, type FigureDescription } from "@/lib/api/figure";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";
import { byteRateUnit } from "@/lib/format-number";
import { wantsLogOption } from "@/lib/metrics/bar-labels";
import {
  endpointBarRows,
  type EndpointBarMetric,
  type EndpointBarRow,
} from "@/lib/metrics/server-metrics/chart-rows";

/** Endpoint names on the page's axis: one line each, cut to what tells them apart. */
const SHORT_NAMES = 20;

const MISSING_HIT_RATE =
  "No endpoint exports prefix-cache counters or a hit-rate gauge (vllm:prefix_cache_hits/queries, sglang:cached_tokens, trtllm_prompt_cached_tokens); scrape the engines with aiperf --server-metrics.";

/** The parts every endpoint bar figure shares: its endpoints, role colours and role column. */
function endpointBars(
  bars: readonly EndpointBarRow[],
  value: { label: string; unit: string; domain?: readonly [number, number]; integers?: boolean },
  seriesName: string,
  inUnit: (v: number) => number = (v) => v,
) {
  return {
    kind: "bars" as const,
    x: { label: "endpoint", unit: "" },
    // Values spanning decades (one endpoint's 5 MB/s beside another's 9.5 GB/s): a log axis on offer.
    y: { ...value, ...(wantsLogOption(bars.map((r) => r.value)) ? { logOption: true } : {}) },
    categories: bars.map((r) => r.endpoint),
    categoryColours: bars.map((r) => roleToken(r.role)),
    shortNames: SHORT_NAMES,
    tableColumns: [{ label: "role", values: bars.map((r) => r.role) }],
    series: [
      {
        key: "value",
        name: seriesName,
        colour: "chart-8" as const,
        points: bars.map((r, i) => [i, inUnit(r.value)] as const),
      },
    ],
    legend: false,
  };
}

/**
 * Server-side prefix-cache hit rate per endpoint (its own counters; a hit-rate gauge's mean where
 * it has none), in %. In a disaggregated run a decode endpoint's bar is named "n/a (decode)": the
 * KV it receives from prefill is not a cache hit.
 */
export function endpointHitRateFigure(
  rows: readonly SmEndpointDetail[],
  missing?: string,
): FigureDescription {
  const disagg = rows.some((r) => r.role === "prefill") && rows.some((r) => r.role === "decode");
  const bars = endpointBarRows(rows, "hitRate");
  return {
    id: `${SM_CHARTS.endpoints.key}-hit-rate`,
    exportName: "endpoint-hit-rate",
    title: "GPU cache hit rate per endpoint",
    description: `GPU-cached prompt tokens / prompt tokens, from each endpoint's own counters${
      disagg ? " · decode endpoints: n/a, the KV they receive from prefill is not a cache hit" : ""
    }`,
    definition: {
      ...SERVER_COUNTERS,
      method: "counter deltas over the window (a hit-rate gauge's mean where an endpoint has no counters)",
    },
    missing: missing ?? MISSING_HIT_RATE,
    ...endpointBars(bars, { label: "hit rate", unit: "%", domain: [0, 100] }, "GPU hit rate", (v) => v * 100),
    categoryNotes: bars.map((r) => (disagg && r.role === "decode" ? "n/a (decode)" : null)),
  };
}

/** KV capacity per endpoint in tokens (Σ of its pools; TP replicas counted once). */
export function endpointCapacityFigure(rows: readonly SmEndpointDetail[]): FigureDescription {
  return {
    id: `${SM_CHARTS.endpoints.key}-capacity`,
    exportName: "endpoint-kv-capacity",
    title: "KV capacity per endpoint",
    description: "Tokens the endpoint's KV pools hold (blocks × its own block size)",
    definition: {
      window: "none: capacity is configuration, the same over the run",
      method: "cache-config info, blocks × block size (or the server log)",
    },
    missing:
      "No endpoint exports its KV capacity (trtllm_kv_cache_max_blocks × tokens_per_block, vllm:cache_config_info, sglang:max_total_num_tokens); for vLLM, upload the engine's server.log.",
    ...endpointBars(
      endpointBarRows(rows, "kvCapacityTokens"),
      { label: "KV capacity", unit: "tokens", integers: true },
      "KV capacity",
    ),
  };
}

/**
 * KV-cache usage per endpoint, in %: the mean and the peak of its usage gauge over the window, side
 * by side (two series, so in the series' colours, not the role's; the role is a table column).
 */
export function endpointUsageFigure(rows: readonly SmEndpointDetail[]): FigureDescription {
  const bars = endpointBarRows(rows, "kvUsageAvg");
  const max = new Map(rows.map((r) => [r.endpoint, r.kvUsageMax]));
  const pct = (v: number | null | undefined) => (v === null || v === undefined ? null : v * 100);
  return {
    id: `${SM_CHARTS.endpoints.key}-usage`,
    exportName: "endpoint-kv-usage",
    kind: "bars",
    title: "KV-cache usage per endpoint",
    description: "Mean and peak of each endpoint's KV-cache usage gauge over the window",
    definition: {
      window: SERVER_COUNTERS.window,
      method: "gauge samples (a level, not a count): their mean and maximum",
    },
    missing:
      "No endpoint exports a KV-cache usage gauge (vllm:kv_cache_usage_perc, sglang:token_usage, trtllm_kv_cache_utilization).",
    x: { label: "endpoint", unit: "" },
    y: { label: "KV usage", unit: "%", domain: [0, 100] },
    categories: bars.map((r) => r.endpoint),
    shortNames: SHORT_NAMES,
    tableColumns: [{ label: "role", values: bars.map((r) => r.role) }],
    series: [
      {
        key: "mean",
        name: "mean",
        colour: "chart-1",
        points: bars.map((r, i) => [i, pct(r.value)] as const),
      },
      {
        key: "peak",
        name: "peak",
        colour: "chart-4",
        points: bars.map((r, i) => [i, pct(max.get(r.endpoint))] as const),
      },
    ],
    legend: true,
  };
}

export const OFFLOAD_DIRECTIONS = {
  gpuToCpu: "offloadBandwidthGpuToCpuBytesPerSecond",
  cpuToGpu: "offloadBandwidthCpuToGpuBytesPerSecond",
} as const satisfies Record<string, EndpointBarMetric>;

export type OffloadDirection = keyof typeof OFFLOAD_DIRECTIONS;

/** KV offload bandwidth per endpoint, one direction, in the byte rate unit its largest bar reads in. */
export function endpointOffloadFigure(
  rows: readonly SmEndpointDetail[],
  direction: OffloadDirection,
): FigureDescription {
  const method = rows.find((r) => r.offloadBandwidthMethod)?.offloadBandwidthMethod ?? "";
  const bars = endpointBarRows(rows, OFFLOAD_DIRECTIONS[direction]);
  const { unit, divisor } = byteRateUnit(bars.reduce((m, r) => Math.max(m, r.value), 0));
  return {
    id: `${SM_CHARTS.endpoints.key}-offload-${direction}`,
    exportName: `endpoint-offload-${direction}`,
    title: direction === "gpuToCpu" ? "Offload bandwidth GPU → CPU" : "Onboard bandwidth CPU → GPU",
    description: `${unit} per endpoint (${method})`,
    definition: {
      window: SERVER_COUNTERS.window,
      method: method.includes("transfer")
        ? "bytes / seconds spent transferring (the link's bandwidth)"
        : "bytes / window length (an average rate, not the link's bandwidth)",
    },
    missing:
      "No endpoint exports offload bytes in this direction (vLLM kv_offload_*, TensorRT-LLM kv_cache_offload/onboard bytes).",
    ...endpointBars(bars, { label: "bandwidth", unit }, "bandwidth", (v) => v / divisor),
  };
}
