/**
 * Which counters make an endpoint's token-weighted cache hit rate (docs/metrics.md §Cache hit rate): cached
 * prompt tokens over prompt tokens, per engine. The gauge fallback lives in summarize.ts so a
 * run never mixes the two methods silently.
 */
import {
  ATOM_CACHED,
  ATOM_FULL,
  PROMPT_TOKENS,
  SGLANG_CACHED,
  TRTLLM_CACHED,
  TRTLLM_CACHED_BY_TIER,
  VLLM_BY_SOURCE,
  VLLM_EXTERNAL_HITS,
  VLLM_EXTERNAL_QUERIES,
  VLLM_PREFIX_HITS,
  VLLM_PREFIX_QUERIES,
} from "@/lib/formats/server-metrics/catalog";
import { ofNames, sumCounters } from "./select";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";

/**
 * Where a cached prompt token came from. Every tier is a share of the same denominator, all
 * prompt tokens looked up (docs/metrics.md §Cache hit rate), so the overall rate is their sum.
 * - gpu: the engine's own prefix cache in GPU memory;
 * - host: the engine's CPU (host) tier: SGLang HiCache `host`, TensorRT-LLM `host`, vLLM's
 *   CPU offloading connector;
 * - external: a tier outside the engine: a KV connector such as LMCache or KVBM, SGLang
 *   `storage`, TensorRT-LLM `disk`.
 */
export type CacheTier = "gpu" | "host" | "external";

export interface CacheSelection {
  /** How the counters were read, for the summary's `method`. */
  source: string;
  /** Every prompt token looked up in the cache (the one denominator). */
  den: MetricSeries[];
  /** Prompt tokens served from GPU cache. */
  gpu: MetricSeries[];
  /** Prompt tokens served from the CPU / host tier. */
  host: MetricSeries[];
  /** Prompt tokens served from an external tier (KV connector, storage, disk). */
  ext: MetricSeries[];
  /**
   * A connector's own lookups, where the engine counts them (vLLM
   * `external_prefix_cache_hits / _queries`): queries are the prompt tokens the GPU cache did
   * not cover, so hits / queries is a conditional rate, never shown as a tier's share.
   */
  lookupHits: MetricSeries[];
  lookupQueries: MetricSeries[];
}

const selection = (
  source: string,
  den: MetricSeries[],
  tiers: Partial<Record<CacheTier, MetricSeries[]>>,
  lookup: { hits: MetricSeries[]; queries: MetricSeries[] } = { hits: [], queries: [] },
): CacheSelection => ({
  source,
  den,
  gpu: tiers.gpu ?? [],
  host: tiers.host ?? [],
  ext: tiers.external ?? [],
  lookupHits: lookup.hits,
  lookupQueries: lookup.queries,
});

/** SGLang `cache_source` (device | host | storage) as a tier; unlabelled = device. */
function sglangTier(source: string | undefined): CacheTier {
  const s = (source ?? "device").toLowerCase();
  return s === "device" || s === "gpu" ? "gpu" : s === "host" || s === "cpu" ? "host" : "external";
}

/** TensorRT-LLM `cache_tier` (gpu | host | disk) as a tier. */
function trtllmTier(tier: string | undefined): CacheTier {
  const s = (tier ?? "gpu").toLowerCase();
  return s === "gpu" ? "gpu" : s === "host" || s === "cpu" ? "host" : "external";
}

const byTier = (series: MetricSeries[], tierOf: (s: MetricSeries) => CacheTier) => ({
  gpu: series.filter((s) => tierOf(s) === "gpu"),
  host: series.filter((s) => tierOf(s) === "host"),
  external: series.filter((s) => tierOf(s) === "external"),
});

/**
 * vLLM counts what its KV connector served as external (`external_kv_transfer`,
 * `external_prefix_cache_hits`) whichever connector it is. When the endpoint also exports
 * LMCache's (`lmcache:*`) or Dynamo KVBM's (`kvbm_*`) series, the connector is that external
 * cache; otherwise it is vLLM's CPU offloading connector, the host tier (InferenceX's aggregation
 * calls it the CPU cache too).
 */
function vllmConnectorTier(series: readonly MetricSeries[]): CacheTier {
  return series.some((s) => s.name.startsWith("lmcache:") || s.name.startsWith("kvbm_"))
    ? "external"
    : "host";
}

