/**
 * The workload and engine configuration the comparability doctor reads (docs/metrics.md
 * §Comparable runs), as run info entries: the dataset or prompt corpus, the random seed, the KV
 * cache, KV offload and speculative decoding configuration, and aiperf's submission validity.
 * Each entry has a companion `<key>Source` naming the field it was read from. A configuration is
 * written as `name=value` pairs joined by ", ", so two runs are compared on the settings both
 * state (docs/formats.md §Run configuration).
 */

export const RUN_CONFIG_KEYS = [
  "dataset",
  "randomSeed",
  "kvCacheConfig",
  "kvOffloadConfig",
  "speculativeDecoding",
] as const;
export type RunConfigKey = (typeof RUN_CONFIG_KEYS)[number];
/** The engine's settings among them (what the server ran, not what the client sent). */
export const ENGINE_CONFIG_KEYS: readonly RunConfigKey[] = [
  "kvCacheConfig",
  "kvOffloadConfig",
  "speculativeDecoding",
];

export type RunConfigInfo = Record<string, string | number | boolean>;

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A setting's value as the pair list writes it (no ", " or "=" inside a value). */
function settingText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? "on" : "off";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : null;
  if (typeof v === "string")
    return v.trim() === "" ? null : v.trim().replace(/,\s*/g, ";").replace(/=/g, ":");
  return null;
}

/** `name=value, name=value` from the settings that are set (null and undefined left out). */
export function configText(settings: Array<[string, unknown]>): string | null {
  const parts = settings
    .map(([k, v]) => [k, settingText(v)] as const)
    .filter((p): p is readonly [string, string] => p[1] !== null)
    .map(([k, v]) => `${k}=${v}`);
  return parts.length > 0 ? parts.join(", ") : null;
}

