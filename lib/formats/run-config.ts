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
  "datasetSampling",
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
 * aiperf's prompt source, sampling and seed from its summary, in both `input_config` layouts
 * (lib/formats/aiperf-input-config.ts). v1 `UserConfig` (≤0.7, `input_config.input`):
 * `public_dataset` (a named public corpus), `file` (an input file, with `custom_dataset_type`),
 * else synthetic prompts; `random_seed`. v2 `BenchmarkConfig` (0.8+, aiperf
 * src/aiperf/config/dataset/config.py): `datasets[]`, each `{name, type, …}` of type `synthetic`,
 * `file` (`path` or inline `records`, `format`) or `public` (`dataset`, `hf_subset`), with
 * `sampling` (sequential, random, shuffle) and `random_seed`; the profiling phase names the one it
 * sends (`phases[].dataset`), else the only or first is read; the seed falls back to the config's
 * and `run_info.random_seed`. Both layouts name one corpus alike ("input file x.jsonl
 * (multi_turn)"), so a v1 and a v2 run of the same file compare equal. aiperf writes no hash of
 * the prompts it sent. Newer builds also describe the corpus in `metadata.dataset`
 * (`hf_dataset_name`, `loader`), which is read first.
 */
export function aiperfRunConfig(inputConfig: unknown, metadata: unknown, runInfo?: unknown): RunConfigInfo {
  const info: RunConfigInfo = {};
  const cfg = obj(inputConfig);
  const input = obj(cfg?.input);
  const meta = obj(metadata);
  const ds = obj(meta?.dataset);
  const hf = str(ds?.hf_dataset_name);
  const v2 = cfg ? v2Dataset(cfg) : null;
  if (hf) put(info, "dataset", `public dataset ${hf}`, "aiperf metadata.dataset.hf_dataset_name");
  else if (v2?.corpus) put(info, "dataset", v2.corpus, v2.source);
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
  if (v2?.sampling) put(info, "datasetSampling", v2.sampling, `${v2.source}.sampling`);
  else if (input)
    put(
      info,
      "datasetSampling",
      str(input.dataset_sampling_strategy),
      "aiperf input_config.input.dataset_sampling_strategy",
    );
  if (input) put(info, "randomSeed", num(input.random_seed), "aiperf input_config.input.random_seed");
  else if (v2?.seed !== null && v2?.seed !== undefined)
    put(info, "randomSeed", v2.seed, `${v2.source}.random_seed`);
  else if (cfg && num(cfg.random_seed) !== null)
    put(info, "randomSeed", num(cfg.random_seed), "aiperf input_config.random_seed");
  else put(info, "randomSeed", num(obj(runInfo)?.random_seed), "aiperf run_info.random_seed");
  if (meta && typeof meta.submission_valid === "boolean") {
    info.submissionValid = meta.submission_valid;
    const reasons = Array.isArray(meta.submission_invalid_reasons)
      ? meta.submission_invalid_reasons.filter((r): r is string => typeof r === "string")
      : [];
    if (reasons.length > 0) info.submissionInvalidReasons = reasons.join("; ");
  }
  return info;
}

interface V2Dataset {
  corpus: string | null;
  sampling: string | null;
  seed: number | null;
  source: string;
}

/** The v2 dataset the profiling phase sends, described as the v1 reader names a corpus. */
function v2Dataset(cfg: Record<string, unknown>): V2Dataset | null {
  const list: Array<Record<string, unknown>> = Array.isArray(cfg.datasets)
    ? cfg.datasets.map(obj).filter((d): d is Record<string, unknown> => d !== null)
    : obj(cfg.datasets)
      ? Object.entries(obj(cfg.datasets)!).flatMap(([name, d]) => (obj(d) ? [{ name, ...obj(d) }] : []))
      : obj(cfg.dataset)
        ? [obj(cfg.dataset)!]
        : [];
  if (list.length === 0) return null;
  const phases: Array<Record<string, unknown> | null> = Array.isArray(cfg.phases)
    ? cfg.phases.map(obj)
    : Object.entries(obj(cfg.phases) ?? {}).map(([name, p]) => (obj(p) ? { name, ...obj(p) } : null));
  const profiling =
    phases.find((p) => p?.name === "profiling" || p?.type === "profiling") ??
    phases.find((p) => p && p.exclude_from_results !== true && p.name !== "warmup");
  const named = str(profiling?.dataset);
  const index = named ? list.findIndex((d) => d.name === named) : 0;
  const d = list[index >= 0 ? index : 0];
  const at = Array.isArray(cfg.datasets)
    ? `aiperf input_config.datasets[${index >= 0 ? index : 0}]`
    : "aiperf input_config.datasets";
  const type = str(d.type);
  const format = str(d.format);
  let corpus: string | null = null;
  if (type === "synthetic") corpus = "synthetic";
  else if (type === "public") {
    const name = str(d.dataset) ?? str(d.hf_weka_dataset);
    const subset = str(d.hf_subset);
    corpus = name ? `public dataset ${name}${subset ? ` (${subset})` : ""}` : null;
  } else if (type === "file") {
    const file = baseName(d.path);
    corpus = file
      ? `input file ${file}${format ? ` (${format})` : ""}`
      : d.records !== undefined
        ? `inline records${format ? ` (${format})` : ""}`
        : null;
  }
  return { corpus, sampling: str(d.sampling), seed: num(d.random_seed), source: at };
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

/** A JSON setting given as text (`--speculative-config '{"method": …}'`) or already an object. */
function jsonSetting(v: unknown): Record<string, unknown> | null {
  const o = obj(v);
  if (o) return o;
  const s = str(v);
  if (!s || !s.startsWith("{")) return null;
  try {
    return obj(JSON.parse(s));
  } catch {
    return null;
  }
}

const baseName = (v: unknown): string | null => str(v)?.split(/[\\/]/).pop() ?? null;

/**
 * The tier a vLLM KV connector serves reuse from (`kv_connector`, the names registered in
 * vllm/distributed/kv_transfer/kv_connector/factory.py): LMCache's connectors offload to LMCache
 * (CPU, disk, remote), `OffloadingConnector` is vLLM's native CPU offload (the same two
 * `kv_offloading_backend` names `cache_config_info` gives), a `MultiConnector` is its
 * `kv_connector_extra_config.connectors` in order; any other connector (Nixl, P2P NCCL,
 * Mooncake …) moves KV between instances and is named as it is.
 */
function connectorTier(name: string, extra: Record<string, unknown> | null, depth = 0): string {
  if (/^LMCache/i.test(name)) return "lmcache";
  if (name === "OffloadingConnector") return "native";
  if (name === "MultiConnector" && depth < 4 && Array.isArray(extra?.connectors)) {
    const parts = extra.connectors
      .map(obj)
      .map((c) => {
        const n = str(c?.kv_connector);
        return n ? connectorTier(n, jsonSetting(c?.kv_connector_extra_config), depth + 1) : null;
      })
      .filter((p): p is string => p !== null);
    if (parts.length > 0) return parts.join("+");
  }
  return name;
}

/**
 * One serving argument of `args` as a `vllm bench sweep` result may carry it: its parameter file's
 * keys are copied into the result as written (vllm/benchmarks/sweep/serve.py `_update_run_data`),
 * and vllm/benchmarks/sweep/param_sweep.py `ParameterSweepItem` accepts `speculative_config` and
 * `speculative-config` alike, and dotted keys (`speculative_config.num_speculative_tokens`, the
 * CLI's `--speculative-config.num_speculative_tokens`) for one field of the JSON argument. The
 * whole argument first; dotted fields are gathered into an object (over the whole one's fields).
 * `undefined` when `args` states no part of it.
 */
function servingArg(args: Record<string, unknown>, name: string): unknown {
  const names = [name, name.replace(/_/g, "-")];
  let whole: unknown = undefined;
  for (const n of names) if (args[n] !== undefined) whole ??= args[n];
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args))
    for (const n of names)
      if (k.startsWith(`${n}.`) && k.length > n.length + 1) fields[k.slice(n.length + 1)] = v;
  if (Object.keys(fields).length === 0) return whole;
  return { ...(jsonSetting(whole) ?? {}), ...fields };
}

