#!/usr/bin/env node
/**
 * One vLLM run with KV offload to CPU, scraped by aiperf and written as its three server-metrics
 * exports (aiperf-server-metrics.mjs). The series follow vLLM's source:
 * - vllm/distributed/kv_transfer/kv_connector/v1/offloading/metrics.py: flat counters
 *   `vllm:kv_offload_store_bytes` / `_store_time` / `_load_bytes` / `_load_time` (seconds) and
 *   histograms `vllm:kv_offload_store_size` / `_load_size` (bytes per transfer); for the CPU spec the
 *   deprecated `vllm:kv_offload_total_bytes` / `_total_time{transfer_type="GPU_to_CPU"|"CPU_to_GPU"}`
 *   and `vllm:kv_offload_size` are incremented from the same payload, so they repeat the flat numbers;
 * - vllm/v1/kv_offload/tiering/base.py and metrics.py: `vllm:kv_offload_tiering_{read,write}_{bytes,time}`
 *   and `_chunk_{hits,queries}` by `tier` ("1:fs"); read is a promotion into the CPU tier;
 * - vllm/v1/metrics/loggers.py: `vllm:prompt_tokens`, `generation_tokens`, `prefix_cache_{hits,queries}`,
 *   `external_prefix_cache_{hits,queries}` (tokens), `cache_config_info`, labels `model_name`, `engine`.
 *
 * Endpoint A (two engines) runs a build that writes both offload generations; endpoint B (one
 * engine, tiered CPU + fs) a build that writes only the flat one. Counters start from what the
 * servers served before the run. Timeline (0.5 s scrapes): idle baseline, 8 warmup steps, idle,
 * then the profiling phase from 5.75 s to the last scrape at 36 s: 61 steps. Every step adds the
 * same amounts (STEP below), so each total is a product a reader can check by hand. Transfer
 * times are whole 100 µs, so the CSV's 4 decimals hold them exactly.
 *
 *   node test/generators/vllm-offload.mjs OUT_DIR
 */
import fs from "node:fs";
import path from "node:path";
import { toCsv, toJson, toJsonl, toPrometheusText } from "./aiperf-server-metrics.mjs";
import { families } from "./vllm-offload-families.mjs";

const NS = 1e9;
export const T0_NS = 1_796_000_000 * NS;
export const STEP_S = 0.5;
export const SCRAPES = 73; // t = 0 … 36 s
export const WARMUP_STEPS = [2, 9]; // scrapes 2…9 (1.0 … 4.5 s) carry warmup traffic
export const PROFILING = { startS: 5.75, firstStep: 12, lastStep: 72 }; // 61 steps
export const BLOCK_TOKENS = 16;
/** 16 tokens × 32 layers × (K, V) × 8 KV heads × 128 dims × 2 bytes (bf16). */
export const BLOCK_BYTES = 16 * 32 * 2 * 8 * 128 * 2;
const MODEL = "llama-3.1-8b";

/**
 * Per engine and step: prompt tokens, GPU prefix hits, blocks loaded from the CPU tier (each one
 * an external hit of 16 tokens), blocks stored (the newly computed full blocks), transfer seconds
 * per block, generation tokens. External queries are the prompt tokens the GPU cache missed.
 */
export const STEP = {
  "10.0.0.1:8000": {
    0: {
      prompt: 2048,
      localHits: 512,
      loadBlocks: 8,
      storeBlocks: 88,
      storeS: 0.0002,
      loadS: 0.0001,
      gen: 256,
    },
    1: {
      prompt: 1536,
      localHits: 256,
      loadBlocks: 4,
      storeBlocks: 76,
      storeS: 0.0002,
      loadS: 0.0001,
      gen: 192,
    },
  },
  "10.0.0.2:8000": {
    0: {
      prompt: 3072,
      localHits: 1024,
      loadBlocks: 12,
      storeBlocks: 116,
      storeS: 0.00025,
      loadS: 0.0002,
      gen: 384,
    },
  },
};
/** Endpoint B's fs tier per step: chunks (one block each) cascaded and promoted, seconds per chunk, lookups. */
export const TIER_STEP = {
  tier: "1:fs",
  writeChunks: 58,
  writeS: 0.0004,
  readChunks: 6,
  readS: 0.0003,
  queries: 20,
  hits: 6,
};
export const GPU_BLOCKS = { "10.0.0.1:8000": 40960, "10.0.0.2:8000": 81920 };
/** Cumulative state of one engine; `before` is what the server did before aiperf connected. */
function engineState(seed) {
  const z = {};
  for (const k of [
    "prompt",
    "localHits",
    "queries",
    "extQueries",
    "extHits",
    "gen",
    "storeBytes",
    "loadBytes",
  ])
    z[k] = seed * 1_000_003 + k.length * 7919;
  return { ...z, storeS: seed * 37.5, loadS: seed * 12.25, storeOps: [], loadOps: [], running: 0 };
}

function advance(st, p) {
  const ext = p.loadBlocks * BLOCK_TOKENS;
  st.prompt += p.prompt;
  st.queries += p.prompt;
  st.localHits += p.localHits;
  st.extQueries += p.prompt - p.localHits;
  st.extHits += ext;
  st.gen += p.gen;
  st.storeBytes += p.storeBlocks * BLOCK_BYTES;
  st.loadBytes += p.loadBlocks * BLOCK_BYTES;
  // Sums of whole 100 µs steps, rounded back onto that grid so float drift never reaches the 4th decimal.
  st.storeS = Math.round((st.storeS + p.storeBlocks * p.storeS) * 1e4) / 1e4;
  st.loadS = Math.round((st.loadS + p.loadBlocks * p.loadS) * 1e4) / 1e4;
  st.storeOps.push(p.storeBlocks * BLOCK_BYTES);
  st.loadOps.push(p.loadBlocks * BLOCK_BYTES);
}