/**
 * vLLM writes its connector's counters whether or not a KV connector is configured:
 * `prompt_tokens_by_source{source="external_kv_transfer"}` is created for every source, and
 * `external_prefix_cache_queries / _hits` are registered always and counted only with a connector
 * (vllm/v1/metrics/loggers.py: `connector_prefix_cache_stats is not None`). So the connector's tier
 * is measured only when something shows a connector: its tier served tokens, the connector counted
 * lookups, or LMCache's or KVBM's own series are scraped. Otherwise the tier is not exported, never
 * a 0 % tier.
 */
function vllmConnectorSeries(
  series: readonly MetricSeries[],
  tier: MetricSeries[],
  queries: MetricSeries[],
): MetricSeries[] {
  const connector =
    (sumCounters(tier) ?? 0) > 0 ||
    (sumCounters(queries) ?? 0) > 0 ||
    series.some((s) => s.name.startsWith("lmcache:") || s.name.startsWith("kvbm_"));
  return connector ? tier : [];
}

export function cacheSelection(series: readonly MetricSeries[]): CacheSelection | null {
  const connector = vllmConnectorTier(series);
  const externalHits = ofNames(series, VLLM_EXTERNAL_HITS);
  const externalQueries = ofNames(series, VLLM_EXTERNAL_QUERIES);
  const lookup = { hits: externalHits, queries: externalQueries };
  const bySource = ofNames(series, VLLM_BY_SOURCE).filter((s) => s.labels.source !== undefined);
  if (bySource.length > 0 && (sumCounters(bySource) ?? 0) > 0) {
    // vLLM's own split of every prompt token; preferred over prefix counters like the reference (T14).
    return selection(
      "vllm prompt_tokens_by_source",
      bySource,
      {
        gpu: bySource.filter((s) => s.labels.source === "local_cache_hit"),
        [connector]: vllmConnectorSeries(
          series,
          bySource.filter((s) => s.labels.source === "external_kv_transfer"),
          externalQueries,
        ),
      },
      lookup,
    );
  }
  const queries = ofNames(series, VLLM_PREFIX_QUERIES);
  const hits = queries.length > 0 ? ofNames(series, VLLM_PREFIX_HITS) : [];
  if (hits.length > 0) {
    // prefix_cache_queries counts every prompt token looked up; the connector's hits are tokens
    // the GPU cache missed (vllm/v1/core/sched/scheduler.py: its queries are num_tokens − local
    // hits), so both tiers share the one denominator and never overlap.
    return selection(
      "vllm prefix_cache_hits / prefix_cache_queries",
      queries,
      { gpu: hits, [connector]: vllmConnectorSeries(series, externalHits, externalQueries) },
      lookup,
    );
  }
  const prompt = ofNames(series, PROMPT_TOKENS);
  const sglang = ofNames(series, SGLANG_CACHED);
  if (sglang.length > 0 && prompt.length > 0)
    return selection(
      "sglang cached_tokens / prompt_tokens",
      prompt,
      byTier(sglang, (s) => sglangTier(s.labels.cache_source)),
    );
  const trtCached = ofNames(series, TRTLLM_CACHED);
  const trtTier = ofNames(series, TRTLLM_CACHED_BY_TIER);
  if ((trtCached.length > 0 || trtTier.length > 0) && prompt.length > 0) {
    const tiers = byTier(trtTier, (s) => trtllmTier(s.labels.cache_tier));
    return selection("trtllm prompt_cached_tokens / prompt_tokens", prompt, {
      ...tiers,
      gpu: trtCached.length > 0 ? trtCached : tiers.gpu,
    });
  }
  const atomCached = ofNames(series, ATOM_CACHED);
  const atomFull = ofNames(series, ATOM_FULL);
  if (atomCached.length > 0 && atomFull.length > 0)
    return selection("atom prefix_cache_cached_tokens / full_tokens", atomFull, { gpu: atomCached });
  return null;
}

export interface CacheCounts {
  /** Prompt tokens looked up; 0 is a real answer (an idle engine), null = no usable value. */
  den: number | null;
  gpu: number | null;
  /** null = the engine exports no such tier (not 0). */
  host: number | null;
  ext: number | null;
  lookupHits: number | null;
  lookupQueries: number | null;
}

export function cacheCounts(sel: CacheSelection): CacheCounts {
  return {
    den: sumCounters(sel.den),
    gpu: sumCounters(sel.gpu) ?? 0,
    host: sumCounters(sel.host),
    ext: sumCounters(sel.ext),
    lookupHits: sumCounters(sel.lookupHits),
    lookupQueries: sumCounters(sel.lookupQueries),
  };
}

/** Off-GPU tokens served: host + external, null when the engine exports neither tier. */
export function offGpu(c: CacheCounts): number | null {
  return c.host === null && c.ext === null ? null : (c.host ?? 0) + (c.ext ?? 0);
}