/**
 * vLLM's serving arguments where a file states them (vllm/engine/arg_utils.py `EngineArgs`):
 * `speculative_config` (`--speculative-config`, a JSON object: `method`, `num_speculative_tokens`,
 * `model` of the draft; the engine's own repr names the count `num_spec_tokens`) and
 * `kv_transfer_config` (`--kv-transfer-config`, vllm/config/kv_transfer.py `KVTransferConfig`:
 * `kv_connector`, `kv_role`, `kv_connector_extra_config`), else `kv_offloading_size` with
 * `kv_offloading_backend`. Each may be an object or its JSON text, under either spelling or as
 * dotted fields (`servingArg`). `complete` says the arguments
 * are every non-default one (vLLM's "non-default args" line), so an absent setting is vLLM's
 * default: no speculative decoding, no connector, no offload; otherwise an absent setting says
 * nothing.
 */
export function vllmServeRunConfig(
  args: Record<string, unknown>,
  source: string,
  complete: boolean,
): RunConfigInfo {
  const info: RunConfigInfo = {};
  const specRaw = servingArg(args, "speculative_config");
  if (specRaw !== undefined || complete) {
    const spec = jsonSetting(specRaw);
    if (spec || specRaw === null || specRaw === undefined) {
      const method = str(spec?.method);
      put(
        info,
        "speculativeDecoding",
        configText(
          spec
            ? [
                ["method", method],
                ["num_speculative_tokens", spec.num_speculative_tokens ?? spec.num_spec_tokens],
                ["draft_model", baseName(spec.model)],
              ]
            : [["method", "none"]],
        ),
        `${source} speculative_config`,
      );
    }
  }
  const kvRaw = servingArg(args, "kv_transfer_config");
  const kv = jsonSetting(kvRaw);
  const connector = str(kv?.kv_connector);
  const offloadSize = servingArg(args, "kv_offloading_size");
  if (connector) {
    put(
      info,
      "kvOffloadConfig",
      configText([
        ["offload", connectorTier(connector, jsonSetting(kv?.kv_connector_extra_config))],
        ["kv_connector", connector],
        ["kv_role", kv?.kv_role],
      ]),
      `${source} kv_transfer_config`,
    );
  } else if (offloadSize !== undefined && offloadSize !== null) {
    const size = num(offloadSize) ?? num(Number(offloadSize));
    put(
      info,
      "kvOffloadConfig",
      configText([
        ["offload", str(servingArg(args, "kv_offloading_backend")) ?? "native"],
        ["kv_offloading_size", size],
      ]),
      `${source} kv_offloading_size`,
    );
  } else if (complete || kvRaw === null) {
    put(info, "kvOffloadConfig", configText([["offload", "none"]]), `${source} kv_transfer_config`);
  }
  return info;
}
