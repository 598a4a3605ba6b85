/**
 * Run-level server metrics from per-endpoint facts (docs/metrics.md §Server metrics, §Endpoints). Each
 * headline number names the trap it avoids:
 * - hit rate: Σ cached / Σ prompt over prefill-side endpoints (T1, T5), gauge avg only when no
 *   counters exist anywhere, weighted by prompt tokens when known;
 * - capacity: Σ per-endpoint pools (T2, T7); logs only when no endpoint reports one;
 * - tokens: prompt from the frontend or prefill side, generation from the frontend or decode
 *   side, never both roles added (T5);
 * - Dynamo frontend hit rate is published as the overall rate when engines have none (T10).
 */
import type { EndpointRole, EndpointRow, ServerMetricsBlock } from "@/lib/api/schemas";
import { compareEndpointNames } from "@/lib/api/endpoint-order";
import type { LogCapacity } from "@/lib/formats/server-log";
import { detectBackend } from "./backend";
import { hasRouterSide } from "./router-side";
import { bandwidthMethod, endpointFacts, type EndpointFacts } from "./endpoint-facts";
import { hasPrefillLabel, isDecodeSide, isPrefillSide } from "./roles";
import { rate } from "./select";
import type { MetricSet } from "@/lib/formats/server-metrics/types";

export interface ServerMetricsSummary {
  block: ServerMetricsBlock;
  facts: EndpointFacts[];
  rows: EndpointRow[];
  info: Record<string, string | number | boolean | null>;
  warnings: string[];
}

const isEngine = (f: EndpointFacts) => f.engine !== null && f.role !== "frontend" && f.role !== "router";

/** Prefill-side engine endpoints; decode-only runs use every engine endpoint. */
export function prefillSide(facts: readonly EndpointFacts[]): EndpointFacts[] {
  const engines = facts.filter(isEngine);
  const side = engines.filter((f) => isPrefillSide(f.role));
  return side.length > 0 ? side : engines;
}

export function decodeSide(facts: readonly EndpointFacts[]): EndpointFacts[] {
  const engines = facts.filter(isEngine);
  const side = engines.filter((f) => isDecodeSide(f.role));
  return side.length > 0 ? side : engines;
}

function sum(values: (number | null)[]): number | null {
  let total: number | null = null;
  for (const v of values) if (v !== null) total = (total ?? 0) + v;
  return total;
}

export interface CacheResult {
  gpuHitRate: number | null;
  cpuHitRate: number | null;
  overallHitRate: number | null;
  method: string | null;
  cachedTotal: number | null;
}

/** The token-weighted rate over a set of endpoints (also used per role by the time series). */
export function combineCache(group: readonly EndpointFacts[]): CacheResult {
  const withCounters = group.filter((f) => f.counts !== null && f.counts.den !== null && f.counts.den > 0);
  if (withCounters.length > 0) {
    const den = sum(withCounters.map((f) => f.counts!.den))!;
    const gpu = sum(withCounters.map((f) => f.counts!.gpu)) ?? 0;
    const extList = withCounters.filter((f) => f.counts!.ext !== null);
    const ext = sum(extList.map((f) => f.counts!.ext));
    const extDen = sum(extList.map((f) => f.counts!.extDen));
    const sharedExt = sum(extList.filter((f) => f.counts!.extShared).map((f) => f.counts!.ext)) ?? 0;
    return {
      gpuHitRate: gpu / den,
      cpuHitRate: rate(ext, extDen),
      overallHitRate: Math.min(1, (gpu + sharedExt) / den),
      method: "token-weighted counters",
      cachedTotal: gpu,
    };
  }
  const gauged = group.filter((f) => f.gaugeHitRateAvg !== null);
  if (gauged.length > 0) {
    const weighted = gauged.every((f) => (f.promptTokens ?? 0) > 0);
    const w = (f: EndpointFacts) => (weighted ? f.promptTokens! : 1);
    const total = gauged.reduce((a, f) => a + w(f), 0);
    const avg = gauged.reduce((a, f) => a + f.gaugeHitRateAvg! * w(f), 0) / total;
    return {
      gpuHitRate: avg,
      cpuHitRate: null,
      overallHitRate: avg,
      method: weighted ? "gauge avg weighted by prompt tokens" : "gauge avg unweighted",
      cachedTotal: null,
    };
  }
  return { gpuHitRate: null, cpuHitRate: null, overallHitRate: null, method: null, cachedTotal: null };
}

