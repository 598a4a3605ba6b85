// Synthetic TensorRT-LLM perf-metrics runs whose true segment values are known.
// Plain ESM JavaScript so vitest and a plain `node` benchmark script can both import it.
//
//   node test/generators/trtllm.mjs --out /tmp/run --mode disaggregated --requests 100000 [--seed 1]
//
// Writes one disagg-server file plus ctx and gen worker files (disaggregated) or N aggregated
// worker files, in the post-refactor JSONL format (docs/formats.md §TensorRT-LLM perf metrics), and returns
// the truth: every segment's milliseconds per request (null = not recorded), KV blocks, transfer
// bytes and bandwidth, and each worker's step-clock offset.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prng } from "./prng.mjs";

export const DISAGG_SEGMENTS = [
  "disagg_preprocessing",
  "ctx_preprocessing",
  "ctx_queue",
  "ctx_processing",
  "ctx_postprocessing",
  "disagg_relay",
  "gen_preprocessing",
  // Reported only for a request without KV-transfer stamps, in place of the next three.
  "gen_queue",
  "gen_queue_wait",
  "gen_kv_transfer",
  "gen_post_transfer",
  "gen_postprocessing",
  "disagg_postprocessing",
  "decode",
];
export const AGG_SEGMENTS = [
  "ctx_preprocessing",
  "ctx_queue",
  "ctx_processing",
  "ctx_postprocessing",
  "decode",
];

/** Median milliseconds of each segment; each draw is lognormal around it. */
const DEFAULT_MEDIANS_MS = {
  disagg_preprocessing: 0.8,
  ctx_preprocessing: 2,
  ctx_queue: 15,
  ctx_processing: 60,
  ctx_postprocessing: 1.5,
  disagg_relay: 3,
  gen_preprocessing: 1.2,
  gen_queue_wait: 4,
  gen_kv_transfer: 6,
  gen_post_transfer: 2,
  gen_postprocessing: 18,
  disagg_postprocessing: 1,
  decode: 900,
};

