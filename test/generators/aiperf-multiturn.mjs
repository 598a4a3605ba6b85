#!/usr/bin/env node
/**
 * Synthetic multi-turn aiperf records: conversations of 1–20 turns whose prompts carry the whole
 * history, as aiperf's multi-turn sessions send it (aiperf docs/tutorials/multi-turn.md: each turn
 * resends the earlier user messages and the model's answers). Writes `profile_export.jsonl` and
 * the `profile_export_aiperf.json` aiperf would write for exactly those records.
 *
 *   node test/generators/aiperf-multiturn.mjs --out DIR [--conversations 200] [--max-turns 20]
 *        [--concurrency 8] [--seed 1] [--evict 0.2] [--no-cached] [--error-every 0]
 *
 * Record format: aiperf `common/models/record_models.py` MetricRecordMetadata (session_num,
 * x_request_id, x_correlation_id, conversation_id, turn_index, request_start_ns, request_end_ns,
 * worker_id, record_processor_id, benchmark_phase, was_cancelled), written exclude_none like
 * aiperf ≥ 0.4; per-record metrics with `{value, unit}`; the cached prompt tokens as
 * `usage_prompt_cache_read_tokens` (aiperf `metrics/types/usage_cache_metrics.py`, from the
 * response's usage.prompt_tokens_details.cached_tokens).
 *
 * The workload (seeded): turn 0's prompt is uniform on [200, 2000) tokens; each later turn adds
 * the previous answer and a new user message uniform on [50, 500); answers are uniform on
 * [20, 300) tokens. The server caches whole blocks of 16 tokens: a turn finds its history cached
 * (floor(history / 16) × 16 tokens) unless it was evicted (probability `evict`), then nothing.
 * TTFT = 15 ms + 0.05 ms per uncached prompt token + U[0, 5) ms; ITL U[8, 16) ms;
 * latency = TTFT + ITL × (OSL − 1). Conversations run one at a time on each of `concurrency`
 * workers, turns back to back; records are written in completion order.
 *
 * Optional extras, for the reuse views:
 * - `inputs`: aiperf's inputs.json (aiperf `dataset/dataset_manager.py` `_generate_input_payloads`:
 *   `{data: [{session_id, payloads}]}`, one OpenAI chat body per turn, `session_id` = the records'
 *   `conversation_id`). Text is words of exactly CHARS_PER_TOKEN characters per token. "delta":
 *   each payload holds the turn's new user message only (aiperf formats one Turn per payload and
 *   replays the history itself); "history": each payload carries the earlier messages and the
 *   answers too (a trace replay's shape), so it begins with the previous payload.
 * - `serverMetrics`: the vLLM engine's aiperf server_metrics_export.json over the same requests,
 *   `vllm:prompt_tokens_by_source` by `source` (vLLM `v1/metrics/loggers.py`): a request's prompt
 *   counts when its first token comes (failed and cancelled ones count nothing), its cached
 *   history as local_cache_hit, or, when evicted from GPU but found in the CPU tier
 *   (probability `externalHit`), as external_kv_transfer; the rest local_compute. The records'
 *   usage cached tokens count both tiers, as vLLM's num_cached_tokens does.
 */
import fs from "node:fs";
import path from "node:path";
import { HTTP_500, requestMetrics } from "./aiperf-summary.mjs";
import { toJson as serverMetricsJson } from "./aiperf-server-metrics.mjs";
import { prng } from "./prng.mjs";

/**
 * The small case the tests compute by hand: two conversations of 3 and 2 turns, a first prompt of
 * 1000 tokens, 100 per user message, 50 per answer, nothing evicted.
 */
export const HAND_CASE = Object.freeze({
  conversations: 2,
  turns: [3, 2],
  firstPrompt: 1000,
  userTokens: 100,
  answerTokens: 50,
  evict: 0,
});

/** Epoch nanoseconds of the first request: 2025-12-01T12:00:00Z. */
export const BASE_NS = 1764590400000000000n;
const BLOCK = 16;
const CHARS_PER_TOKEN = 4;
/** `tokens` tokens of text, CHARS_PER_TOKEN characters each ("w12 " is one token). */
const text = (tokens, tag) =>
  Array.from(
    { length: tokens },
    (_, i) => `${`${tag}${i % 10}`.padStart(CHARS_PER_TOKEN - 1, "x").slice(1 - CHARS_PER_TOKEN)} `,
  ).join("");

/**
 * aiperf's run-level theoretical prefix-cache hit (post_processors
 * theoretical_prefix_cache_accumulator.py): Σ hit blocks / Σ total blocks over successful
 * requests, in percent, with `count` the total and `sum` the hits. A turn's blocks are its
 * prompt's 16-token blocks; the hits are the whole blocks of the history before it.
 */