function endpointScrapes(display, both, seed) {
  const engines = Object.fromEntries(
    Object.keys(STEP[display]).map((e) => [e, engineState(seed + Number(e))]),
  );
  const tier = both
    ? null
    : {
        writeBytes: 9 * BLOCK_BYTES * 1000,
        writeS: 41.2,
        readBytes: 3 * BLOCK_BYTES * 100,
        readS: 2.5,
        queries: 90_000,
        hits: 12_000,
      };
  const scrapes = [];
  for (let i = 0; i < SCRAPES; i++) {
    const warm = i >= WARMUP_STEPS[0] && i <= WARMUP_STEPS[1];
    const prof = i >= PROFILING.firstStep && i <= PROFILING.lastStep;
    for (const [e, st] of Object.entries(engines)) {
      st.running = warm || prof ? 4 : 0;
      if (warm || prof) advance(st, STEP[display][e]);
    }
    if (tier && (warm || prof)) {
      const p = TIER_STEP;
      tier.writeBytes += p.writeChunks * BLOCK_BYTES;
      tier.readBytes += p.readChunks * BLOCK_BYTES;
      tier.writeS = Math.round((tier.writeS + p.writeChunks * p.writeS) * 1e4) / 1e4;
      tier.readS = Math.round((tier.readS + p.readChunks * p.readS) * 1e4) / 1e4;
      tier.queries += p.queries;
      tier.hits += p.hits;
    }
    // Endpoint B answers 8 ms after A in every round of scrapes.
    const t = T0_NS + i * STEP_S * NS + (both ? 0 : 8_000_000);
    const meta = {
      model: MODEL,
      blockTokens: BLOCK_TOKENS,
      gpuBlocks: GPU_BLOCKS[display],
      tierName: TIER_STEP.tier,
    };
    scrapes.push({ t, families: families(engines, tier, both, meta) });
  }
  return { url: `http://${display}/metrics`, scrapes };
}

export function generateVllmOffloadRun() {
  const endpoints = [endpointScrapes("10.0.0.1:8000", true, 3), endpointScrapes("10.0.0.2:8000", false, 11)];
  const endNs = endpoints[0].scrapes.at(-1).t;
  return {
    endpoints,
    window: { startNs: T0_NS + PROFILING.startS * NS, endNs },
    sliceS: 5,
    benchmarkId: "5f1c0d2e-offload-0000-0000-000000000001",
    inputConfig: {
      endpoint: {
        model_names: [MODEL],
        type: "chat",
        streaming: true,
        urls: ["http://10.0.0.1:8000", "http://10.0.0.2:8000"],
      },
      loadgen: { concurrency: 8, request_count: 480, warmup_request_count: 32 },
      server_metrics: ["http://10.0.0.1:8000/metrics", "http://10.0.0.2:8000/metrics"],
      server_metrics_formats: ["json", "csv", "jsonl"],
    },
  };
}

/**
 * aiperf's per-request records of the run (`profile_export.jsonl`, as aiperf's
 * `record_export_results_processor.py` writes them): warmup requests during the warmup steps, then
 * profiling requests from the phase start to the last scrape, so the records place the phase.
 */
function records(run) {
  const out = [];
  const add = (phase, startNs, endNs) =>
    out.push(
      JSON.stringify({
        metadata: {
          x_request_id: `req-${out.length}`,
          request_start_ns: startNs,
          request_end_ns: endNs,
          benchmark_phase: phase,
          was_cancelled: false,
        },
        metrics: {
          request_latency: { value: (endNs - startNs) / 1e6, unit: "ms" },
          time_to_first_token: { value: 40, unit: "ms" },
          output_sequence_length: { value: 64, unit: "tokens" },
          input_sequence_length: { value: 2048, unit: "tokens" },
        },
      }),
    );
  for (let s = WARMUP_STEPS[0]; s < WARMUP_STEPS[1]; s++)
    add("warmup", T0_NS + s * STEP_S * NS, T0_NS + (s + 1) * STEP_S * NS);
  const last = (run.window.endNs - run.window.startNs) / NS;
  for (let t = 0; t < last; t += 0.25)
    add("profiling", run.window.startNs + t * NS, run.window.startNs + Math.min(t + 0.5, last) * NS);
  return out.join("\n") + "\n";
}

/** Writes the three exports (and one raw `/metrics` text per endpoint, its last scrape) into `dir`. */
export function writeVllmOffloadRun(dir) {
  const run = generateVllmOffloadRun();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "server_metrics_export.json"), toJson(run));
  fs.writeFileSync(path.join(dir, "server_metrics_export.csv"), toCsv(run));
  fs.writeFileSync(path.join(dir, "server_metrics_export.jsonl"), toJsonl(run));
  fs.writeFileSync(path.join(dir, "profile_export.jsonl"), records(run));
  run.endpoints.forEach((ep, i) =>
    fs.writeFileSync(path.join(dir, `metrics-${i}.prom`), toPrometheusText(ep.scrapes.at(-1))),
  );
  return run;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = "vllm-offload-run"] = process.argv.slice(2);
  writeVllmOffloadRun(dir);
  console.log(`wrote ${dir}`);
}