function normal(rand) {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/**
 * @param {import("./trtllm.d.mts").GenerateOptions} opts
 * @returns {import("./trtllm.d.mts").GeneratedRun}
 */
export function generateTrtllmRun(opts) {
  const mode = opts.mode ?? "disaggregated";
  const n = opts.requests ?? 100;
  const rand = prng(opts.seed ?? 1);
  const sigma = opts.sigma ?? 0.35;
  const medians = { ...DEFAULT_MEDIANS_MS, ...(opts.mediansMs ?? {}) };
  const ctxWorkers = opts.ctxWorkers ?? (mode === "aggregated" ? 2 : 1);
  const genWorkers = opts.genWorkers ?? 1;
  const steps = opts.stepsPerRequest ?? 8;
  const joinBy = opts.joinBy ?? "disagg_request_id";
  const dropRate = opts.dropServerFirstTokenRate ?? 0;
  const noTransferRate = opts.noTransferStampsRate ?? 0;
  const arrivalRatePerS = opts.arrivalRatePerS ?? 50;
  const baseS = opts.baseS ?? 16784.5;
  // Each server numbers its own requests, as TensorRT-LLM servers do, so ids repeat across servers.
  const idsPerServer = opts.idsPerServer ?? false;
  const copyServerStamps = opts.copyServerStamps ?? true;
  fs.mkdirSync(opts.dir, { recursive: true });

  const draw = (name) => medians[name] * Math.exp(sigma * normal(rand));
  const truthNames = mode === "aggregated" ? AGG_SEGMENTS : DISAGG_SEGMENTS;
  // gen_queue is the sum of three drawn spans, never drawn itself (the draws stay as they were).
  const segNames = truthNames.filter((s) => s !== "gen_queue");
  const truth = Object.fromEntries(truthNames.map((s) => [s, []]));
  // Step clocks of each worker process sit far from the request clock (docs/metrics.md §Step clock offsets).
  const ctxOffsets = Array.from({ length: ctxWorkers }, (_, k) => [294065.985, 0.0003, 9.971][k % 3] + k);
  const genOffsets = Array.from({ length: genWorkers }, (_, k) => [377680.565, 0.993, 12.5][k % 3] + k);
  const stamp = "20260101T000000Z";
  const ctxNames = ctxOffsets.map(
    (_, k) => `perf_metrics-server-${mode === "aggregated" ? "agg" : "ctx"}${k}-${100 + k}-${stamp}.jsonl`,
  );
  const genNames = genOffsets.map((_, k) => `perf_metrics-server-gen${k}-${200 + k}-${stamp}.jsonl`);
  const ctxLines = ctxNames.map(() => []);
  const genLines = mode === "aggregated" ? [] : genNames.map(() => []);
  const disaggLines = [];
  const kv = { prefillReused: 0, prefillMissed: 0, perWorker: {} };
  const transferBytes = [];
  const bandwidthGBps = [];
  const forwardMs = [];

  // Some versions' header copies lose the server_* and KV-transfer stamps: only worker files have them.
  const copyOf = (timing) =>
    copyServerStamps
      ? timing
      : {
          ...timing,
          server_arrival_time: undefined,
          server_first_token_time: undefined,
          kv_cache_transfer_start: undefined,
          kv_cache_transfer_end: undefined,
        };
  let t = baseS;
  for (let i = 0; i < n; i++) {
    t += -Math.log(Math.max(rand(), 1e-12)) / arrivalRatePerS;
    const d = Object.fromEntries(segNames.map((s) => [s, draw(s)]));
    const ck = i % ctxWorkers;
    const gk = i % genWorkers;
    const ms = (x) => x / 1000;
    // Timestamps along the request, seconds.
    const start = t;
    const chunkOf = (schedS, tokenS, off) => {
      const span = tokenS - schedS;
      const fs0 = schedS + 0.1 * span;
      return {
        forward_start_time: fs0 + off,
        forward_end_time: fs0 + 0.6 * span + off,
        sample_start_time: fs0 + 0.7 * span + off,
        sample_end_time: fs0 + 0.8 * span + off,
        gpu_forward_time: 0.5 * span * 1000 * 0.9,
        gpu_sample_time: 0.1 * span * 1000 * 0.9,
        token_time: tokenS + off,
      };
    };
    const stepsOf = (firstTokenS, lastTokenS, off, count) => {
      const iv = (lastTokenS - firstTokenS) / count;
      const out = [];
      for (let j = 0; j < count; j++) {
        const s0 = firstTokenS + j * iv;
        out.push({
          iter: 100 + i + j,
          forward_start_time: s0 + 0.1 * iv + off,
          forward_end_time: s0 + 0.7 * iv + off,
          sample_start_time: s0 + 0.8 * iv + off,
          sample_end_time: s0 + 0.9 * iv + off,
          gpu_forward_time: 0.6 * iv * 1000 * 0.9,
          gpu_sample_time: 0.1 * iv * 1000 * 0.9,
          token_time: s0 + iv + off,
        });
        forwardMs.push(0.6 * iv * 1000);
      }
      return out;
    };
    const reused = Math.floor(rand() * 20);
    const missed = 1 + Math.floor(rand() * 10);
    const kvMetrics = (r, m) => ({
      num_total_allocated_blocks: r + m,
      num_new_allocated_blocks: m,
      num_reused_blocks: r,
      num_missed_blocks: m,
    });
    const tally = (name, r, m) => {
      const w = (kv.perWorker[name] ??= { reused: 0, missed: 0, requests: 0 });
      w.reused += r;
      w.missed += m;
      w.requests++;
    };

    if (mode === "aggregated") {
      const serverArrival = start;
      const arrival = serverArrival + ms(d.ctx_preprocessing);
      const sched = arrival + ms(d.ctx_queue);
      const firstToken = sched + ms(d.ctx_processing);
      const serverFirstToken = firstToken + ms(d.ctx_postprocessing);
      // decode runs from the server's first response (lib/metrics/time-breakdown.ts decodeSeg).
      const lastToken = serverFirstToken + ms(d.decode);
      for (const s of segNames) truth[s].push(d[s]);
      kv.prefillReused += reused;
      kv.prefillMissed += missed;
      tally(ctxNames[ck].replace(/\.jsonl$/, ""), reused, missed);
      ctxLines[ck].push({
        request_id: i,
        perf_metrics: {
          timing_metrics: {
            server_arrival_time: serverArrival,
            arrival_time: arrival,
            first_scheduled_time: sched,
            first_token_time: firstToken,
            server_first_token_time: serverFirstToken,
            last_token_time: lastToken,
          },
          first_iter: 100 + i,
          last_iter: 100 + i + steps,
          kv_cache_metrics: kvMetrics(reused, missed),
        },
        time_breakdown_metrics: {
          ctx_chunk_metrics: [chunkOf(sched, firstToken, ctxOffsets[ck])],
          step_metrics: steps > 0 ? stepsOf(firstToken, lastToken, ctxOffsets[ck], steps) : [],
        },
        status: "complete",
      });
      continue;
    }

    const ctxServerArrival = start + ms(d.disagg_preprocessing);
    const ctxArrival = ctxServerArrival + ms(d.ctx_preprocessing);
    const ctxSched = ctxArrival + ms(d.ctx_queue);
    const ctxFirstToken = ctxSched + ms(d.ctx_processing);
    const ctxServerFirstToken = ctxFirstToken + ms(d.ctx_postprocessing);
    const genServerArrival = ctxServerFirstToken + ms(d.disagg_relay);
    const genArrival = genServerArrival + ms(d.gen_preprocessing);
    const kvStart = genArrival + ms(d.gen_queue_wait);
    const kvEnd = kvStart + ms(d.gen_kv_transfer);
    const genSched = kvEnd + ms(d.gen_post_transfer);
    const genServerFirstToken = genSched + ms(d.gen_postprocessing);
    const genFirstToken = genSched + 0.8 * ms(d.gen_postprocessing);
    const disaggFirstToken = genServerFirstToken + ms(d.disagg_postprocessing);
    const genLastToken = genServerFirstToken + ms(d.decode);
    const dropped = rand() < dropRate;
    // A request the gen worker took without a KV transfer (or whose stamps were not recorded).
    const noTransfer = noTransferRate > 0 && rand() < noTransferRate;
    for (const s of segNames) truth[s].push(d[s]);
    truth.gen_queue.push(null);
    if (noTransfer) {
      truth.gen_queue[i] = d.gen_queue_wait + d.gen_kv_transfer + d.gen_post_transfer;
      truth.gen_queue_wait[i] = null;
      truth.gen_kv_transfer[i] = null;
      truth.gen_post_transfer[i] = null;
    }
    if (dropped) {
      // ctx server_first_token_time not recorded: both spans that touch it are unknown.
      truth.ctx_postprocessing[i] = null;
      truth.disagg_relay[i] = null;
    }
    const bytes = 1_000_000 + Math.floor(rand() * 50_000_000);
    if (!noTransfer) {
      transferBytes.push(bytes);
      bandwidthGBps.push(bytes / (kvEnd - kvStart) / 1e9);
    }
    kv.prefillReused += reused;
    kv.prefillMissed += missed;
    tally(ctxNames[ck].replace(/\.jsonl$/, ""), reused, missed);
    // The decode side allocates fresh blocks for the transferred cache: all misses.
    tally(genNames[gk].replace(/\.jsonl$/, ""), 0, missed);

    const ctxId = 1000 + (idsPerServer ? Math.floor(i / ctxWorkers) : i);
    const genId = 5000 + (idsPerServer ? Math.floor(i / genWorkers) : i);
    const ids = (extra) => ({
      ...(joinBy === "disagg_request_id" ? { disagg_request_id: i + 1 } : {}),
      ...extra,
    });
    const ctxTiming = {
      server_arrival_time: ctxServerArrival,
      arrival_time: ctxArrival,
      first_scheduled_time: ctxSched,
      first_token_time: ctxFirstToken,
      last_token_time: ctxFirstToken,
      server_first_token_time: dropped ? null : ctxServerFirstToken,
    };
    const genTiming = {
      server_arrival_time: genServerArrival,
      arrival_time: genArrival,
      first_scheduled_time: genSched,
      first_token_time: genFirstToken,
      last_token_time: genLastToken,
      server_first_token_time: genServerFirstToken,
      ...(noTransfer
        ? {}
        : { kv_cache_size: bytes, kv_cache_transfer_start: kvStart, kv_cache_transfer_end: kvEnd }),
    };
    ctxLines[ck].push({
      request_id: ctxId,
      perf_metrics: {
        timing_metrics: ctxTiming,
        first_iter: 10 + i,
        last_iter: 10 + i,
        kv_cache_metrics: kvMetrics(reused, missed),
      },
      ctx_request_id: ctxId,
      time_breakdown_metrics: { ctx_chunk_metrics: [chunkOf(ctxSched, ctxFirstToken, ctxOffsets[ck])] },
      status: "complete",
      ...ids({}),
    });
    genLines[gk].push({
      request_id: genId,
      perf_metrics: {
        timing_metrics: genTiming,
        first_iter: 20 + i,
        last_iter: 20 + i + steps,
        kv_cache_metrics: kvMetrics(0, missed),
      },
      ctx_request_id: ctxId,
      time_breakdown_metrics:
        steps > 0 ? { step_metrics: stepsOf(genFirstToken, genLastToken, genOffsets[gk], steps) } : {},
      status: "complete",
      ...ids({}),
    });
    disaggLines.push({
      ctx_server: `http://ctx${ck}:8001`,
      gen_server: `http://gen${gk}:8002`,
      disagg_server_arrival_time: start,
      disagg_ctx_dispatch_time: start + ms(d.disagg_preprocessing) / 2,
      disagg_server_first_token_time: disaggFirstToken,
      status: "complete",
      // Header transport: timing only, and no kv_cache_size (docs/formats.md §TensorRT-LLM perf metrics).
      ctx_perf_metrics: {
        request_id: ctxId,
        perf_metrics: { timing_metrics: copyOf(ctxTiming) },
        ctx_request_id: ctxId,
      },
      gen_perf_metrics: {
        request_id: genId,
        perf_metrics: { timing_metrics: { ...copyOf(genTiming), kv_cache_size: undefined } },
        ctx_request_id: ctxId,
      },
      ...ids({}),
    });
  }

  const files = [];
  const write = (name, lines) => {
    const p = path.join(opts.dir, name);
    fs.writeFileSync(p, lines.map((l) => JSON.stringify(l)).join("\n") + (lines.length ? "\n" : ""));
    files.push(p);
  };
  if (mode !== "aggregated") write(`perf_metrics-disagg-router-1-${stamp}.jsonl`, disaggLines);
  ctxNames.forEach((name, k) => write(name, ctxLines[k]));
  genLines.forEach((lines, k) => write(genNames[k], lines));

  const offsets = {};
  ctxNames.forEach((name, k) => (offsets[name.replace(/\.jsonl$/, "")] = ctxOffsets[k]));
  if (mode !== "aggregated")
    genNames.forEach((name, k) => (offsets[name.replace(/\.jsonl$/, "")] = genOffsets[k]));
  return {
    mode,
    files,
    requests: n,
    truth: {
      segments: truth,
      kvHitRate: kv.prefillReused / (kv.prefillReused + kv.prefillMissed),
      perWorker: kv.perWorker,
      transferBytes,
      bandwidthGBps,
      clockOffsetsS: offsets,
      stepForwardMs: forwardMs,
    },
  };
}

/**
 * Worker records as a polling script writes them from the older `/perf_metrics` endpoint
 * (tensorrt_llm/serve/perf_metrics.py serves the records collected since the last GET and
 * forgets them): one JSON array per poll, one poll per line. `polls` says how many records
 * each poll returned, in order; a poll that found nothing is an empty array.
 */
export function perfMetricsPollLines(records, polls) {
  const lines = [];
  let at = 0;
  for (const n of polls) {
    lines.push(JSON.stringify(records.slice(at, at + n)));
    at += n;
  }
  return lines.join("\n") + "\n";
}

/**
 * The bare `RequestPerfMetrics` object of a worker record (the LLM API's per-request
 * `perf_metrics`: timing_metrics, kv_cache_metrics, first_iter, last_iter, no request id),
 * one per line, as an LLM API script that dumps each output's metrics writes it.
 */
export function bareRequestPerfMetricsLines(records) {
  return records.map((r) => JSON.stringify(r.perf_metrics)).join("\n") + "\n";
}

/** The records of a generated JSONL file. */
export function readRecords(file) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

function cli(argv) {
  const get = (flag, dflt) => {
    const i = argv.indexOf(flag);
    return i === -1 ? dflt : argv[i + 1];
  };
  const dir = get("--out");
  if (!dir) {
    console.error(
      "usage: node test/generators/trtllm.mjs --out DIR [--mode disaggregated|aggregated] [--requests N] [--seed S] [--steps K]",
    );
    process.exit(2);
  }
  const run = generateTrtllmRun({
    dir,
    mode: get("--mode", "disaggregated"),
    requests: Number(get("--requests", "1000")),
    seed: Number(get("--seed", "1")),
    stepsPerRequest: Number(get("--steps", "8")),
  });
  console.log(JSON.stringify({ mode: run.mode, requests: run.requests, files: run.files }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  cli(process.argv.slice(2));
