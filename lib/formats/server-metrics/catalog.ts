/**
 * Which Prometheus family means what, per engine (docs/metrics.md §Known traps,
 * docs/formats.md §Server metrics). Names are canonical: a trailing `_total` is already stripped
 * (types.ts canonicalName), so `trtllm_prompt_tokens_total` and `trtllm_prompt_tokens` are one.
 */
export const PROMPT_TOKENS = [
  "vllm:prompt_tokens",
  "sglang:prompt_tokens",
  "trtllm_prompt_tokens",
  "atom:prompt_tokens",
  "atom_prompt_tokens",
];
export const GENERATION_TOKENS = [
  "vllm:generation_tokens",
  "sglang:generation_tokens",
  "trtllm_generation_tokens",
  "atom:generation_tokens",
  "atom_generation_tokens",
];

/** vLLM: prefix-cache lookups counted in tokens; hits / queries is a token-weighted rate. */
export const VLLM_PREFIX_HITS = "vllm:prefix_cache_hits";
export const VLLM_PREFIX_QUERIES = "vllm:prefix_cache_queries";
export const VLLM_EXTERNAL_HITS = "vllm:external_prefix_cache_hits";
export const VLLM_EXTERNAL_QUERIES = "vllm:external_prefix_cache_queries";
/** vLLM prompt tokens split by `source` = local_cache_hit | external_kv_transfer | local_compute. */
export const VLLM_BY_SOURCE = "vllm:prompt_tokens_by_source";
/** SGLang cached prompt tokens by `cache_source` = device | host. */
export const SGLANG_CACHED = "sglang:cached_tokens";
/** SGLang histograms of prompt length per request, all and uncached (computed) tokens. */
export const SGLANG_PROMPT_HISTOGRAM = "sglang:prompt_tokens_histogram";
export const SGLANG_UNCACHED_HISTOGRAM = "sglang:uncached_prompt_tokens_histogram";
/**
 * LMCache's own counters (lmcache/observability.py): tokens its retrieves asked for and found.
 * They count from the prompt's start, tokens the GPU cache also holds included, so they give
 * LMCache's own hit rate, never the engine's external share.
 */
export const LMCACHE_REQUESTED_TOKENS = "lmcache:num_requested_tokens";
export const LMCACHE_HIT_TOKENS = "lmcache:num_hit_tokens";
export const TRTLLM_CACHED = "trtllm_prompt_cached_tokens";
/** TRT-LLM cached tokens per `cache_tier` (gpu | host | disk), newer engines only. */
export const TRTLLM_CACHED_BY_TIER = "trtllm_prompt_cache_hit_tokens";
export const ATOM_CACHED = ["atom:prefix_cache_cached_tokens", "atom_prefix_cache_cached_tokens"];
export const ATOM_FULL = ["atom:prefix_cache_full_tokens", "atom_prefix_cache_full_tokens"];

/** Engine hit-rate gauges: the fallback when no counters exist (their avg, never max: trap T3). */
export const HIT_RATE_GAUGES = [
  "trtllm_kv_cache_hit_rate",
  "sglang:cache_hit_rate",
  "dynamo_component_kvstats_gpu_prefix_cache_hit_rate",
];

export const USAGE_GAUGES = [
  "vllm:kv_cache_usage_perc",
  "vllm:gpu_cache_usage_perc",
  "sglang:token_usage",
  "trtllm_kv_cache_utilization",
  "atom:kv_cache_usage_ratio",
  "atom_kv_cache_usage_ratio",
];
/** Dynamo's own usage gauges: used only where the engine publishes none. */
export const DYNAMO_USAGE_GAUGES = [
  "dynamo_component_kvstats_gpu_cache_usage_percent",
  "dynamo_component_gpu_cache_usage_percent",
];
export const CPU_USAGE_GAUGES = ["vllm:cpu_kv_cache_usage_perc", "trtllm_kv_cache_host_utilization"];
export const SGLANG_HOST_USED = "sglang:hicache_host_used_tokens";
export const SGLANG_HOST_TOTAL = "sglang:hicache_host_total_tokens";

export const TRTLLM_MAX_BLOCKS = "trtllm_kv_cache_max_blocks";
export const TRTLLM_TOKENS_PER_BLOCK = "trtllm_kv_cache_tokens_per_block";
/** Info families whose labels carry the block size (trap T2b: the gauge above may not exist). */
export const TRTLLM_CONFIG_INFO = ["trtllm_cache_config_info", "trtllm_kv_cache_config_info"];
export const BLOCK_SIZE_LABELS = ["tokens_per_block", "block_size", "page_size"];
export const SGLANG_MAX_TOTAL_TOKENS = "sglang:max_total_num_tokens";
export const VLLM_CACHE_CONFIG_INFO = "vllm:cache_config_info";

/**
 * vLLM's offloading connector, newer generation: flat counters, one per direction. "store" is
 * GPU → offload medium, "load" the way back; times are seconds spent in the transfers.
 */
export const VLLM_OFFLOAD_STORE_BYTES = "vllm:kv_offload_store_bytes";
export const VLLM_OFFLOAD_STORE_TIME = "vllm:kv_offload_store_time";
export const VLLM_OFFLOAD_LOAD_BYTES = "vllm:kv_offload_load_bytes";
export const VLLM_OFFLOAD_LOAD_TIME = "vllm:kv_offload_load_time";
/**
 * The deprecated generation, still written beside the flat one for the CPU spec: the same bytes
 * again, split by `transfer_type` = GPU_to_CPU | CPU_to_GPU. Never added to the flat counters.
 */
