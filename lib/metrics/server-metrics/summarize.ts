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
import { sumKnown } from "../stats";
import type { EndpointRole, EndpointRow, ServerMetricsBlock } from "@/lib/api/schemas";
import { compareEndpointNames } from "@/lib/api/endpoint-order";
import type { LogCapacity } from "@/lib/formats/server-log";
import { detectBackend } from "./backend";
import { hasRouterSide } from "./router-side";
import { bandwidthMethod, endpointFacts, type EndpointFacts } from "./endpoint-facts";
import type { CacheSelection } from "./hit-rate";
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

/** Unweighted mean of the known values; null when none is known. */
function meanOf(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

/** A per-endpoint rate weighted by each endpoint's prompt tokens (unweighted when any is unknown). */
function tokenWeighted(
  group: readonly EndpointFacts[],
  of: (f: EndpointFacts) => number | null,
): number | null {
  const known = group.filter((f) => of(f) !== null);
  if (known.length === 0) return null;
  if (!known.every((f) => (f.promptTokens ?? 0) > 0)) return meanOf(known.map(of));
  const total = known.reduce((a, f) => a + f.promptTokens!, 0);
  return known.reduce((a, f) => a + of(f)! * f.promptTokens!, 0) / total;
}

/** The counter families an endpoint's cache selection read, for "exported at 0" texts. */
function cacheFamilies(sel: CacheSelection): string[] {
  return [...new Set([...sel.den, ...sel.gpu, ...sel.host, ...sel.ext].map((s) => s.name))];
}

export interface CacheResult {
  /** GPU-served / all prompt tokens. */
  gpuHitRate: number | null;
  /** CPU/host-tier-served / all prompt tokens; null when no endpoint exports a host tier. */
  cpuHitRate: number | null;
  /** External-tier-served / all prompt tokens; null when no endpoint exports an external tier. */
  externalHitRate: number | null;
  /** (GPU + CPU/host + external) / all prompt tokens, at most 1. */
  overallHitRate: number | null;
  method: string | null;
  cachedTotal: number | null;
  /** Tokens served per tier (null = tier not exported). */
  served: { gpu: number | null; host: number | null; external: number | null };
  /** Prompt tokens looked up by endpoints whose counters exist, 0 included; null = no counters. */
  lookupTokens: number | null;
}

/** No cache known: a new object each time, as the run's summary fills it in afterwards. */
const noCache = (): CacheResult => ({
  gpuHitRate: null,
  cpuHitRate: null,
  externalHitRate: null,
  overallHitRate: null,
  method: null,
  cachedTotal: null,
  served: { gpu: null, host: null, external: null },
  lookupTokens: null,
});

/**
 * The token-weighted rates over a set of endpoints (also used per role by the time series), one
 * definition per label (docs/metrics.md §Cache hit rate): every tier's tokens over the same
 * denominator, all prompt tokens looked up, so overall = GPU + CPU/host + external.
 */
export function combineCache(group: readonly EndpointFacts[]): CacheResult {
  const exported = group.filter((f) => f.counts !== null && f.counts.den !== null);
  const lookupTokens = exported.length > 0 ? sumKnown(exported.map((f) => f.counts!.den)) : null;
  const withCounters = exported.filter((f) => f.counts!.den! > 0);
  if (withCounters.length > 0) {
    const den = sumKnown(withCounters.map((f) => f.counts!.den))!;
    const gpu = sumKnown(withCounters.map((f) => f.counts!.gpu)) ?? 0;
    const host = sumKnown(withCounters.map((f) => f.counts!.host));
    const ext = sumKnown(withCounters.map((f) => f.counts!.ext));
    return {
      gpuHitRate: gpu / den,
      cpuHitRate: rate(host, den),
      externalHitRate: rate(ext, den),
      overallHitRate: Math.min(1, (gpu + (host ?? 0) + (ext ?? 0)) / den),
      method: "token-weighted counters",
      cachedTotal: gpu,
      served: { gpu, host, external: ext },
      lookupTokens,
    };
  }
  // Counters that exist at 0 lookups are an idle cache, not a missing one: no gauge stands in.
  if (exported.length > 0) return { ...noCache(), lookupTokens, method: "token-weighted counters" };
  const gauged = group.filter((f) => f.gaugeHitRateAvg !== null);
  if (gauged.length > 0) {
    const weighted = gauged.every((f) => (f.promptTokens ?? 0) > 0);
    const w = (f: EndpointFacts) => (weighted ? f.promptTokens! : 1);
    const total = gauged.reduce((a, f) => a + w(f), 0);
    const avg = gauged.reduce((a, f) => a + f.gaugeHitRateAvg! * w(f), 0) / total;
    return {
      ...noCache(),
      gpuHitRate: avg,
      overallHitRate: avg,
      method: weighted ? "gauge avg weighted by prompt tokens" : "gauge avg unweighted",
    };
  }
  return noCache();
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
  const frontendCached = sumKnown(frontends.map((f) => f.frontendCachedTokens));
  const frontendInput = sumKnown(frontends.map((f) => f.frontendInputTokens));
  const frontendHitRate = rate(frontendCached, frontendInput);
  if (cache.overallHitRate === null && frontendHitRate !== null) {
    cache.overallHitRate = frontendHitRate;
    cache.method = "dynamo frontend cached / input tokens";
  }

  const engineCaps = facts.filter((f) => f.capacity !== null);
  const logTokens = logs.some((l) => l.tokens !== null) ? sumKnown(logs.map((l) => l.tokens)) : null;
  for (const l of logs) if (l.tokens === null) warnings.push(`server log: KV capacity not used (${l.note})`);
  const capacityFromMetrics =
    engineCaps.length > 0 ? sumKnown(engineCaps.map((f) => f.capacity!.tokens)) : null;
  const gpuTotalTokens = capacityFromMetrics ?? logTokens;

  const usage = combineUsage(facts.filter((f) => f.role !== "frontend" && f.role !== "router"));
  const offloadFacts = facts.filter(
    (f) => f.offloadBytesGpuToCpu !== null || f.offloadBytesCpuToGpu !== null,
  );
  const bytesOut = sumKnown(offloadFacts.map((f) => f.offloadBytesGpuToCpu));
  const bytesIn = sumKnown(offloadFacts.map((f) => f.offloadBytesCpuToGpu));
  const timeOut = sumKnown(offloadFacts.map((f) => f.offloadTimeGpuToCpuS));
  const timeIn = sumKnown(offloadFacts.map((f) => f.offloadTimeCpuToGpuS));
  const hasTime = timeOut !== null || timeIn !== null;
  const windowS = offloadFacts.reduce<number | null>(
    (a, f) => (f.windowS === null ? a : Math.max(a ?? 0, f.windowS)),
    null,
  );

  const promptEngine = sumKnown(prefill.map((f) => f.promptTokens));
  const block: ServerMetricsBlock = {
    backend,
    cache: {
      gpuHitRate: cache.gpuHitRate,
      cpuHitRate: cache.cpuHitRate,
      overallHitRate: cache.overallHitRate,
      method: cache.method,
      externalHitRate: cache.externalHitRate,
      lookupTokens: cache.lookupTokens,
      servedTokens: cache.served,
      // The engines' other cache signals, each under its own definition, shown beside the rates.
      gaugeHitRateAvg: meanOf(prefill.map((f) => f.gaugeHitRateAvg)),
      histogramHitRate: tokenWeighted(prefill, (f) => f.histogramHitRate),
      lmcacheHitRate: meanOf(prefill.map((f) => f.lmcacheHitRate)),
      countersExported: [...new Set(prefill.flatMap((f) => (f.cache ? cacheFamilies(f.cache) : [])))],
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
        sumKnown(frontends.map((f) => f.frontendOutputTokens)) ??
        sumKnown(decode.map((f) => f.generationTokens)),
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
    // Σ hits / Σ queries over endpoints: of the prompt tokens the GPU cache missed, the share
    // the KV connector served (a lookup rate, not a share of all prompt tokens).
    externalPrefixCacheHitRate: rate(
      sumKnown(facts.map((f) => f.external.hits)),
      sumKnown(facts.map((f) => (f.external.hits === null ? null : f.external.queries))),
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
