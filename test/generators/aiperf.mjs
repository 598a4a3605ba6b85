#!/usr/bin/env node
/**
 * Synthetic aiperf artifacts with known distributions: a `profile_export.jsonl` of any size plus
 * the `profile_export_aiperf.json` (and `.csv`) aiperf would write for exactly those records.
 * Used by the aiperf tests (agreement must be exact) and by the ingest benchmark (large files).
 *
 *   node test/generators/aiperf.mjs --out DIR [--records 100000] [--warmup 10] [--error-every 0]
 *        [--concurrency 8] [--seed 1] [--config v1|v2] [--no-csv] [--gpus N]
 *
 * Distributions (seeded, reproducible): TTFT uniform on [20, 120) ms, input tokens uniform
 * integers on [100, 2100), output tokens uniform integers on [50, 550), ITL uniform on
 * [8, 16) ms; end-to-end latency = TTFT + ITL × (OSL − 1), exactly aiperf's relation.
 * Requests run back to back on `concurrency` workers, each sent to the worker free first, so
 * in-flight concurrency is that number until the last request is sent.
 */
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { HTTP_500, requestMetrics } from "./aiperf-summary.mjs";
import { prng } from "./prng.mjs";

const BASE_NS = 1762551940061660356n;

/**
 * Writes the artifacts into `outDir` and returns the truth: counts and the summary object.
 * Options: records, warmup, errorEvery (every k-th profiling request fails; 0 = none),
 * concurrency, seed, config ("v1" | "v2" | "v2-map"), csv (boolean), prefix (file name stem),
 * ttftScale (every TTFT multiplied by it, an injected regression), warmupRecords (false: the warm-up requests run but are not exported, as aiperf builds that
 * export only the profiling phase do), warmupDurationS (the warm-up is bounded by time, not count),
 * loadSlowdown (TTFT and ITL × (1 + loadSlowdown × (concurrency − 1)); 0 by default),
 * input (v1 `input_config.input`: random_seed, public_dataset, file …), metadata (the summary's
 * AgentX `metadata`: submission_valid, submission_invalid_reasons), datasets (v2 `datasets[]`),
 * summaryMetrics (further summary blocks, e.g. `credit_to_start_latency`), creditWaitMs (each record
 * gets `credit_issued_ns` that many ms before its `request_start_ns`, as aiperf 0.6+ writes it
 * (src/aiperf/common/models/record_models.py `MetricRecordMetadata`); a number, or a function of
 * the record's index; none by default), sendGapMs (how long a worker idles between a response and
 * its next send, 0.5 ms by default: a longer gap holds less than the requested concurrency).
 *
 * The input_config follows aiperf's config models: v1 `UserConfig` (aiperf
 * `aiperf/common/config/loadgen_config.py`: `loadgen.warmup_request_count`, `warmup_duration`);
 * v2 `BenchmarkConfig` (0.8+): `phases`, warm-up entries with `exclude_from_results: true` and a
 * `requests` or `duration` bound, serialised as a list ("v2") or a name → phase map ("v2-map").
 */
