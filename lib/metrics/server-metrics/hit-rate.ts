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

export interface CacheSelection {
  /** How the counters were read, for the summary's `method`. */
  source: string;
  /** Prompt tokens looked up in the cache (the denominator). */
  den: MetricSeries[];
  /** Prompt tokens served from GPU cache. */
  gpu: MetricSeries[];
  /** Prompt tokens served from CPU / external cache (host tier, LMCache, KV connector). */
  ext: MetricSeries[];
  /** Denominator of the external rate: `den` unless the engine counts external lookups apart. */
  extDen: MetricSeries[];
}

/** `extDen` is `den` itself unless given: the identity tells cacheCounts the two share a denominator. */
const selection = (
  source: string,
  den: MetricSeries[],
  gpu: MetricSeries[],
  ext: MetricSeries[],
  extDen: MetricSeries[] = den,
): CacheSelection => ({ source, den, gpu, ext, extDen });

export function cacheSelection(series: readonly MetricSeries[]): CacheSelection | null {
  const bySource = ofNames(series, VLLM_BY_SOURCE).filter((s) => s.labels.source !== undefined);
  if (bySource.length > 0 && (sumCounters(bySource) ?? 0) > 0) {
    // vLLM's own split of every prompt token; preferred over prefix counters like the reference (T14).
    return selection(
      "vllm prompt_tokens_by_source",
      bySource,
      bySource.filter((s) => s.labels.source === "local_cache_hit"),
      bySource.filter((s) => s.labels.source === "external_kv_transfer"),
    );
  }
  const queries = ofNames(series, VLLM_PREFIX_QUERIES);
  const hits = queries.length > 0 ? ofNames(series, VLLM_PREFIX_HITS) : [];
  if (hits.length > 0) {
    const externalHits = ofNames(series, VLLM_EXTERNAL_HITS);
    const externalQueries = ofNames(series, VLLM_EXTERNAL_QUERIES);
    return selection(
      "vllm prefix_cache_hits / prefix_cache_queries",
      queries,
      hits,
      externalHits,
      externalQueries,
    );
  }
  const prompt = ofNames(series, PROMPT_TOKENS);
  const sglang = ofNames(series, SGLANG_CACHED);
  if (sglang.length > 0 && prompt.length > 0)
    return selection(
      "sglang cached_tokens / prompt_tokens",
      prompt,
      sglang.filter((s) => (s.labels.cache_source ?? "device") === "device"),
      sglang.filter((s) => (s.labels.cache_source ?? "device") !== "device"),
    );
  const trtCached = ofNames(series, TRTLLM_CACHED);
  const trtTier = ofNames(series, TRTLLM_CACHED_BY_TIER);
  if ((trtCached.length > 0 || trtTier.length > 0) && prompt.length > 0)
    return selection(
      "trtllm prompt_cached_tokens / prompt_tokens",
      prompt,
      trtCached.length > 0 ? trtCached : trtTier.filter((s) => (s.labels.cache_tier ?? "gpu") === "gpu"),
      trtTier.filter((s) => s.labels.cache_tier !== undefined && s.labels.cache_tier !== "gpu"),
    );
  const atomCached = ofNames(series, ATOM_CACHED);
  const atomFull = ofNames(series, ATOM_FULL);
  if (atomCached.length > 0 && atomFull.length > 0)
    return selection("atom prefix_cache_cached_tokens / full_tokens", atomFull, atomCached, []);
  return null;
}

export interface CacheCounts {
  den: number | null;
  gpu: number | null;
  ext: number | null;
  extDen: number | null;
  /** Whether `ext` shares `den` (then overall = (gpu + ext) / den). */
  extShared: boolean;
}

export function cacheCounts(sel: CacheSelection): CacheCounts {
  return {
    den: sumCounters(sel.den),
    gpu: sumCounters(sel.gpu) ?? 0,
    ext: sumCounters(sel.ext),
    extDen: sumCounters(sel.extDen),
    extShared: sel.extDen === sel.den,
  };
}