export const VLLM_OFFLOAD_DEPRECATED_BYTES = "vllm:kv_offload_total_bytes";
export const VLLM_OFFLOAD_DEPRECATED_TIME = "vllm:kv_offload_total_time";
export const VLLM_TRANSFER_TYPE_LABEL = "transfer_type";
/**
 * Tiered offloading: traffic between the CPU (primary) tier and each secondary tier, by `tier`
 * ("1:fs", …). Read is secondary → CPU (promotion), write is CPU → secondary (cascade).
 */
export const VLLM_TIERING_READ_BYTES = "vllm:kv_offload_tiering_read_bytes";
export const VLLM_TIERING_READ_TIME = "vllm:kv_offload_tiering_read_time";
export const VLLM_TIERING_WRITE_BYTES = "vllm:kv_offload_tiering_write_bytes";
export const VLLM_TIERING_WRITE_TIME = "vllm:kv_offload_tiering_write_time";
/** Chunk lookups per tier; engines before the rename counted them as blocks. */
export const VLLM_TIERING_HITS = ["vllm:kv_offload_tiering_chunk_hits", "vllm:kv_offload_tiering_block_hits"];
export const VLLM_TIERING_QUERIES = [
  "vllm:kv_offload_tiering_chunk_queries",
  "vllm:kv_offload_tiering_block_queries",
];
/** Every tiered-offload series, each tier's counters told apart by VLLM_TIER_LABEL. */
export const VLLM_TIERING_NAMES = [
  VLLM_TIERING_READ_BYTES,
  VLLM_TIERING_READ_TIME,
  VLLM_TIERING_WRITE_BYTES,
  VLLM_TIERING_WRITE_TIME,
  ...VLLM_TIERING_HITS,
  ...VLLM_TIERING_QUERIES,
];
export const VLLM_TIER_LABEL = "tier";

/**
 * Offload counters by direction that are not vLLM's connector: TensorRT-LLM's host offload and
 * onboard bytes, and the `vllm:kv_offload_*_gpu_to_cpu` names of InferenceX's aggregation tests
 * (no vLLM release writes those; read last, so a real vLLM series always wins).
 */
export const OFFLOAD_BYTES_GPU_TO_CPU = ["trtllm_kv_cache_offload_bytes", "vllm:kv_offload_bytes_gpu_to_cpu"];
export const OFFLOAD_BYTES_CPU_TO_GPU = ["trtllm_kv_cache_onboard_bytes", "vllm:kv_offload_bytes_cpu_to_gpu"];
export const OFFLOAD_TIME_GPU_TO_CPU = ["vllm:kv_offload_time_gpu_to_cpu"];
export const OFFLOAD_TIME_CPU_TO_GPU = ["vllm:kv_offload_time_cpu_to_gpu"];

export const REQUESTS_RUNNING = [
  "vllm:num_requests_running",
  "sglang:num_running_reqs",
  "trtllm_num_requests_running",
  "atom:num_requests_running",
];
export const REQUESTS_WAITING = [
  "vllm:num_requests_waiting",
  "sglang:num_queue_reqs",
  "trtllm_num_requests_waiting",
  "atom:num_requests_waiting",
];

export const FRONTEND_INPUT_TOKENS = "dynamo_frontend_input_sequence_tokens";
export const FRONTEND_OUTPUT_TOKENS = [
  "dynamo_frontend_output_tokens",
  "dynamo_frontend_output_sequence_tokens",
];
export const FRONTEND_CACHED_TOKENS = "dynamo_frontend_cached_tokens";
/**
 * Dynamo's KV router: a histogram (0..1) of the overlap it predicted for the worker it chose,
 * one observation per routed request, labelled with the workers' `dynamo_component`.
 */
export const ROUTER_KV_HIT_RATE = "dynamo_component_router_kv_hit_rate";
/** llm-d's endpoint picker (approximate prefix plugin): matched / total prefix of the chosen endpoint. */
export const LLMD_PREFIX_HIT_RATIO = "inference_extension_prefix_indexer_hit_ratio";
/** Labels that name the worker pool a router metric is about (Dynamo's metrics hierarchy). */
export const POOL_LABELS = ["dynamo_namespace", "dynamo_component"];
export const ROUTER_SHARED_HIT_RATE = "dynamo_component_router_shared_cache_hit_rate";

/**
 * Families that are counters even when a raw scrape gives no `# TYPE` (JSONL exports carry
 * values only): every name above that counts, plus anything that ended in `_total`.
 */
export const KNOWN_COUNTERS = new Set<string>([
  ...PROMPT_TOKENS,
  ...GENERATION_TOKENS,
  VLLM_PREFIX_HITS,
  VLLM_PREFIX_QUERIES,
  VLLM_EXTERNAL_HITS,
  VLLM_EXTERNAL_QUERIES,
  VLLM_BY_SOURCE,
  SGLANG_CACHED,
  "sglang:realtime_tokens",
  LMCACHE_REQUESTED_TOKENS,
  LMCACHE_HIT_TOKENS,
  TRTLLM_CACHED,
  TRTLLM_CACHED_BY_TIER,
  ...ATOM_CACHED,
  ...ATOM_FULL,
  ...OFFLOAD_BYTES_GPU_TO_CPU,
  ...OFFLOAD_BYTES_CPU_TO_GPU,
  ...OFFLOAD_TIME_GPU_TO_CPU,
  ...OFFLOAD_TIME_CPU_TO_GPU,
  VLLM_OFFLOAD_STORE_BYTES,
  VLLM_OFFLOAD_STORE_TIME,
  VLLM_OFFLOAD_LOAD_BYTES,
  VLLM_OFFLOAD_LOAD_TIME,
  VLLM_OFFLOAD_DEPRECATED_BYTES,
  VLLM_OFFLOAD_DEPRECATED_TIME,
  ...VLLM_TIERING_NAMES,
  ...FRONTEND_OUTPUT_TOKENS,
  "vllm:request_success",
]);