/** Mean usage over endpoints, weighted by capacity when every endpoint's capacity is known. */
export function combineUsage(group: readonly EndpointFacts[]): { avg: number | null; max: number | null } {
  const withUsage = group.filter((f) => f.usageAvg !== null);
  const maxes = group.map((f) => f.usageMax).filter((v): v is number => v !== null);
  const max = maxes.length > 0 ? maxes.reduce((m, v) => Math.max(m, v), -Infinity) : null;
  if (withUsage.length === 0) return { avg: null, max };
  const byCapacity = withUsage.every((f) => f.capacity !== null);
  const w = (f: EndpointFacts) => (byCapacity ? f.capacity!.tokens : 1);
  const total = withUsage.reduce((a, f) => a + w(f), 0);
  return { avg: withUsage.reduce((a, f) => a + f.usageAvg! * w(f), 0) / total, max };
}

export function summarizeServerMetrics(
  set: MetricSet,
  logs: readonly LogCapacity[] = [],
): ServerMetricsSummary {
  const warnings: string[] = [];
  const byEndpoint = new Map<string, MetricSet["series"]>();
  for (const s of set.series) {
    const list = byEndpoint.get(s.endpoint) ?? [];
    list.push(s);
    byEndpoint.set(s.endpoint, list);
  }
  const disaggregated = hasPrefillLabel(set.series);
  const facts = [...byEndpoint.entries()]
    .sort((a, b) => compareEndpointNames(a[0], b[0]))
    .map(([ep, series]) => endpointFacts(ep, series, set.windows.get(ep) ?? null, disaggregated));

  const backend = detectBackend(set.series.map((s) => s.name));
  if (set.series.length > 0 && backend === null) {
    const names = [...new Set(set.series.map((s) => s.name))].sort().slice(0, 5);
    warnings.push(
      `server metrics: no known engine prefix (vllm:, sglang:, trtllm_, dynamo_, atom) among ${names.join(", ")}`,
    );
  }
  for (const w of collectorWarnings(facts)) warnings.push(w);
  const prefill = prefillSide(facts);
  const decode = decodeSide(facts);
  const frontends = facts.filter((f) => f.frontendInputTokens !== null || f.frontendOutputTokens !== null);

  const cache = combineCache(prefill);
  const frontendCached = sum(frontends.map((f) => f.frontendCachedTokens));
  const frontendInput = sum(frontends.map((f) => f.frontendInputTokens));
  const frontendHitRate = rate(frontendCached, frontendInput);
  if (cache.overallHitRate === null && frontendHitRate !== null) {
    cache.overallHitRate = frontendHitRate;
    cache.method = "dynamo frontend cached / input tokens";
  }

  const engineCaps = facts.filter((f) => f.capacity !== null);
  const logTokens = logs.some((l) => l.tokens !== null) ? sum(logs.map((l) => l.tokens)) : null;
  for (const l of logs) if (l.tokens === null) warnings.push(`server log: KV capacity not used (${l.note})`);
  const capacityFromMetrics = engineCaps.length > 0 ? sum(engineCaps.map((f) => f.capacity!.tokens)) : null;
  const gpuTotalTokens = capacityFromMetrics ?? logTokens;

  const usage = combineUsage(facts.filter((f) => f.role !== "frontend" && f.role !== "router"));
  const offloadFacts = facts.filter(
    (f) => f.offloadBytesGpuToCpu !== null || f.offloadBytesCpuToGpu !== null,
  );
  const bytesOut = sum(offloadFacts.map((f) => f.offloadBytesGpuToCpu));
  const bytesIn = sum(offloadFacts.map((f) => f.offloadBytesCpuToGpu));
  const timeOut = sum(offloadFacts.map((f) => f.offloadTimeGpuToCpuS));
  const timeIn = sum(offloadFacts.map((f) => f.offloadTimeCpuToGpuS));
  const hasTime = timeOut !== null || timeIn !== null;
  const windowS = offloadFacts.reduce<number | null>(
    (a, f) => (f.windowS === null ? a : Math.max(a ?? 0, f.windowS)),
    null,
  );

  const promptEngine = sum(prefill.map((f) => f.promptTokens));
  const block: ServerMetricsBlock = {
    backend,
    cache: {
      gpuHitRate: cache.gpuHitRate,
      cpuHitRate: cache.cpuHitRate,
      overallHitRate: cache.overallHitRate,
      method: cache.method,
    },
    kvCache: { gpuTotalTokens, gpuUsageAvg: usage.avg, gpuUsageMax: usage.max },
    kvOffload: {
      bytesGpuToCpu: bytesOut,
      bytesCpuToGpu: bytesIn,
      bandwidthGpuToCpuBytesPerSecond: hasTime ? rate(bytesOut, timeOut) : rate(bytesOut, windowS),
      bandwidthCpuToGpuBytesPerSecond: hasTime ? rate(bytesIn, timeIn) : rate(bytesIn, windowS),
    },
    tokens: {
      promptTotal: frontendInput ?? promptEngine,
      cachedTotal: cache.cachedTotal ?? frontendCached,
      generationTotal:
        sum(frontends.map((f) => f.frontendOutputTokens)) ?? sum(decode.map((f) => f.generationTokens)),
    },
  };

  const info: Record<string, string | number | boolean | null> = {
    serverMetricsEndpoints: facts.length,
    kvCapacitySource: capacityFromMetrics !== null ? "metrics" : logTokens !== null ? "server-log" : null,
    cacheHitRateScope:
      cache.method === null
        ? null
        : prefill.map((f) => f.role).includes("prefill")
          ? "prefill endpoints"
          : "all engine endpoints",
    offloadBandwidthMethod: bandwidthMethod(offloadFacts.length > 0, hasTime, windowS),
    offloadCounterSource: [...new Set(offloadFacts.map((f) => f.offloadSource))].join("; ") || null,
    // Σ hits / Σ queries over endpoints: token-weighted, so a busy endpoint counts for its tokens.
    externalPrefixCacheHitRate: rate(
      sum(facts.map((f) => f.external.hits)),
      sum(facts.map((f) => (f.external.hits === null ? null : f.external.queries))),
    ),
    frontendCacheHitRate: frontendHitRate,
    routerKvHitRate: facts.map((f) => f.routerKvHitRate).find((v) => v !== null) ?? null,
    routerSharedCacheHitRate: facts.map((f) => f.routerSharedHitRate).find((v) => v !== null) ?? null,
    tokenTotalsSource:
      frontendInput !== null ? "dynamo frontend" : promptEngine !== null ? "engine counters by role" : null,
  };
  // The Cache view fetches the predicted-vs-delivered payload only when it was stored.
  if (hasRouterSide(facts)) info.routerPrediction = true;
  if (capacityFromMetrics === null && logTokens !== null)
    info.kvCapacityNote = logs.map((l) => `${l.engine}: ${l.note}`).join("; ");

  const rows: EndpointRow[] = facts.map((f) => ({
    endpoint: f.endpoint,
    role: f.role,
    cacheHitRate: f.hitRate,
    promptTokens: f.promptTokens ?? f.frontendInputTokens,
    cachedTokens: f.counts ? f.counts.gpu : f.frontendCachedTokens,
    generationTokens: f.generationTokens ?? f.frontendOutputTokens,
    kvCapacityTokens: f.capacity?.tokens ?? null,
    kvUsageAvg: f.usageAvg,
    offloadBytesGpuToCpu: f.offloadBytesGpuToCpu,
    offloadBytesCpuToGpu: f.offloadBytesCpuToGpu,
    offloadBandwidthGpuToCpuBytesPerSecond: f.offloadBandwidthGpuToCpu,
    offloadBandwidthCpuToGpuBytesPerSecond: f.offloadBandwidthCpuToGpu,
    requestCount: null,
    kvCacheHitRate: null,
  }));
  return { block, facts, rows, info, warnings };
}