export async function generateAiperfRun(outDir, opts = {}) {
  const records = opts.records ?? 1000;
  const warmup = opts.warmup ?? 0;
  const errorEvery = opts.errorEvery ?? 0;
  const concurrency = opts.concurrency ?? 8;
  const rand = prng(opts.seed ?? 1);
  const prefix = opts.prefix ?? "profile_export";
  const writeWarmup = opts.warmupRecords !== false;
  const warmupDurationS = opts.warmupDurationS ?? null;
  // A regression injected into TTFT (1.1 = 10% slower first tokens); E2E follows, as it would.
  const ttftScale = opts.ttftScale ?? 1;
  // A server slowing down under load (sweeps): TTFT and ITL grow by this fraction per extra worker.
  const slowdown = 1 + (opts.loadSlowdown ?? 0) * (concurrency - 1);
  fs.mkdirSync(outDir, { recursive: true });
  const jsonlPath = path.join(outDir, `${prefix}.jsonl`);
  const out = fs.createWriteStream(jsonlPath);

  const ok = { ttft: [], e2e: [], itl: [], isl: [], osl: [] };
  const workerFreeMs = new Float64Array(concurrency);
  let minStartNs = null;
  let maxEndNs = null;
  let errors = 0;
  const total = warmup + records;
  for (let i = 0; i < total; i++) {
    const phase = i < warmup ? "warmup" : "profiling";
    // The next request goes to the worker free first, as aiperf's concurrency slots refill: each
    // slot is busy until the last request is sent, so the run holds its concurrency until then.
    let w = 0;
    for (let k = 1; k < concurrency; k++) if (workerFreeMs[k] < workerFreeMs[w]) w = k;
    const ttft = (20 + rand() * 100) * slowdown * ttftScale;
    const itl = (8 + rand() * 8) * slowdown;
    // Input lengths uniform over [islBase, islBase + islSpan): two runs of one mean can differ in shape.
    const isl = (opts.islBase ?? 100) + Math.floor(rand() * (opts.islSpan ?? 2000));
    const osl = 50 + Math.floor(rand() * 500);
    const e2e = ttft + itl * (osl - 1);
    const failed = phase === "profiling" && errorEvery > 0 && (i - warmup) % errorEvery === errorEvery - 1;
    const startMs = workerFreeMs[w] + (opts.sendGapMs ?? 0.5);
    const durMs = failed ? 5 : e2e;
    workerFreeMs[w] = startMs + durMs;
    // Whole nanoseconds, added as BigInt so the digits written are exact.
    const startNs = BASE_NS + BigInt(Math.round(startMs * 1e6));
    const endNs = startNs + BigInt(Math.round(durMs * 1e6));
    const waitMs = typeof opts.creditWaitMs === "function" ? opts.creditWaitMs(i) : opts.creditWaitMs;
    const credit =
      waitMs === undefined || waitMs === null
        ? ""
        : `"credit_issued_ns":${startNs - BigInt(Math.round(waitMs * 1e6))},`;
    const meta = `{"session_num":${i},"x_request_id":"req-${String(i).padStart(8, "0")}","x_correlation_id":"c-${i}","turn_index":0,${credit}"request_start_ns":${startNs},"request_ack_ns":${startNs + 1000n},"request_end_ns":${endNs},"worker_id":"worker_${w}","record_processor_id":"rp_0","benchmark_phase":"${phase}","was_cancelled":false}`;
    let line;
    if (failed) {
      errors++;
      line = `{"metadata":${meta},"metrics":{"error_isl":{"value":${isl},"unit":"tokens"}},"error":{"code":500,"type":"HTTPStatusError","message":"500 server error"}}`;
    } else {
      line = `{"metadata":${meta},"metrics":{"input_sequence_length":{"value":${isl},"unit":"tokens"},"output_sequence_length":{"value":${osl},"unit":"tokens"},"time_to_first_token":{"value":${ttft},"unit":"ms"},"request_latency":{"value":${e2e},"unit":"ms"},"inter_token_latency":{"value":${itl},"unit":"ms"}}}`;
    }
    if (phase === "profiling") {
      if (minStartNs === null || startNs < minStartNs) minStartNs = startNs;
      if (maxEndNs === null || endNs > maxEndNs) maxEndNs = endNs;
      if (!failed) {
        ok.ttft.push(ttft);
        ok.e2e.push(e2e);
        ok.itl.push(itl);
        ok.isl.push(isl);
        ok.osl.push(osl);
      }
    }
    if (phase === "warmup" && !writeWarmup) continue;
    if (!out.write(line + "\n")) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");

  const durationS = Number(maxEndNs - minStartNs) / 1e9;
  const totalOsl = ok.osl.reduce((a, b) => a + b, 0);
  const totalIsl = ok.isl.reduce((a, b) => a + b, 0);
  const config = inputConfig(opts.config ?? "v1", { concurrency, records, warmup, warmupDurationS });
  // v1 `input` (aiperf common/config/input_config.py: random_seed, public_dataset, file, prompt).
  if (opts.input) config.input = opts.input;
  // v2 `datasets[]` (aiperf src/aiperf/config/dataset/config.py: name, type, path, format, sampling, random_seed).
  if (opts.datasets) config.datasets = opts.datasets;
  const summary = {
    schema_version: "1.1",
    aiperf_version: "0.7.0",
    benchmark_id: "synthetic",
    ...requestMetrics(ok, durationS),
    total_osl: { unit: "tokens", avg: totalOsl },
    total_isl: { unit: "tokens", avg: totalIsl },
    ...(errors > 0 ? { error_request_count: { unit: "requests", avg: errors } } : {}),
    // Further summary blocks as aiperf writes them (0.8+ `credit_to_start_latency`, `effective_concurrency` …).
    ...(opts.summaryMetrics ?? {}),
    input_config: config,
    // AgentX scenario runs (aiperf 0.8+): `metadata.submission_valid` and its reasons.
    ...(opts.metadata ? { metadata: opts.metadata } : {}),
    was_cancelled: false,
    error_summary:
      errors > 0
        ? [
            {
              error_details: HTTP_500,
              count: errors,
            },
          ]
        : [],
  };
  const summaryPath = path.join(outDir, `${prefix}_aiperf.json`);
  fs.writeFileSync(summaryPath, JSON.stringify(summary, null, 2));
  let csvPath = null;
  if (opts.csv !== false) {
    csvPath = path.join(outDir, `${prefix}_aiperf.csv`);
    fs.writeFileSync(csvPath, summaryCsv(summary));
  }
  let gpuPath = null;
  if (opts.gpus) gpuPath = await writeGpuTelemetry(outDir, prefix, opts.gpus, minStartNs, maxEndNs);
  return {
    jsonlPath,
    summaryPath,
    csvPath,
    gpuPath,
    summary,
    counts: { records, warmup, errors, ok: ok.ttft.length },
    durationS,
    totalOsl,
  };
}

/** The summary's input_config in the shape aiperf writes for `shape` (see generateAiperfRun). */
function inputConfig(shape, { concurrency, records, warmup, warmupDurationS }) {
  if (shape === "v1") {
    const loadgen = { concurrency, request_count: records };
    if (warmupDurationS !== null) loadgen.warmup_duration = warmupDurationS;
    else loadgen.warmup_request_count = warmup;
    return {
      endpoint: { model_names: ["synthetic/model"], type: "chat", streaming: true, url: "localhost:8000" },
      loadgen,
    };
  }
  const bound = warmupDurationS !== null ? { duration: warmupDurationS } : { requests: warmup };
  const phases = [
    { name: "warmup", type: "concurrency", exclude_from_results: true, ...bound, concurrency },
    { name: "profiling", type: "concurrency", requests: records, concurrency },
  ];
  return {
    models: { items: [{ name: "synthetic/model" }] },
    endpoint: { urls: ["http://localhost:8000"], type: "chat", streaming: true },
    phases:
      shape === "v2-map" ? Object.fromEntries(phases.map(({ name, ...phase }) => [name, phase])) : phases,
  };
}

/**
 * One sample per GPU every second from 1 s before the first profiling request to 1 s after the
 * last response; GPU g draws a constant 100 × (g + 1) W, so its energy counter (MJ, like DCGM's)
 * grows by exactly that many joules per second. Written in the ≤0.7 field names with `dcgm_url`.
 */
async function writeGpuTelemetry(outDir, prefix, gpus, fromNs, toNs) {
  const file = path.join(
    outDir,
    prefix === "profile_export" ? "gpu_telemetry_export.jsonl" : `${prefix}_gpu_telemetry.jsonl`,
  );
  const out = fs.createWriteStream(file);
  for (let t = fromNs - 1_000_000_000n; t <= toNs + 1_000_000_000n; t += 1_000_000_000n) {
    for (let g = 0; g < gpus; g++) {
      const powerW = 100 * (g + 1);
      const energyMj = ((Number(t - fromNs) / 1e9 + 1000) * powerW) / 1e6;
      const line = `{"timestamp_ns":${t + BigInt(g)},"dcgm_url":"http://node:9400/metrics","gpu_index":${g},"gpu_uuid":"GPU-${g}","gpu_model_name":"Synthetic GPU","hostname":"node","telemetry_data":{"gpu_power_usage":${powerW},"energy_consumption":${energyMj},"gpu_utilization":90,"gpu_memory_used":40}}`;
      if (!out.write(line + "\n")) await once(out, "drain");
    }
  }
  out.end();
  await once(out, "finish");
  return file;
}

const HEADERS = {
  time_to_first_token: "Time to First Token",
  request_latency: "Request Latency",
  inter_token_latency: "Inter Token Latency",
  input_sequence_length: "Input Sequence Length",
  output_sequence_length: "Output Sequence Length",
  request_throughput: "Request Throughput",
  request_count: "Request Count",
  output_token_throughput: "Output Token Throughput",
  benchmark_duration: "Benchmark Duration",
  error_request_count: "Error Request Count",
};

/** The CSV aiperf writes for the same summary: CRLF, `.2f`, record metrics then scalars. */
function summaryCsv(summary) {
  const f = (v) => (v === undefined ? "" : v.toFixed(2));
  const name = (tag) => {
    const unit = summary[tag].unit;
    return unit === "requests" || unit === "count" ? HEADERS[tag] : `${HEADERS[tag]} (${unit})`;
  };
  // aiperf's own column order: `sum` sits after `max` (v0.7 added it there).
  const keys = "avg min max sum p1 p5 p10 p25 p50 p75 p90 p95 p99 std".split(" ");
  const rows = [["Metric", ...keys].join(",")];
  for (const tag of Object.keys(HEADERS)) {
    const b = summary[tag];
    if (b && b.p50 !== undefined) rows.push([name(tag), ...keys.map((k) => f(b[k]))].join(","));
  }
  rows.push("", "Metric,Value");
  for (const tag of Object.keys(HEADERS)) {
    const b = summary[tag];
    if (b && b.p50 === undefined) rows.push(`${name(tag)},${f(b.avg)}`);
  }
  return rows.join("\r\n") + "\r\n";
}

function parseArgs(argv) {
  const opts = { out: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === "--out") opts.out = next();
    else if (a === "--records") opts.records = Number(next());
    else if (a === "--warmup") opts.warmup = Number(next());
    else if (a === "--error-every") opts.errorEvery = Number(next());
    else if (a === "--concurrency") opts.concurrency = Number(next());
    else if (a === "--seed") opts.seed = Number(next());
    else if (a === "--config") opts.config = next();
    else if (a === "--no-csv") opts.csv = false;
    else if (a === "--gpus") opts.gpus = Number(next());
  }
  return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.out) {
    console.error(
      "usage: node test/generators/aiperf.mjs --out DIR [--records N] [--warmup N] [--error-every K]",
    );
    process.exit(2);
  }
  const r = await generateAiperfRun(opts.out, opts);
  console.log(
    JSON.stringify({
      jsonl: r.jsonlPath,
      summary: r.summaryPath,
      csv: r.csvPath,
      gpu: r.gpuPath,
      ...r.counts,
    }),
  );
}