/** The settings of a `configText` string, by name. */
export function parseConfigText(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(", ")) {
    const i = part.indexOf("=");
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

function put(info: RunConfigInfo, key: RunConfigKey, value: string | number | null, source: string): void {
  if (value === null) return;
  info[key] = value;
  info[`${key}Source`] = source;
}

/**
 * aiperf's prompt source and seed from its summary (`input_config.input`, v1 `UserConfig`):
 * `public_dataset` (a named public corpus), `file` (an input file, with `custom_dataset_type`),
 * else synthetic prompts; `random_seed`. aiperf writes no hash of the prompts it sent. Newer
 * builds also describe the corpus in `metadata.dataset` (`hf_dataset_name`, `loader`).
 */
export function aiperfRunConfig(inputConfig: unknown, metadata: unknown): RunConfigInfo {
  const info: RunConfigInfo = {};
  const input = obj(obj(inputConfig)?.input);
  const meta = obj(metadata);
  const ds = obj(meta?.dataset);
  const hf = str(ds?.hf_dataset_name);
  if (hf) put(info, "dataset", `public dataset ${hf}`, "aiperf metadata.dataset.hf_dataset_name");
  else if (input) {
    const pub = str(input.public_dataset);
    const file = str(input.file);
    const type = str(input.custom_dataset_type);
    if (pub) put(info, "dataset", `public dataset ${pub}`, "aiperf input_config.input.public_dataset");
    else if (file)
      put(
        info,
        "dataset",
        `input file ${file.split(/[\\/]/).pop()}${type ? ` (${type})` : ""}`,
        "aiperf input_config.input.file",
      );
    else if (obj(input.prompt) || obj(input.conversation))
      put(info, "dataset", "synthetic", "aiperf input_config.input (no file or public dataset)");
  }
  if (input) put(info, "randomSeed", num(input.random_seed), "aiperf input_config.input.random_seed");
  if (meta && typeof meta.submission_valid === "boolean") {
    info.submissionValid = meta.submission_valid;
    const reasons = Array.isArray(meta.submission_invalid_reasons)
      ? meta.submission_invalid_reasons.filter((r): r is string => typeof r === "string")
      : [];
    if (reasons.length > 0) info.submissionInvalidReasons = reasons.join("; ");
  }
  return info;
}

/**
 * SGLang bench_serving's `dataset_name`: "random" and "random-ids" draw synthetic prompts of the
 * configured lengths (python/sglang/bench_serving.py); other names (sharegpt,
 * generated-shared-prefix, mmmu …) are corpora or shapes of their own.
 */
export function sglangDataset(name: unknown): RunConfigInfo {
  const info: RunConfigInfo = {};
  const n = str(name);
  if (n)
    put(
      info,
      "dataset",
      n === "random" || n === "random-ids" ? `synthetic (SGLang ${n})` : n,
      "SGLang bench_serving dataset_name",
    );
  return info;
}

/**
 * SGLang's server arguments as bench_serving writes them (`server_info`,
 * python/sglang/srt/server_args.py): the KV cache (`kv_cache_dtype`, `mem_fraction_static`,
 * `page_size`, `max_total_tokens`, `disable_radix_cache`), the offload tiers (HiCache:
 * `enable_hierarchical_cache`, `hicache_*`; LMCache: `enable_lmcache`) and speculative decoding
 * (`speculative_algorithm`, `speculative_num_steps`, `speculative_eagle_topk`,
 * `speculative_num_draft_tokens`, `speculative_draft_model_path`).
 */
export function sglangRunConfig(serverInfo: unknown): RunConfigInfo {
  const info: RunConfigInfo = {};
  const s = obj(serverInfo);
  if (!s) return info;
  const src = "SGLang server_info";
  const has = (k: string) => k in s;
  if (has("kv_cache_dtype") || has("mem_fraction_static") || has("disable_radix_cache"))
    put(
      info,
      "kvCacheConfig",
      configText([
        ["dtype", s.kv_cache_dtype],
        ["prefix_caching", typeof s.disable_radix_cache === "boolean" ? !s.disable_radix_cache : null],
        ["mem_fraction_static", s.mem_fraction_static],
        ["page_size", s.page_size],
        ["max_total_tokens", s.max_total_tokens],
      ]),
      src,
    );
  if (has("enable_hierarchical_cache") || has("enable_lmcache")) {
    const hicache = s.enable_hierarchical_cache === true;
    const lmcache = s.enable_lmcache === true;
    const backend = str(s.hicache_storage_backend);
    const tiers = [
      hicache ? `HiCache${backend ? `+${backend}` : ""}` : null,
      lmcache ? "LMCache" : null,
    ].filter(Boolean);
    put(
      info,
      "kvOffloadConfig",
      configText([
        ["offload", tiers.length > 0 ? tiers.join("+") : "none"],
        ...(hicache
          ? ([
              ["hicache_ratio", s.hicache_ratio],
              ["hicache_size", s.hicache_size],
              ["hicache_write_policy", s.hicache_write_policy],
            ] as Array<[string, unknown]>)
          : []),
      ]),
      src,
    );
  }
  if (has("speculative_algorithm")) {
    const algo = str(s.speculative_algorithm);
    put(
      info,
      "speculativeDecoding",
      configText(
        algo
          ? [
              ["method", algo],
              ["num_steps", s.speculative_num_steps],
              ["eagle_topk", s.speculative_eagle_topk],
              ["num_draft_tokens", s.speculative_num_draft_tokens],
              ["draft_model", str(s.speculative_draft_model_path)?.split(/[\\/]/).pop()],
            ]
          : [["method", "none"]],
      ),
      src,
    );
  }
  return info;
}

/**
 * InferenceX's result fields (utils/process_result.py): `spec_decoding` ("mtp", "none", …) and
 * `offloading` (older `kv_offloading`: "none", "cpu", …).
 */
export function inferencexRunConfig(d: Record<string, unknown>): RunConfigInfo {
  const info: RunConfigInfo = {};
  const spec = str(d.spec_decoding);
  if (spec) put(info, "speculativeDecoding", configText([["method", spec]]), "InferenceX spec_decoding");
  const offKey = str(d.offloading) ? "offloading" : "kv_offloading";
  const off = str(d[offKey]);
  if (off) put(info, "kvOffloadConfig", configText([["offload", off]]), `InferenceX ${offKey}`);
  return info;
}

/**
 * GuideLLM's report (older generation, guidellm/benchmark/benchmark.py): the request loader's
 * `data` (a synthetic spec such as "prompt_tokens=256,output_tokens=128", a file path or a
 * Hugging Face dataset id) and `args.profile.random_seed`.
 */
export function guidellmRunConfig(b: Record<string, unknown>): RunConfigInfo {
  const info: RunConfigInfo = {};
  const loader = obj(b.request_loader);
  const data = str(loader?.data);
  // A synthetic spec ("prompt_tokens=256,output_tokens=128") rather than a file or dataset id.
  const synthetic = data !== null && /^\s*\{?\s*"?[a-z_]+"?\s*[=:]/.test(data);
  if (data) put(info, "dataset", synthetic ? `synthetic (${data})` : data, "GuideLLM request_loader.data");
  const seed = num(obj(obj(b.args)?.profile)?.random_seed);
  put(info, "randomSeed", seed, "GuideLLM args.profile.random_seed");
  return info;
}

/** `key` anywhere in a parsed config (Dynamo nests the engine's options per component). */
function findKey(doc: unknown, key: string, depth = 0): Record<string, unknown> | null {
  const o = obj(doc);
  if (!o || depth > 16) return null;
  const direct = obj(o[key]);
  if (direct) return direct;
  for (const v of Object.values(o)) {
    const hit = findKey(v, key, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * TensorRT-LLM's LLM API options (`extra-llm-api-config.yml`, tensorrt_llm/llmapi/llm_args.py):
 * `kv_cache_config` (`enable_block_reuse` as `prefix_caching`, `dtype`,
 * `free_gpu_memory_fraction`, `max_tokens`, `tokens_per_block`; `host_cache_size` bytes of host
 * memory for offloaded blocks) and `speculative_config` (`decoding_type` as `method`,
 * `max_draft_len`, `speculative_model_dir`). A section the config leaves out says nothing.
 */
export function trtllmRunConfig(doc: unknown): RunConfigInfo {
  const info: RunConfigInfo = {};
  const kv = findKey(doc, "kv_cache_config");
  if (kv) {
    put(
      info,
      "kvCacheConfig",
      configText([
        ["dtype", kv.dtype],
        ["prefix_caching", typeof kv.enable_block_reuse === "boolean" ? kv.enable_block_reuse : null],
        ["free_gpu_memory_fraction", kv.free_gpu_memory_fraction],
        ["max_tokens", kv.max_tokens],
        ["tokens_per_block", kv.tokens_per_block],
      ]),
      "TensorRT-LLM kv_cache_config",
    );
    const host = num(kv.host_cache_size);
    if (host !== null)
      put(
        info,
        "kvOffloadConfig",
        configText([
          ["offload", host > 0 ? "host" : "none"],
          ["host_cache_size", host > 0 ? host : null],
        ]),
        "TensorRT-LLM kv_cache_config.host_cache_size",
      );
  }
  const spec = findKey(doc, "speculative_config");
  if (spec) {
    const method = str(spec.decoding_type);
    put(
      info,
      "speculativeDecoding",
      configText([
        ["method", method ?? "unknown"],
        ["max_draft_len", spec.max_draft_len],
        ["draft_model", str(spec.speculative_model_dir)?.split(/[\\/]/).pop()],
      ]),
      "TensorRT-LLM speculative_config",
    );
  }
  return info;
}

/**
 * vLLM's `vllm:cache_config_info` labels (every `CacheConfig` field as text, vllm/config/cache.py
 * `metrics_info`): `cache_dtype` as `dtype`, `enable_prefix_caching` as `prefix_caching`,
 * `gpu_memory_utilization`, `block_size`; and, from the vLLM versions that have them,
 * `kv_offloading_size` (GiB of CPU buffer; "None" = no KV offloading) with
 * `kv_offloading_backend` ("native" or "lmcache"). The first series that has the labels is read.
 */
export function vllmRunConfig(labelSets: ReadonlyArray<Record<string, string>>): RunConfigInfo {
  const info: RunConfigInfo = {};
  const l = labelSets.find((x) => "cache_dtype" in x || "enable_prefix_caching" in x);
  if (!l) return info;
  const src = "vLLM cache_config_info";
  const flag = (v: string | undefined) => (v === "True" ? true : v === "False" ? false : null);
  const value = (v: string | undefined) => (v === undefined || v === "None" ? null : v);
  put(
    info,
    "kvCacheConfig",
    configText([
      ["dtype", value(l.cache_dtype)],
      ["prefix_caching", flag(l.enable_prefix_caching)],
      ["gpu_memory_utilization", value(l.gpu_memory_utilization)],
      ["block_size", value(l.block_size)],
    ]),
    src,
  );
  if ("kv_offloading_size" in l) {
    const size = value(l.kv_offloading_size);
    put(
      info,
      "kvOffloadConfig",
      configText(
        size === null
          ? [["offload", "none"]]
          : [
              ["offload", value(l.kv_offloading_backend) ?? "native"],
              ["kv_offloading_size", size],
            ],
      ),
      `${src} kv_offloading_size`,
    );
  }
  return info;
}