/**
 * Endpoints scraped without the engine series the views need (docs/metrics.md §Collectors): a worker that
 * shows only Dynamo runtime series had engine metrics off; a TRT-LLM engine without any
 * `trtllm_kv_cache_*` series had iteration stats off. Say which flag turns them on.
 */
export function collectorWarnings(facts: readonly EndpointFacts[]): string[] {
  const out: string[] = [];
  for (const f of facts) {
    if (f.role === "frontend" || f.role === "router") continue;
    const names = f.series.map((s) => s.name);
    if (f.engine === null && names.some((n) => n.startsWith("dynamo_component_")))
      out.push(
        `${f.endpoint}: a Dynamo worker with no engine series (trtllm_*, vllm:*, sglang:*); for TensorRT-LLM turn on publish_events_and_metrics`,
      );
    else if (f.engine === "trtllm" && !names.some((n) => n.startsWith("trtllm_kv_cache_")))
      out.push(
        `${f.endpoint}: TensorRT-LLM exports no trtllm_kv_cache_* series; turn on enable_iter_perf_stats for KV cache metrics`,
      );
    if (f.kvStatsUnpublished)
      out.push(
        `${f.endpoint}: Dynamo's kvstats_* gauges were never set (total_blocks is 0), so KV usage and hit rate are not exported; for TensorRT-LLM turn on publish_events_and_metrics`,
      );
  }
  return out;
}

export const ROLE_ORDER: EndpointRole[] = ["prefill", "decode", "combined", "frontend", "router"];
