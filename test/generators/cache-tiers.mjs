// Prometheus text scrapes of engines with tiered prefix caches, named and labelled as each
// producer's source writes them, so the cache hit rates of every backend can be pinned by hand:
//
// - vLLM, vllm/v1/metrics/loggers.py: `vllm:prompt_tokens_total`,
//   `vllm:prompt_tokens_by_source_total{source=local_cache_hit|external_kv_transfer|local_compute}`,
//   `vllm:prefix_cache_queries_total` / `_hits_total` and the KV connector's
//   `vllm:external_prefix_cache_queries_total` / `_hits_total`, whose queries are the prompt tokens
//   the GPU cache did not cover (vllm/v1/core/sched/scheduler.py: `request.num_tokens −
//   num_new_local_computed_tokens`) and whose hits are the tokens the connector loaded.
// - LMCache beside vLLM, lmcache/observability.py: `lmcache:num_requested_tokens_total`,
//   `lmcache:num_hit_tokens_total` (counted from the prompt's start).
// - SGLang, python/sglang/srt/metrics/collector.py: `sglang:prompt_tokens_total`,
//   `sglang:cached_tokens_total{cache_source=device|host|storage}`.
// - TensorRT-LLM: `trtllm_prompt_tokens_total`, `trtllm_prompt_cache_hit_tokens_total{cache_tier=gpu|host|disk}`.
//
// One scrape per file: a single scrape's counters are the run's totals.

/** @param {Record<string, string>} labels */
const lbl = (labels) =>
  `{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(",")}}`;

/**
 * @param {{name: string, help: string, samples: Array<{labels: Record<string, string>, value: number}>}[]} families
 */
function counters(families) {
  return (
    families
      .flatMap((f) => [
        `# HELP ${f.name} ${f.help}`,
        `# TYPE ${f.name} counter`,
        ...f.samples.map((s) => `${f.name}${lbl(s.labels)} ${s.value.toFixed(1)}`),
      ])
      .join("\n") + "\n"
  );
}

const VLLM = { engine: "0", model_name: "Qwen/Qwen3-8B" };

/**
 * vLLM with a KV connector. `bySourceWritten: false` leaves `prompt_tokens_by_source` out; `bySourceZero`
 * writes it at 0 on every source (a build that registers it but never counts into it), so the
 * prefix-cache counters are what is read. `lmcache` adds LMCache's own counters.
 * @param {{prompt: number, gpuHits: number, connectorHits: number, bySourceWritten?: boolean, bySourceZero?: boolean, lmcache?: {requested: number, hit: number}}} o
 */
export function vllmScrape(o) {
  const computed = o.prompt - o.gpuHits - o.connectorHits;
  const families = [
    {
      name: "vllm:prompt_tokens_total",
      help: "Number of prefill tokens processed.",
      samples: [{ labels: VLLM, value: o.prompt }],
    },
    {
      name: "vllm:prefix_cache_queries_total",
      help: "Prefix cache queries, in terms of number of queried tokens.",
      samples: [{ labels: VLLM, value: o.prompt }],
    },
    {
      name: "vllm:prefix_cache_hits_total",
      help: "Prefix cache hits, in terms of number of cached tokens.",
      samples: [{ labels: VLLM, value: o.gpuHits }],
    },
    {
      name: "vllm:external_prefix_cache_queries_total",
      help: "External prefix cache queries from KV connector cross-instance cache sharing, in terms of number of queried tokens.",
      samples: [{ labels: VLLM, value: o.prompt - o.gpuHits }],
    },
    {
      name: "vllm:external_prefix_cache_hits_total",
      help: "External prefix cache hits from KV connector cross-instance cache sharing, in terms of number of cached tokens.",
      samples: [{ labels: VLLM, value: o.connectorHits }],
    },
  ];
  if (o.bySourceWritten !== false)
    families.push({
      name: "vllm:prompt_tokens_by_source_total",
      help: "Number of prompt tokens by source.",
      samples: [
        ["local_cache_hit", o.gpuHits],
        ["external_kv_transfer", o.connectorHits],
        ["local_compute", computed],
      ].map(([source, v]) => ({
        labels: { ...VLLM, source: String(source) },
        value: o.bySourceZero ? 0 : Number(v),
      })),
    });
  if (o.lmcache)
    families.push(
      {
        name: "lmcache:num_requested_tokens_total",
        help: "Total number of tokens requested from lmcache",
        samples: [{ labels: { model_name: VLLM.model_name, worker_id: "0" }, value: o.lmcache.requested }],
      },
      {
        name: "lmcache:num_hit_tokens_total",
        help: "Total number of tokens hit in lmcache",
        samples: [{ labels: { model_name: VLLM.model_name, worker_id: "0" }, value: o.lmcache.hit }],
      },
    );
  return counters(families);
}

/**
 * An engine's prompt-token counter and its counter of cached prompt tokens by tier, one sample per
 * tier under `tierLabel`, all with the engine's `labels`.
 */
function promptAndCached(labels, prompt, cached, tierLabel, tiers) {
  return counters([
    { ...prompt, samples: [{ labels, value: prompt.value }] },
    {
      ...cached,
      samples: tiers.map(([tier, v]) => ({ labels: { ...labels, [tierLabel]: tier }, value: Number(v) })),
    },
  ]);
}

/** @param {{prompt: number, device: number, host: number, storage: number}} o */
export function sglangScrape(o) {
  return promptAndCached(
    { model_name: "Qwen/Qwen3-8B", engine_type: "unified", tp_rank: "0", pp_rank: "0" },
    { name: "sglang:prompt_tokens_total", help: "Number of prefill tokens processed.", value: o.prompt },
    {
      name: "sglang:cached_tokens_total",
      help: "Number of cached prompt tokens by source (device/host/storage).",
    },
    "cache_source",
    [
      ["device", o.device],
      ["host", o.host],
      ["storage", o.storage],
    ],
  );
}

/** @param {{prompt: number, gpu: number, host: number, disk: number}} o */
export function trtllmScrape(o) {
  return promptAndCached(
    { model_name: "Qwen/Qwen3-8B", engine_type: "trtllm" },
    { name: "trtllm_prompt_tokens_total", help: "Number of prompt tokens processed.", value: o.prompt },
    {
      name: "trtllm_prompt_cache_hit_tokens_total",
      help: "Number of prompt tokens served from the KV cache, by tier.",
    },
    "cache_tier",
    [
      ["gpu", o.gpu],
      ["host", o.host],
      ["disk", o.disk],
    ],
  );
}