function theoretical(ok) {
  let hit = 0;
  let total = 0;
  for (const r of ok) {
    total += Math.ceil(r.prompt / BLOCK);
    hit += Math.floor(r.history / BLOCK);
  }
  return { unit: "%", avg: (100 * hit) / total, count: total, sum: hit };
}

/**
 * Generates the run. Options: conversations, maxTurns, minTurns, concurrency, seed, evict
 * (probability a turn's history was evicted), cached (false: no usage in the responses),
 * errorEvery (every k-th request fails with a 500; its answer does not join the history),
 * cancelEvery (every k-th request is cancelled, aiperf's 499), turns (explicit turn counts per
 * conversation, overriding the random ones), firstPrompt/userTokens/answerTokens (fixed
 * lengths instead of random: small hand-computed cases), theoretical (write aiperf's
 * theoretical_prefix_cache_hit in the summary).
 *
 * Returns the file paths and the truth: one entry per request with its conversation, turn,
 * prompt, answer, cached and history tokens, outcome and timings.
 */
export function generateMultiTurnRun(outDir, opts = {}) {
  const rand = prng(opts.seed ?? 1);
  const conversations = opts.conversations ?? 200;
  const maxTurns = opts.maxTurns ?? 20;
  const minTurns = opts.minTurns ?? 1;
  const concurrency = opts.concurrency ?? 8;
  const evict = opts.evict ?? 0.2;
  const withCached = opts.cached !== false;
  const errorEvery = opts.errorEvery ?? 0;
  const cancelEvery = opts.cancelEvery ?? 0;
  const externalHit = opts.externalHit ?? 0;
  const uniform = (lo, hi) => lo + Math.floor(rand() * (hi - lo));
  const fixed = (v, lo, hi) => (typeof v === "number" ? v : uniform(lo, hi));

  const requests = [];
  const workerFreeMs = new Float64Array(concurrency);
  let n = 0;
  for (let c = 0; c < conversations; c++) {
    const turns = opts.turns?.[c] ?? uniform(minTurns, maxTurns + 1);
    const w = c % concurrency;
    let history = 0;
    for (let t = 0; t < turns; t++) {
      const i = n++;
      const user = t === 0 ? fixed(opts.firstPrompt, 200, 2000) : fixed(opts.userTokens, 50, 500);
      const prompt = t === 0 ? user : history + user;
      const answer = fixed(opts.answerTokens, 20, 300);
      const evicted = t > 0 && rand() < evict;
      // Drawn only when asked for, so runs without a CPU tier keep their numbers.
      const onHost = evicted && externalHit > 0 && rand() < externalHit;
      const blocks = Math.floor(history / BLOCK) * BLOCK;
      const gpuCached = t === 0 || evicted ? 0 : blocks;
      const externalCached = onHost ? blocks : 0;
      const cached = gpuCached + externalCached;
      const failed = errorEvery > 0 && i % errorEvery === errorEvery - 1;
      const cancelled = !failed && cancelEvery > 0 && i % cancelEvery === cancelEvery - 1;
      const ttft = 15 + 0.05 * (prompt - cached) + rand() * 5;
      const itl = 8 + rand() * 8;
      const e2e = ttft + itl * (answer - 1);
      const startMs = workerFreeMs[w] + 0.5;
      const durMs = failed ? 5 : cancelled ? ttft / 2 : e2e;
      workerFreeMs[w] = startMs + durMs;
      requests.push({
        i,
        conversation: `conv-${String(c).padStart(5, "0")}`,
        session: c,
        turn: t,
        user,
        prompt,
        gpuCached: failed || cancelled ? null : gpuCached,
        externalCached: failed || cancelled ? null : externalCached,
        answer: failed || cancelled ? null : answer,
        cached: failed || cancelled ? null : cached,
        failed,
        cancelled,
        ttft,
        itl,
        e2e,
        startMs,
        endMs: startMs + durMs,
        worker: w,
      });
      // The next turn's history: this prompt and, when it came, this answer.
      history = prompt + (failed || cancelled ? 0 : answer);
    }
  }
  // What the previous turn of each conversation held (its prompt and the answer it got), capped at
  // this prompt: the possible reuse, worked out apart from the loop that built the prompts.
  const byConv = new Map();
  for (const r of requests) {
    const prev = byConv.get(r.conversation);
    r.history = r.turn === 0 ? 0 : Math.min(r.prompt, prev.prompt + (prev.answer ?? 0));
    byConv.set(r.conversation, r);
  }

  fs.mkdirSync(outDir, { recursive: true });
  const lines = [...requests]
    .sort((a, b) => a.endMs - b.endMs)
    .map((r) => {
      const startNs = BASE_NS + BigInt(Math.round(r.startMs * 1e6));
      const endNs = BASE_NS + BigInt(Math.round(r.endMs * 1e6));
      const meta = {
        session_num: r.session,
        x_request_id: `req-${String(r.i).padStart(8, "0")}`,
        x_correlation_id: `corr-${r.session}`,
        conversation_id: r.conversation,
        turn_index: r.turn,
        request_start_ns: "@START@",
        request_end_ns: "@END@",
        worker_id: `worker_${r.worker}`,
        record_processor_id: "record_processor_0",
        benchmark_phase: "profiling",
        was_cancelled: r.cancelled,
        ...(r.cancelled ? { cancellation_time_ns: "@END@" } : {}),
      };
      let body;
      if (r.failed || r.cancelled) {
        const error = r.failed
          ? HTTP_500
          : { code: 499, type: "RequestCancellationError", message: "Request was cancelled" };
        body = { metadata: meta, metrics: { error_isl: { value: r.prompt, unit: "tokens" } }, error };
      } else {
        const metrics = {
          input_sequence_length: { value: r.prompt, unit: "tokens" },
          output_sequence_length: { value: r.answer, unit: "tokens" },
          time_to_first_token: { value: r.ttft, unit: "ms" },
          request_latency: { value: r.e2e, unit: "ms" },
          inter_token_latency: { value: r.itl, unit: "ms" },
          usage_prompt_tokens: { value: r.prompt, unit: "tokens" },
          ...(withCached ? { usage_prompt_cache_read_tokens: { value: r.cached, unit: "tokens" } } : {}),
        };
        body = { metadata: meta, metrics };
      }
      // Exact nanosecond integers, spliced in as text (JSON numbers past 2^53 would round).
      return JSON.stringify(body)
        .replace('"request_start_ns":"@START@"', `"request_start_ns":${startNs}`)
        .replaceAll('"@END@"', `${endNs}`);
    });
  const jsonlPath = path.join(outDir, "profile_export.jsonl");
  // In chunks: a million records outgrow one string.
  const fd = fs.openSync(jsonlPath, "w");
  for (let i = 0; i < lines.length; i += 10_000)
    fs.writeSync(fd, lines.slice(i, i + 10_000).join("\n") + "\n");
  fs.closeSync(fd);

  const ok = requests.filter((r) => !r.failed && !r.cancelled);
  // Loops, not Math.min(...xs): a spread of a million values overflows the call stack.
  let minStart = Infinity;
  let maxEnd = -Infinity;
  for (const r of requests) {
    minStart = Math.min(minStart, r.startMs);
    maxEnd = Math.max(maxEnd, r.endMs);
  }
  const durationS = (maxEnd - minStart) / 1000;
  const errors = requests.length - ok.length;
  const summary = {
    schema_version: "1.1",
    aiperf_version: "0.7.0",
    benchmark_id: "synthetic-multiturn",
    ...requestMetrics(
      {
        ttft: ok.map((r) => r.ttft),
        e2e: ok.map((r) => r.e2e),
        itl: ok.map((r) => r.itl),
        isl: ok.map((r) => r.prompt),
        osl: ok.map((r) => r.answer),
      },
      durationS,
    ),
    ...(errors > 0 ? { error_request_count: { unit: "requests", avg: errors } } : {}),
    ...(opts.theoretical ? { theoretical_prefix_cache_hit: theoretical(ok) } : {}),
    input_config: {
      endpoint: {
        model_names: ["synthetic/multiturn"],
        type: "chat",
        streaming: true,
        url: "localhost:8000",
      },
      loadgen: { concurrency },
    },
    was_cancelled: false,
    error_summary: [],
  };
  const summaryPath = path.join(outDir, "profile_export_aiperf.json");
  fs.writeFileSync(summaryPath, JSON.stringify(summary, null, 2));
  const inputsPath = opts.inputs ? writeInputs(outDir, requests, opts.inputs) : null;
  const serverMetricsPath = opts.serverMetrics
    ? writeServerMetrics(outDir, requests, opts.serverMetrics, minStart, maxEnd)
    : null;
  return { jsonlPath, summaryPath, inputsPath, serverMetricsPath, requests, summary };
}

