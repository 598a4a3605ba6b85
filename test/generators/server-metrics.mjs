#!/usr/bin/env node
/**
 * Synthetic server-metrics run: N TensorRT-LLM endpoints (first third prefill, rest decode)
 * scraped every 0.5 s for T seconds, written as the three aiperf exports of the same scrapes:
 * server_metrics_export.json (window stats + 1 s timeslices), .csv (4-decimal stats) and
 * .jsonl (raw cumulative values). Counters are integers and gauges have 4 decimals, so every
 * export carries the same numbers. Usage: node server-metrics.mjs OUT_DIR [endpoints] [seconds]
 */
import fs from "node:fs";
import path from "node:path";

const NS = 1e9;
const STEP_NS = 0.5 * NS;
const T0_NS = 1_765_000_000 * NS;

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const round4 = (x) => Math.round(x * 1e4) / 1e4;

/** Builds the scrapes in memory: one entry per endpoint with each family's samples. */
export function generateScrapes({ endpoints = 4, seconds = 30, seed = 7, tokensPerBlock = [32, 64] } = {}) {
  const rand = prng(seed);
  const out = [];
  const steps = Math.round((seconds * NS) / STEP_NS);
  for (let e = 0; e < endpoints; e++) {
    const prefill = e < Math.max(1, Math.floor(endpoints / 3));
    const url = `http://10.2.0.${e + 1}:8000/metrics`;
    const labels = { disaggregation_mode: prefill ? "context" : "generation", model_name: "m" };
    const tpb = tokensPerBlock[e % tokensPerBlock.length];
    const cum = { prompt: 1000, cached: 400, generation: 50, offload: 0, onboard: 0 };
    const samples = [];
    for (let i = 0; i <= steps; i++) {
      if (i > 0) {
        const p = Math.floor(rand() * 2000);
        cum.prompt += p;
        cum.cached += prefill ? Math.floor(p * (0.5 + 0.4 * rand())) : 0;
        cum.generation += prefill ? 1 : Math.floor(rand() * 300);
        cum.offload += Math.floor(rand() * 1e6);
        cum.onboard += Math.floor(rand() * 5e5);
      }
      samples.push({
        t: T0_NS + i * STEP_NS,
        counters: {
          trtllm_prompt_tokens_total: cum.prompt,
          trtllm_prompt_cached_tokens_total: cum.cached,
          trtllm_generation_tokens_total: cum.generation,
          trtllm_kv_cache_offload_bytes_total: cum.offload,
          trtllm_kv_cache_onboard_bytes_total: cum.onboard,
        },
        gauges: {
          trtllm_kv_cache_utilization: round4(0.2 + 0.6 * rand()),
          trtllm_num_requests_running: Math.floor(rand() * 16),
          trtllm_num_requests_waiting: Math.floor(rand() * 4),
          trtllm_kv_cache_max_blocks: 1000 * (e + 1),
          trtllm_kv_cache_tokens_per_block: tpb,
        },
      });
    }
    out.push({ url, display: `10.2.0.${e + 1}:8000`, labels, samples });
  }
  return out;
}

function gaugeStats(values) {
  const n = values.length;
  const avg = values.reduce((a, b) => a + b, 0) / n;
  return { avg, min: Math.min(...values), max: Math.max(...values) };
}

/** 1 s slices: counter deltas land in the slice that holds the later sample (start, end]; gauge samples in [start, end). */
function slicesOf(samples, pick, kind) {
  const start = samples[0].t;
  const acc = new Map();
  for (let i = kind === "counter" ? 1 : 0; i < samples.length; i++) {
    const t = samples[i].t;
    const k =
      kind === "counter" ? Math.max(0, Math.floor((t - start - 1) / NS)) : Math.floor((t - start) / NS);
    const a = acc.get(k) ?? { sum: 0, n: 0, max: -Infinity };
    const v = kind === "counter" ? pick(samples[i]) - pick(samples[i - 1]) : pick(samples[i]);
    a.sum += v;
    a.n++;
    a.max = Math.max(a.max, v);
    acc.set(k, a);
  }
  return [...acc.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([k, a]) => {
      const base = { start_ns: start + k * NS, end_ns: start + (k + 1) * NS };
      return kind === "counter"
        ? { ...base, total: a.sum, rate: a.sum }
        : { ...base, avg: a.sum / a.n, min: 0, max: a.max };
    });
}

