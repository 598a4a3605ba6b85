/**
 * One scrape's metric families of a vLLM server with KV offload, named, labelled and described
 * as vLLM registers them (vllm/distributed/kv_transfer/kv_connector/v1/offloading/metrics.py,
 * vllm/v1/kv_offload/tiering/base.py, vllm/v1/metrics/loggers.py), for vllm-offload.mjs. `engines`
 * maps the `engine` label to that engine's cumulative state; `tier` is the fs tier's or null;
 * `both` adds the deprecated `transfer_type` generation beside the flat counters.
 */
const SIZE_BUCKETS = [1e6, 5e6, 10e6, 20e6, 40e6, 60e6, 80e6, 100e6, 150e6, 200e6];

const counter = (help, unit, samples) => ({ type: "counter", help, unit, samples });
const gauge = (help, unit, samples) => ({ type: "gauge", help, unit, samples });

/** The families of one sample per engine: type, HELP text, unit and what of the engine's state it is. */
const PER_ENGINE = {
  "vllm:num_requests_running": [
    gauge,
    "Number of requests in model execution batches.",
    "requests",
    (s) => s.running,
  ],
  "vllm:kv_cache_usage_perc": [
    gauge,
    "KV-cache usage. 1 means 100 percent usage.",
    "ratio",
    (s) => (s.running ? 0.4375 : 0),
  ],
  "vllm:prompt_tokens": [counter, "Number of prefill tokens processed.", "tokens", (s) => s.prompt],
  "vllm:generation_tokens": [counter, "Number of generation tokens processed.", "tokens", (s) => s.gen],
  "vllm:prefix_cache_queries": [
    counter,
    "Prefix cache queries, in terms of number of queried tokens.",
    "tokens",
    (s) => s.queries,
  ],
  "vllm:prefix_cache_hits": [
    counter,
    "Prefix cache hits, in terms of number of cached tokens.",
    "tokens",
    (s) => s.localHits,
  ],
  "vllm:external_prefix_cache_queries": [
    counter,
    "External prefix cache queries from KV connector cross-instance cache sharing, in terms of number of queried tokens.",
    "tokens",
    (s) => s.extQueries,
  ],
  "vllm:external_prefix_cache_hits": [
    counter,
    "External prefix cache hits from KV connector cross-instance cache sharing, in terms of number of cached tokens.",
    "tokens",
    (s) => s.extHits,
  ],
  "vllm:kv_offload_store_bytes": [
    counter,
    "Total bytes stored from GPU to offload storage.",
    "bytes",
    (s) => s.storeBytes,
  ],
  "vllm:kv_offload_store_time": [
    counter,
    "Total store time from GPU to offload storage, in seconds.",
    "seconds",
    (s) => s.storeS,
  ],
  "vllm:kv_offload_load_bytes": [
    counter,
    "Total bytes loaded from offload storage to GPU.",
    "bytes",
    (s) => s.loadBytes,
  ],
  "vllm:kv_offload_load_time": [
    counter,
    "Total load time from offload storage to GPU, in seconds.",
    "seconds",
    (s) => s.loadS,
  ],
};

/** The fs tier's families (one sample, engine 0): type, HELP text, unit and what of the tier's state it is. */
const TIERING = {
  "vllm:kv_offload_tiering_write_bytes": [
    counter,
    "Total bytes written from the primary tier to secondary tiers.",
    "bytes",
    (t) => t.writeBytes,
  ],
  "vllm:kv_offload_tiering_write_time": [
    counter,
    "Total time spent writing from the primary tier to secondary tiers, in seconds.",
    "seconds",
    (t) => t.writeS,
  ],
  "vllm:kv_offload_tiering_read_bytes": [
    counter,
    "Total bytes read from secondary tiers into the primary tier.",
    "bytes",
    (t) => t.readBytes,
  ],
  "vllm:kv_offload_tiering_read_time": [
    counter,
    "Total time spent reading from secondary tiers into the primary tier, in seconds.",
    "seconds",
    (t) => t.readS,
  ],
  "vllm:kv_offload_tiering_chunk_queries": [
    counter,
    "Number of chunk lookup queries sent to secondary tiers.",
    "chunks",
    (t) => t.queries,
  ],
  "vllm:kv_offload_tiering_chunk_hits": [
    counter,
    "Number of chunk lookup hits in secondary tiers.",
    "chunks",
    (t) => t.hits,
  ],
};

/** Each family of `table` with its samples as `samples` makes them from the state it reads. */
const built = (table, samples) =>
  Object.fromEntries(
    Object.entries(table).map(([name, [kind, help, unit, read]]) => [name, kind(help, unit, samples(read))]),
  );

function sizeHistogram(labels, ops) {
  const buckets = {};
  for (const le of SIZE_BUCKETS) buckets[le.toFixed(1)] = ops.filter((b) => b <= le).length;
  buckets["+Inf"] = ops.length;
  return { labels, buckets, sum: ops.reduce((a, b) => a + b, 0), count: ops.length };
}

export function families(engines, tier, both, { model, blockTokens, gpuBlocks, tierName }) {
  const per = (f) =>
    Object.entries(engines).map(([engine, st]) => ({ labels: { engine, model_name: model }, value: f(st) }));
  const fam = {
    ...built(PER_ENGINE, per),
    "vllm:kv_offload_store_size": {
      type: "histogram",
      help: "Histogram of KV offload store operation size, in bytes.",
      unit: "bytes",
      samples: Object.entries(engines).map(([engine, s]) =>
        sizeHistogram({ engine, model_name: model }, s.storeOps),
      ),
    },
    "vllm:cache_config_info": gauge(
      "Information of the LLMEngine CacheConfig",
      null,
      Object.keys(engines).map((engine) => ({
        labels: {
          block_size: String(blockTokens),
          engine,
          num_gpu_blocks: String(gpuBlocks),
          model_name: model,
        },
        value: 1,
      })),
    ),
  };
  if (both) {
    const typed = (f) =>
      Object.entries(engines).flatMap(([engine, st]) =>
        ["GPU_to_CPU", "CPU_to_GPU"].map((tt) => ({
          labels: { engine, model_name: model, transfer_type: tt },
          value: f(st, tt === "GPU_to_CPU"),
        })),
      );
    fam["vllm:kv_offload_total_bytes"] = counter(
      "Number of bytes offloaded by KV connector",
      "bytes",
      typed((s, out) => (out ? s.storeBytes : s.loadBytes)),
    );
    fam["vllm:kv_offload_total_time"] = counter(
      "Total time measured by all KV offloading operations",
      "seconds",
      typed((s, out) => (out ? s.storeS : s.loadS)),
    );
    fam["vllm:kv_offload_size"] = {
      type: "histogram",
      help: "Histogram of KV offload transfer size, in bytes.",
      unit: "bytes",
      samples: Object.entries(engines).flatMap(([engine, s]) => [
        sizeHistogram({ engine, model_name: model, transfer_type: "GPU_to_CPU" }, s.storeOps),
        sizeHistogram({ engine, model_name: model, transfer_type: "CPU_to_GPU" }, s.loadOps),
      ]),
    };
  }
  if (tier)
    Object.assign(
      fam,
      built(TIERING, (read) => [
        { labels: { engine: "0", model_name: model, tier: tierName }, value: read(tier) },
      ]),
    );
  return JSON.parse(JSON.stringify(fam));
}
