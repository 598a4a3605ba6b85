/**
 * Everything the dashboard knows about one scraped endpoint, each number from that endpoint's
 * own series only (trap T3: never a peak where the headline uses a mean).
 */
import type { EndpointRole } from "@/lib/api/schemas";
import { engineOf, type Engine } from "./backend";
import { endpointCapacity, type EndpointCapacity } from "./capacity";
import {
  CPU_USAGE_GAUGES,
  DYNAMO_USAGE_GAUGES,
  FRONTEND_CACHED_TOKENS,
  FRONTEND_INPUT_TOKENS,
  FRONTEND_OUTPUT_TOKENS,
  GENERATION_TOKENS,
  HIT_RATE_GAUGES,
  LMCACHE_HIT_TOKENS,
  LMCACHE_REQUESTED_TOKENS,
  PROMPT_TOKENS,
  REQUESTS_RUNNING,
  REQUESTS_WAITING,
  ROUTER_KV_HIT_RATE,
  ROUTER_SHARED_HIT_RATE,
  SGLANG_HOST_TOTAL,
  SGLANG_HOST_USED,
  SGLANG_PROMPT_HISTOGRAM,
  SGLANG_UNCACHED_HISTOGRAM,
  USAGE_GAUGES,
} from "@/lib/formats/server-metrics/catalog";
import { cacheCounts, cacheSelection, offGpu, type CacheCounts, type CacheSelection } from "./hit-rate";
import { externalCache, offloadSeries, offloadTiers, type ExternalCache, type OffloadTier } from "./offload";
import { endpointRole } from "./roles";
import {
  clampFraction,
  gaugeAvgFraction,
  gaugeAvgSum,
  gaugeMaxFraction,
  ofNames,
  rate,
  sumCounters,
} from "./select";
import type { EndpointWindow, MetricSeries } from "@/lib/formats/server-metrics/types";

export interface EndpointFacts {
  endpoint: string;
  role: EndpointRole;
  engine: Engine | null;
  series: MetricSeries[];
  /** The window counter rates are over (docs/metrics.md §Server metrics, "The window"). */
  windowS: number | null;
  windowSource: string | null;
  promptTokens: number | null;
  generationTokens: number | null;
  cache: CacheSelection | null;
  counts: CacheCounts | null;
  /** Token-weighted from counters, else the hit-rate gauge's avg. */
  hitRate: number | null;
  hitRateMethod: "counters" | "gauge" | null;
  gaugeHitRateAvg: number | null;
  /** (CPU/host + external) served / all prompt tokens: the off-GPU share. */
  cpuHitRate: number | null;
  /**
   * SGLang's uncached-prompt histogram: 1 − Σ uncached prompt tokens / Σ prompt tokens of the
   * same requests (`sglang:uncached_prompt_tokens_histogram` over `prompt_tokens_histogram`).
   */
  histogramHitRate: number | null;
  /** LMCache's own hit rate: `lmcache:num_hit_tokens / num_requested_tokens`. */
  lmcacheHitRate: number | null;
  capacity: EndpointCapacity | null;
  usageAvg: number | null;
  usageMax: number | null;
  cpuUsageMax: number | null;
  offloadBytesGpuToCpu: number | null;
  offloadBytesCpuToGpu: number | null;
  offloadTimeGpuToCpuS: number | null;
  offloadTimeCpuToGpuS: number | null;
  offloadBandwidthGpuToCpu: number | null;
  offloadBandwidthCpuToGpu: number | null;
  /** "transfer time" when time counters exist, "window average" otherwise. */
  offloadBandwidthMethod: string | null;
  /** The byte counter family each direction was read from (one generation, never two added). */
  offloadSource: string | null;
  offloadTiers: OffloadTier[];
  /** vLLM external (KV connector) prefix-cache lookups, tokens. */
  external: ExternalCache;
  /**
   * external hits / external queries: of the prompt tokens the GPU cache missed, the share the KV
   * connector served (a conditional lookup rate, not a share of all prompt tokens).
   */
  externalHitRate: number | null;
  runningAvg: number | null;
  waitingAvg: number | null;
  frontendInputTokens: number | null;
  frontendOutputTokens: number | null;
  frontendCachedTokens: number | null;
  routerKvHitRate: number | null;
  routerSharedHitRate: number | null;
  /** Dynamo's kvstats_* gauges are present but were never set by the engine (see `unpublishedKvStats`). */
  kvStatsUnpublished: boolean;
}

