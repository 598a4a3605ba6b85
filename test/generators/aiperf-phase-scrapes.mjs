#!/usr/bin/env node
/**
 * One aiperf 0.6 run against two vLLM endpoints with a pre-run baseline and a warmup, written the
 * way aiperf writes it:
 * - `server_metrics_export.jsonl`: every raw scrape (aiperf `server_metrics/jsonl_writer.py`),
 *   baseline and warmup included, no phase field; endpoint B is scraped 32 ms after A.
 * - `server_metrics_export.json`: the accumulator's window stats (`server_metrics/accumulator.py`,
 *   `export_stats.py`): samples in [phase start, max(phase end, last scrape)], a counter's total =
 *   last sample inside − last sample before the start (the reference), gauges averaged inside;
 *   `summary.start_time` / `end_time` from `datetime.fromtimestamp` (local time, here UTC+2, no
 *   zone) and `endpoint_info.duration_seconds` = the endpoint's scrape span.
 * - `profile_export.jsonl` (warmup and profiling records, `record_export_results_processor.py`)
 *   and `profile_export_aiperf.json` (start_time / end_time as above).
 * - `truth.json`: the per-endpoint numbers over the phase, by the rule above.
 * Every time is a multiple of 4 ms from T0, so each is an exact double and prints as an integer.
 * Usage: node aiperf-phase-scrapes.mjs OUT_DIR
 */
import fs from "node:fs";
import path from "node:path";

const MS = 1e6;
const T0 = 1_796_000_000_000_000_000;
const SCRAPE_MS = 332;
const BASELINE_MS = 2000;
const WARMUP_MS = 3000;
const PROFILE_MS = 20_000;
const START = T0 + (BASELINE_MS + WARMUP_MS) * MS;
const END = START + PROFILE_MS * MS;
const LAST_SCRAPE = END + 400 * MS;
const LOCAL_OFFSET_MS = 2 * 3600 * 1000;

const ENDPOINTS = [
  { url: "http://10.0.0.1:8000/metrics", shiftMs: 0, prompt: 11_000, gen: 900 },
  { url: "http://10.0.0.2:8000/metrics", shiftMs: 32, prompt: 7_000, gen: 400 },
];

/** `datetime.fromtimestamp(ns / 1e9).isoformat()` on a host at UTC+2. */
function localIso(ns) {
  const ms = Math.round(ns / MS);
  const d = new Date(ms + LOCAL_OFFSET_MS).toISOString().replace("Z", "");
  return `${d}000`;
}

const phaseOf = (t) => (t < T0 + BASELINE_MS * MS ? "baseline" : t < START ? "warmup" : "profiling");

/** Tokens served between two scrapes: none in the baseline, traffic in warmup and profiling. */
function trafficBetween(e, i, t) {
  if (phaseOf(t) === "baseline") return { prompt: 0, gen: 0 };
  return { prompt: 400 + ((i * 37 + e * 11) % 300), gen: 30 + ((i * 7 + e) % 20) };
}

function scrapesOf(e) {
  const ep = ENDPOINTS[e];
  const out = [];
  const cum = { prompt: ep.prompt, gen: ep.gen };
  for (let i = 0; ; i++) {
    const t = T0 + (i * SCRAPE_MS + ep.shiftMs) * MS;
    if (t > LAST_SCRAPE) break;
    if (i > 0) {
      const d = trafficBetween(e, i, t);
      cum.prompt += d.prompt;
      cum.gen += d.gen;
    }
    const busy = phaseOf(t) !== "baseline";
    out.push({
      t,
      prompt: cum.prompt,
      gen: cum.gen,
      running: busy ? 3 : 0,
      waiting: busy ? (i + e) % 2 : 0,
    });
  }
  return out;
}

function line(ep, s) {
  const labels = { engine: "0", model_name: "m" };
  return JSON.stringify({
    endpoint_url: ep.url,
    timestamp_ns: s.t,
    endpoint_latency_ns: 4 * MS,
    metrics: {
      "vllm:num_requests_running": [{ labels, value: s.running }],
      "vllm:num_requests_waiting": [{ labels, value: s.waiting }],
      "vllm:prompt_tokens": [{ labels, value: s.prompt }],
      "vllm:generation_tokens": [{ labels, value: s.gen }],
    },
  });
}