export function toJson(scrapes) {
  const metrics = {};
  const add = (name, type, s, stats, timeslices) => {
    metrics[name] ??= { type, description: name, series: [] };
    metrics[name].series.push({ endpoint_url: s.url, labels: s.labels, stats, timeslices });
  };
  const endpointInfo = {};
  for (const s of scrapes) {
    const first = s.samples[0];
    const last = s.samples[s.samples.length - 1];
    const durationS = (last.t - first.t) / NS;
    endpointInfo[s.url] = { total_fetches: s.samples.length, duration_seconds: durationS };
    for (const raw of Object.keys(first.counters)) {
      const total = last.counters[raw] - first.counters[raw];
      // aiperf names counters as prometheus_client parses them: without `_total`.
      add(
        raw.replace(/_total$/, ""),
        "counter",
        s,
        { total, rate: total / durationS },
        slicesOf(s.samples, (x) => x.counters[raw], "counter"),
      );
    }
    for (const name of Object.keys(first.gauges))
      add(
        name,
        "gauge",
        s,
        gaugeStats(s.samples.map((x) => x.gauges[name])),
        slicesOf(s.samples, (x) => x.gauges[name], "gauge"),
      );
  }
  return JSON.stringify(
    { schema_version: "1.0", summary: { endpoint_info: endpointInfo }, metrics },
    null,
    1,
  );
}

export function toCsv(scrapes) {
  const f4 = (x) => x.toFixed(4);
  const gauges = ["Endpoint,Type,Metric,Unit,avg,min,max,disaggregation_mode,model_name,Description"];
  const counters = ["Endpoint,Type,Metric,Unit,total,rate,disaggregation_mode,model_name,Description"];
  for (const s of scrapes) {
    const first = s.samples[0];
    const last = s.samples[s.samples.length - 1];
    const durationS = (last.t - first.t) / NS;
    const lab = `${s.labels.disaggregation_mode},${s.labels.model_name}`;
    for (const name of Object.keys(first.gauges)) {
      const st = gaugeStats(s.samples.map((x) => x.gauges[name]));
      gauges.push(
        `${s.display},gauge,${name},,${f4(st.avg)},${f4(st.min)},${f4(st.max)},${lab},"${name}, a gauge"`,
      );
    }
    for (const raw of Object.keys(first.counters)) {
      const total = last.counters[raw] - first.counters[raw];
      counters.push(
        `${s.display},counter,${raw.replace(/_total$/, "")},,${f4(total)},${f4(total / durationS)},${lab},${raw}`,
      );
    }
  }
  return [
    "# AIPerf Server Metrics Export (CSV)",
    "# schema_version: 1.0",
    "#",
    ...gauges,
    "",
    ...counters,
    "",
  ].join("\n");
}

export function toJsonl(scrapes) {
  const lines = [];
  for (const s of scrapes)
    for (const x of s.samples) {
      const metrics = {};
      for (const [k, v] of Object.entries(x.counters)) metrics[k] = [{ labels: s.labels, value: v }];
      for (const [k, v] of Object.entries(x.gauges)) metrics[k] = [{ labels: s.labels, value: v }];
      lines.push(
        JSON.stringify({ endpoint_url: s.url, timestamp_ns: x.t, endpoint_latency_ns: 1000, metrics }),
      );
    }
  return lines.join("\n") + "\n";
}

/** The numbers every export must yield, computed from the raw scrapes (the generator's ground truth). */
export function truth(scrapes) {
  let prompt = 0;
  let cached = 0;
  let generation = 0;
  let capacity = 0;
  let offload = 0;
  for (const s of scrapes) {
    const first = s.samples[0];
    const last = s.samples[s.samples.length - 1];
    const delta = (k) => last.counters[k] - first.counters[k];
    if (s.labels.disaggregation_mode === "context") {
      prompt += delta("trtllm_prompt_tokens_total");
      cached += delta("trtllm_prompt_cached_tokens_total");
    } else generation += delta("trtllm_generation_tokens_total");
    capacity += first.gauges.trtllm_kv_cache_max_blocks * first.gauges.trtllm_kv_cache_tokens_per_block;
    offload += delta("trtllm_kv_cache_offload_bytes_total");
  }
  const windowS = (scrapes[0].samples.at(-1).t - scrapes[0].samples[0].t) / NS;
  return {
    hitRate: cached / prompt,
    prompt,
    cached,
    generation,
    capacity,
    offload,
    offloadPerSecond: offload / windowS,
  };
}

export function writeRun(dir, opts) {
  const scrapes = generateScrapes(opts);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "truth.json"), JSON.stringify(truth(scrapes)));
  fs.writeFileSync(path.join(dir, "server_metrics_export.json"), toJson(scrapes));
  fs.writeFileSync(path.join(dir, "server_metrics_export.csv"), toCsv(scrapes));
  fs.writeFileSync(path.join(dir, "server_metrics_export.jsonl"), toJsonl(scrapes));
  return scrapes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = "server-metrics-run", n = "4", s = "30"] = process.argv.slice(2);
  writeRun(dir, { endpoints: Number(n), seconds: Number(s) });
  console.log(`wrote ${dir}`);
}