/** How offload bandwidth is derived: bytes over measured transfer time, else over the scrape window. */
export function bandwidthMethod(hasBytes: boolean, hasTime: boolean, windowS: number | null): string | null {
  if (!hasBytes) return null;
  return hasTime ? "bytes / transfer time" : windowS ? "average rate (bytes / window)" : null;
}

function offloadSourceOf(out: string | null, back: string | null): string | null {
  if (out === null || back === null || out === back) return out ?? back;
  return `${out} (GPU → CPU), ${back} (CPU → GPU)`;
}

/**
 * The window an endpoint's counters cover: what the reader placed (the profiling phase, or the
 * scrape span when nothing placed it), else total / rate of a counter, which aiperf computes
 * over the profiling phase.
 */
function windowOf(
  series: readonly MetricSeries[],
  known: EndpointWindow | null,
): { s: number; source: string } | null {
  if (known && known.durationS !== null && known.durationS > 0)
    return { s: known.durationS, source: known.source };
  for (const s of series)
    if (s.type === "counter" && (s.stats.total ?? 0) > 0 && (s.stats.rate ?? 0) > 0)
      return {
        s: s.stats.total / s.stats.rate,
        source: "profiling phase, a counter's total / rate in the export",
      };
  return null;
}

const KVSTATS_PREFIX = "dynamo_component_kvstats_";

/**
 * 1 − uncached / prompt tokens from SGLang's two prompt histograms (their sums count tokens of the
 * same requests); the prompt counter stands in when the prompt histogram is absent.
 */
function histogramHitRate(series: readonly MetricSeries[]): number | null {
  const uncached = sumCounters(ofNames(series, SGLANG_UNCACHED_HISTOGRAM));
  if (uncached === null) return null;
  const prompt =
    sumCounters(ofNames(series, SGLANG_PROMPT_HISTOGRAM)) ?? sumCounters(ofNames(series, PROMPT_TOKENS));
  const r = rate(uncached, prompt);
  return r === null ? null : clampFraction(1 - r);
}

/**
 * Dynamo registers its `kvstats_*` gauges at 0 when a worker starts and sets them only when the
 * engine publishes KV stats (docs/metrics.md §Server metrics). A pool of 0 total blocks cannot
 * exist, so a `kvstats_total_blocks` that never rose above 0 means the usage and hit-rate gauges
 * beside it are unset defaults, not a measured 0.
 */
export function unpublishedKvStats(series: readonly MetricSeries[]): boolean {
  const total = ofNames(series, `${KVSTATS_PREFIX}total_blocks`);
  return total.length > 0 && total.every((s) => !((s.stats.max ?? s.stats.avg ?? 0) > 0));
}

function usageSeries(series: readonly MetricSeries[]): MetricSeries[] {
  const engine = ofNames(series, USAGE_GAUGES);
  return engine.length > 0 ? engine : ofNames(series, DYNAMO_USAGE_GAUGES);
}

