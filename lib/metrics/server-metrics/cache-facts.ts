/**
 * The Cache view's headline rates as label → text, one definition per label (docs/metrics.md
 * §Cache hit rate). Counters that exist at 0 read "0 of N" or "0 lookups", never "not exported";
 * the engines' other signals (a hit-rate gauge, SGLang's uncached-prompt histogram, LMCache's own
 * rate, a connector's lookup rate) are shown beside the rates under their own names.
 */
import type { ServerMetricsBlock } from "@/lib/api/schemas";
import { formatCount, formatRate } from "@/lib/format-number";

export interface CacheFact {
  label: string;
  /** null: the figure is not exported (the view says which series it needs). */
  text: string | null;
  /** What the figure is, in a sentence shown on hover. */
  definition: string;
}

const OF_PROMPT = "served tokens / all prompt tokens looked up";

/** "12.5 % (1,234 of 9,876 prompt tokens)", or "0 lookups" when the counters looked nothing up. */
function share(rate: number | null, served: number | null, lookups: number | null): string | null {
  if (lookups === 0) return "0 lookups (counters exported at 0)";
  if (rate === null) return null;
  return served !== null && lookups !== null
    ? `${formatRate(rate)} (${formatCount(served)} of ${formatCount(lookups)} prompt tokens)`
    : formatRate(rate);
}

export function cacheFacts(
  cache: ServerMetricsBlock["cache"],
  info: Record<string, unknown> = {},
): CacheFact[] {
  const lookups = cache.lookupTokens;
  const served = cache.servedTokens;
  const counters = cache.method === "token-weighted counters";
  const facts: CacheFact[] = [
    {
      label: "overall hit rate",
      text: share(
        cache.overallHitRate,
        (served.gpu ?? 0) + (served.host ?? 0) + (served.external ?? 0),
        lookups,
      ),
      definition: `GPU + CPU/host + external: ${OF_PROMPT}`,
    },
    {
      label: counters || lookups !== null ? "GPU hit rate" : "GPU hit rate (gauge)",
      text: share(cache.gpuHitRate, served.gpu, lookups),
      definition: counters ? `GPU prefix cache: ${OF_PROMPT}` : `mean of the engines' hit-rate gauges`,
    },
  ];
  if (cache.cpuHitRate !== null || served.host !== null)
    facts.push({
      label: "CPU/host hit rate",
      text: share(cache.cpuHitRate, served.host, lookups),
      definition: `the engine's CPU (host) tier: ${OF_PROMPT}`,
    });
  if (cache.externalHitRate !== null || served.external !== null)
    facts.push({
      label: "external hit rate",
      text: share(cache.externalHitRate, served.external, lookups),
      definition: `a tier outside the engine (KV connector such as LMCache or KVBM, storage, disk): ${OF_PROMPT}`,
    });
  const lookup = info.externalPrefixCacheHitRate;
  if (typeof lookup === "number")
    facts.push({
      label: "KV connector lookup hit rate",
      text: formatRate(lookup),
      definition:
        "vllm:external_prefix_cache_hits / external_prefix_cache_queries: of the prompt tokens the GPU cache missed, the share the connector served",
    });
  if (cache.gaugeHitRateAvg !== null && counters)
    facts.push({
      label: "engine hit-rate gauge (mean)",
      text: formatRate(cache.gaugeHitRateAvg),
      definition:
        "the mean of the engine's own hit-rate gauge (sglang:cache_hit_rate, trtllm_kv_cache_hit_rate) over the window: a per-interval ratio, not token-weighted",
    });
  if (cache.histogramHitRate !== null)
    facts.push({
      label: "uncached-prompt histogram",
      text: formatRate(cache.histogramHitRate),
      definition:
        "1 − Σ sglang:uncached_prompt_tokens_histogram / Σ sglang:prompt_tokens_histogram: the prompt tokens SGLang did not compute",
    });
  if (cache.lmcacheHitRate !== null)
    facts.push({
      label: "LMCache hit rate (its own)",
      text: formatRate(cache.lmcacheHitRate),
      definition:
        "lmcache:num_hit_tokens / num_requested_tokens: LMCache counts from the prompt's start, tokens the GPU cache also held included",
    });
  return facts;
}

/**
 * The per-endpoint hit-rate chart's empty-state line: counters that exist at 0 are said to be 0,
 * and "not exported" is said only when no endpoint exports any.
 */
export function endpointHitRateMissing(cache: ServerMetricsBlock["cache"] | null): string {
  const families = cache?.countersExported ?? [];
  if (families.length > 0)
    return cache?.lookupTokens === 0
      ? `The prefix-cache counters (${families.join(", ")}) are exported but looked up 0 prompt tokens: nothing was cached or missed in this window.`
      : `Every endpoint's prefix-cache counters (${families.join(", ")}) read 0 cached prompt tokens: a 0 % hit rate, not a missing one.`;
  return "No endpoint exports prefix-cache counters or a hit-rate gauge (vllm:prefix_cache_hits/queries, sglang:cached_tokens, trtllm_prompt_cached_tokens); scrape the engines with aiperf --server-metrics.";
}