/**
 * inputs.json of the run's conversations, in the shape `inputs` names (see the header), written
 * one session at a time (a million turns of text outgrow one string).
 */
function writeInputs(outDir, requests, shape) {
  const byConv = new Map();
  for (const r of requests) {
    const list = byConv.get(r.conversation) ?? [];
    list.push(r);
    byConv.set(r.conversation, list);
  }
  const file = path.join(outDir, "inputs.json");
  const fd = fs.openSync(file, "w");
  fs.writeSync(fd, '{\n  "data": [');
  let first = true;
  for (const [id, turns] of byConv) {
    const payloads = [];
    let history = [];
    let prevPrompt = 0;
    for (const r of turns) {
      const message = { role: "user", content: [{ type: "text", text: text(r.user, `u${r.turn}`) }] };
      const messages = shape === "history" ? [...history, message] : [message];
      payloads.push({ messages, model: "synthetic/multiturn", stream: true });
      if (shape === "history")
        history = [...messages, { role: "assistant", content: text(r.answer ?? 0, "a") }];
      // What each shape makes reusable: the history mode shares the previous payload (its
      // prompt), not the dataset's answer text; the delta mode everything but the new message.
      r.inputsPossible = r.turn === 0 ? 0 : shape === "history" ? prevPrompt : r.history;
      prevPrompt = r.prompt;
    }
    fs.writeSync(fd, `${first ? "" : ","}\n    ${JSON.stringify({ session_id: id, payloads })}`);
    first = false;
  }
  fs.writeSync(fd, "\n  ]\n}\n");
  fs.closeSync(fd);
  return file;
}