/** `disaggregated`: the run has a prefill side (`hasPrefillLabel` over all its series). */
export function endpointFacts(
  endpoint: string,
  series: MetricSeries[],
  knownWindow: EndpointWindow | null,
  disaggregated: boolean,
): EndpointFacts {
  const role = endpointRole(series, disaggregated);
  const engine = series.map((s) => engineOf(s.name)).find((e) => e !== null) ?? null;
  const window = windowOf(series, knownWindow);
  const windowS = window?.s ?? null;
  const kvStatsUnpublished = unpublishedKvStats(series);
  // Unset kvstats gauges are left out of every number, so a missing series reads "not exported", not 0.
  const measured = kvStatsUnpublished ? series.filter((s) => !s.name.startsWith(KVSTATS_PREFIX)) : series;
  const cache = cacheSelection(measured);
  const counts = cache ? cacheCounts(cache) : null;
  const counterRate = counts ? rate(counts.gpu, counts.den) : null;
  const gaugeHitRateAvg = gaugeAvgFraction(ofNames(measured, HIT_RATE_GAUGES));
  const hitRate = counterRate !== null ? clampFraction(counterRate) : gaugeHitRateAvg;
  const usage = usageSeries(measured);
  const hostUsed = ofNames(series, SGLANG_HOST_USED);
  const hostTotal = ofNames(series, SGLANG_HOST_TOTAL);
  const hostRatio = rate(
    hostUsed.length ? hostUsed.reduce((m, s) => Math.max(m, s.stats.max ?? 0), -Infinity) : null,
    hostTotal.length ? hostTotal.reduce((m, s) => Math.max(m, s.stats.max ?? 0), -Infinity) : null,
  );
  const offload = offloadSeries(series);
  const bytesOut = sumCounters(offload.gpuToCpu?.bytes ?? []);
  const bytesIn = sumCounters(offload.cpuToGpu?.bytes ?? []);
  const timeOut = sumCounters(offload.gpuToCpu?.time ?? []);
  const timeIn = sumCounters(offload.cpuToGpu?.time ?? []);
  const external = externalCache(series);
  const hasTime = timeOut !== null || timeIn !== null;
  const hasBytes = bytesOut !== null || bytesIn !== null;
  // Bytes over transfer time is the link's bandwidth; bytes over the window is only an average rate.
  const bw = (bytes: number | null, time: number | null) =>
    hasTime ? rate(bytes, time) : rate(bytes, windowS);
  return {
    endpoint,
    role,
    engine,
    series: measured,
    windowS,
    windowSource: window?.source ?? null,
    promptTokens: sumCounters(ofNames(series, PROMPT_TOKENS)),
    generationTokens: sumCounters(ofNames(series, GENERATION_TOKENS)),
    cache,
    counts,
    hitRate,
    hitRateMethod: counterRate !== null ? "counters" : gaugeHitRateAvg !== null ? "gauge" : null,
    gaugeHitRateAvg,
    cpuHitRate: counts ? rate(offGpu(counts), counts.den) : null,
    histogramHitRate: histogramHitRate(series),
    lmcacheHitRate: rate(
      sumCounters(ofNames(series, LMCACHE_HIT_TOKENS)),
      sumCounters(ofNames(series, LMCACHE_REQUESTED_TOKENS)),
    ),
    capacity: endpointCapacity(series),
    usageAvg: gaugeAvgFraction(usage),
    usageMax: gaugeMaxFraction(usage),
    cpuUsageMax: gaugeMaxFraction(ofNames(series, CPU_USAGE_GAUGES)) ?? hostRatio,
    offloadBytesGpuToCpu: bytesOut,
    offloadBytesCpuToGpu: bytesIn,
    offloadTimeGpuToCpuS: timeOut,
    offloadTimeCpuToGpuS: timeIn,
    offloadBandwidthGpuToCpu: bw(bytesOut, timeOut),
    offloadBandwidthCpuToGpu: bw(bytesIn, timeIn),
    offloadBandwidthMethod: bandwidthMethod(hasBytes, hasTime, windowS),
    offloadSource: offloadSourceOf(offload.gpuToCpu?.source ?? null, offload.cpuToGpu?.source ?? null),
    offloadTiers: offloadTiers(series),
    external,
    externalHitRate: rate(external.hits, external.queries),
    runningAvg: gaugeAvgSum(ofNames(series, REQUESTS_RUNNING)),
    waitingAvg: gaugeAvgSum(ofNames(series, REQUESTS_WAITING)),
    frontendInputTokens: sumCounters(ofNames(series, FRONTEND_INPUT_TOKENS)),
    // The counter and the histogram count the same tokens: take the first present, never both.
    frontendOutputTokens:
      FRONTEND_OUTPUT_TOKENS.map((n) => sumCounters(ofNames(series, n))).find((v) => v !== null) ?? null,
    frontendCachedTokens: sumCounters(ofNames(series, FRONTEND_CACHED_TOKENS)),
    routerKvHitRate: gaugeAvgFraction(ofNames(series, ROUTER_KV_HIT_RATE)),
    routerSharedHitRate: gaugeAvgFraction(ofNames(series, ROUTER_SHARED_HIT_RATE)),
    kvStatsUnpublished,
  };
}