/** The accumulator's window: reference = last sample before START; inside = from START on. */
function windowStats(samples) {
  const inside = samples.filter((s) => s.t >= START);
  const before = samples.filter((s) => s.t < START);
  const ref = before.length ? before[before.length - 1] : inside[0];
  const last = inside[inside.length - 1];
  const avg = (k) => inside.reduce((a, s) => a + s[k], 0) / inside.length;
  const rateS = (last.t - ref.t) / 1e9;
  return {
    prompt: last.prompt - ref.prompt,
    gen: last.gen - ref.gen,
    rateS,
    running: avg("running"),
    waiting: avg("waiting"),
    spanS: (samples[samples.length - 1].t - samples[0].t) / 1e9,
    spanPrompt: last.prompt - samples[0].prompt,
  };
}

function jsonExport(all) {
  const labels = { engine: "0", model_name: "m" };
  const metrics = {
    "vllm:num_requests_running": { type: "gauge", series: [] },
    "vllm:num_requests_waiting": { type: "gauge", series: [] },
    "vllm:prompt_tokens": { type: "counter", series: [] },
    "vllm:generation_tokens": { type: "counter", series: [] },
  };
  const endpointInfo = {};
  all.forEach(({ ep, stats }) => {
    const gauge = (v) => ({ avg: v, min: v, max: v });
    metrics["vllm:num_requests_running"].series.push({
      endpoint_url: ep.url,
      labels,
      stats: gauge(stats.running),
    });
    metrics["vllm:num_requests_waiting"].series.push({
      endpoint_url: ep.url,
      labels,
      stats: gauge(stats.waiting),
    });
    metrics["vllm:prompt_tokens"].series.push({
      endpoint_url: ep.url,
      labels,
      stats: { total: stats.prompt, rate: stats.prompt / stats.rateS },
    });
    metrics["vllm:generation_tokens"].series.push({
      endpoint_url: ep.url,
      labels,
      stats: { total: stats.gen, rate: stats.gen / stats.rateS },
    });
    endpointInfo[ep.url] = { duration_seconds: stats.spanS };
  });
  return {
    schema_version: "1.0",
    aiperf_version: "0.6.0",
    summary: {
      endpoints_configured: ENDPOINTS.map((e) => e.url),
      endpoints_successful: ENDPOINTS.map((e) => e.url),
      start_time: localIso(START),
      end_time: localIso(END),
      endpoint_info: endpointInfo,
    },
    metrics,
  };
}

function records() {
  const out = [];
  const add = (phase, startNs, endNs, n) =>
    out.push(
      JSON.stringify({
        metadata: {
          x_request_id: `r${n}`,
          request_start_ns: startNs,
          request_end_ns: endNs,
          benchmark_phase: phase,
          was_cancelled: false,
        },
        metrics: {
          request_latency: { value: (endNs - startNs) / MS, unit: "ms" },
          time_to_first_token: { value: 40, unit: "ms" },
          output_sequence_length: { value: 50, unit: "tokens" },
          input_sequence_length: { value: 400, unit: "tokens" },
        },
      }),
    );
  let n = 0;
  for (let t = T0 + BASELINE_MS * MS; t + 500 * MS <= START; t += 500 * MS)
    add("warmup", t, t + 400 * MS, n++);
  for (let t = START + 4 * MS; t + 400 * MS <= END; t += 500 * MS) add("profiling", t, t + 396 * MS, n++);
  return out;
}

function main(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const all = ENDPOINTS.map((ep, e) => {
    const samples = scrapesOf(e);
    return { ep, samples, stats: windowStats(samples) };
  });
  const lines = all.flatMap(({ ep, samples }) => samples.map((s) => ({ t: s.t, text: line(ep, s) })));
  lines.sort((a, b) => a.t - b.t);
  fs.writeFileSync(path.join(dir, "server_metrics_export.jsonl"), lines.map((l) => l.text).join("\n") + "\n");
  fs.writeFileSync(path.join(dir, "server_metrics_export.json"), JSON.stringify(jsonExport(all), null, 2));
  fs.writeFileSync(path.join(dir, "profile_export.jsonl"), records().join("\n") + "\n");
  fs.writeFileSync(
    path.join(dir, "profile_export_aiperf.json"),
    JSON.stringify({
      schema_version: "1.0",
      aiperf_version: "0.6.0",
      request_count: { unit: "requests", avg: 40 },
      start_time: localIso(START),
      end_time: localIso(END),
    }),
  );
  const truth = {
    phaseS: PROFILE_MS / 1000,
    endpoints: all.map(({ ep, stats }) => ({
      endpoint: ep.url.replace(/^http:\/\//, "").replace(/\/metrics$/, ""),
      prompt: stats.prompt,
      generation: stats.gen,
      spanPrompt: stats.spanPrompt,
      running: stats.running,
    })),
  };
  fs.writeFileSync(path.join(dir, "truth.json"), JSON.stringify(truth, null, 2));
}

if (process.argv[2]) main(process.argv[2]);