/**
 * The engine's server_metrics_export.json: cumulative prompt tokens by source, scraped every
 * `scrapeMs` (250 ms unless given), in timeslices of `sliceS` (1 s unless given). With
 * `engines` > 1, each request is prefilled by engine `worker % engines` (aiperf's worker stands
 * in for the router's choice) and every engine is its own scraped endpoint with its own counters.
 */
function writeServerMetrics(
  outDir,
  requests,
  { sliceS = 1, scrapeMs = 250, engines = 1 },
  minStartMs,
  maxEndMs,
) {
  const counted = requests
    .filter((r) => !r.failed && !r.cancelled)
    .map((r) => ({ at: r.startMs + r.ttft, r }))
    .sort((a, b) => a.at - b.at);
  const ms = (v) => Number(BASE_NS) + Math.round(v * 1e6);
  const scrapes = Array.from({ length: engines }, () => []);
  const totals = Array.from({ length: engines }, () => ({
    local_cache_hit: 0,
    external_kv_transfer: 0,
    local_compute: 0,
  }));
  let k = 0;
  for (let t = minStartMs - 2 * scrapeMs; t <= maxEndMs + 2 * scrapeMs; t += scrapeMs) {
    for (; k < counted.length && counted[k].at <= t; k++) {
      const r = counted[k].r;
      const e = totals[r.worker % engines];
      e.local_cache_hit += r.gpuCached;
      e.external_kv_transfer += r.externalCached;
      e.local_compute += r.prompt - r.gpuCached - r.externalCached;
    }
    totals.forEach((tot, e) => {
      const samples = Object.entries(tot).map(([source, value]) => ({
        labels: { engine: "0", model_name: "synthetic/multiturn", source },
        value,
      }));
      scrapes[e].push({
        t: ms(t),
        families: {
          "vllm:prompt_tokens_by_source": { type: "counter", help: "Prompt tokens by source", samples },
        },
      });
    });
  }
  const run = {
    endpoints: scrapes.map((list, e) => ({
      url: engines === 1 ? "http://127.0.0.1:8000/metrics" : `http://engine-${e}:8000/metrics`,
      scrapes: list,
    })),
    window: { startNs: ms(minStartMs), endNs: ms(maxEndMs) },
    sliceS,
    benchmarkId: "synthetic-multiturn",
    inputConfig: {},
  };
  const file = path.join(outDir, "server_metrics_export.json");
  fs.writeFileSync(file, serverMetricsJson(run));
  return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, def) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : def;
  };
  const out = arg("out", null);
  if (!out) {
    console.error("usage: aiperf-multiturn.mjs --out DIR [--conversations N] [--max-turns N] …");
    process.exit(2);
  }
  const run = generateMultiTurnRun(out, {
    conversations: Number(arg("conversations", 200)),
    maxTurns: Number(arg("max-turns", 20)),
    concurrency: Number(arg("concurrency", 8)),
    seed: Number(arg("seed", 1)),
    evict: Number(arg("evict", 0.2)),
    cached: !process.argv.includes("--no-cached"),
    errorEvery: Number(arg("error-every", 0)),
    cancelEvery: Number(arg("cancel-every", 0)),
  });
  console.log(`${run.requests.length} requests → ${run.jsonlPath}`);
}
