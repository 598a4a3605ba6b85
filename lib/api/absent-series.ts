/**
 * What a server-metrics figure needs when it reads "not exported": the series whose absence left it
 * null (docs/metrics.md §Server metrics). Shown beside the figure so a missing series is never
 * mistaken for a 0.
 */
export const ABSENT_SERIES = {
  hitRate:
    "no prefix-cache counters or hit-rate gauge (vllm:prefix_cache_hits/queries, sglang:cached_tokens, trtllm_prompt_cached_tokens, trtllm_kv_cache_hit_rate)",
  cachedTokens: "no cached-prompt-token counter",
  kvUsage: "no KV usage gauge (vllm:kv_cache_usage_perc, sglang:token_usage, trtllm_kv_cache_utilization)",
  kvCapacity:
    "no KV capacity (trtllm_kv_cache_max_blocks × tokens_per_block, vllm:cache_config_info, sglang:max_total_num_tokens or server.log)",
  promptTokens: "no prompt-token counter",
} as const;

export type AbsentSeries = keyof typeof ABSENT_SERIES;
