/**
 * A `vllm bench serve --save-result [--save-detailed]` result, written the way
 * vllm/benchmarks/serve.py writes it (`calculate_metrics`, `benchmark`, `main`): per-request
 * values in seconds (`ttfts`, `itls` lists, `latencies` = time of the last token, `start_times`
 * on perf_counter), failed requests with an error string, TTFT and latency 0 and output length
 * 0, and run-level figures in ms from numpy over the successful requests: TTFT, TPOT
 * ((latency − TTFT) / (output − 1), outputs above 1), ITL (every gap pooled) and, when selected,
 * E2EL. Without --save-detailed the per-request lists are deleted, `latencies` and `queue_times`
 * stay. `legacy` writes benchmarks/benchmark_serving.py's older result (no `failed`,
 * `latencies`, `start_times`; the `request_goodput:` key).
 *
 * Requests run back to back on `concurrency` workers, TTFT uniform on [20, 120) ms, output
 * tokens uniform on [20, 120), every gap uniform on [8, 16) ms, input tokens uniform on [100, 600).
 */
import { prng } from "./prng.mjs";
import { msStats } from "./bench-numpy";

export interface VllmBenchOptions {
  requests?: number;
  concurrency?: number;
  seed?: number;
  /** Every n-th request fails (0: none) */
  errorEvery?: number;
  detailed?: boolean;
  legacy?: boolean;
  percentileMetrics?: string[];
  percentiles?: number[];
  model?: string;
  label?: string | null;
}

export interface VllmRequest {
  startS: number;
  ttftS: number;
  itlS: number[];
  latencyS: number;
  inputLen: number;
  outputLen: number;
  error: string;
}

export function vllmRequests(o: VllmBenchOptions = {}): VllmRequest[] {
  const rand = prng(o.seed ?? 7);
  const n = o.requests ?? 40;
  const c = o.concurrency ?? 4;
  const free = Array.from({ length: c }, () => 1000.25);
  const out: VllmRequest[] = [];
  for (let i = 0; i < n; i++) {
    const w = i % c;
    const startS = free[w];
    const inputLen = 100 + Math.floor(rand() * 500);
    if (o.errorEvery && (i + 1) % o.errorEvery === 0) {
      out.push({
        startS,
        ttftS: 0,
        itlS: [],
        latencyS: 0,
        inputLen,
        outputLen: 0,
        error: "Internal Server Error",
      });
      free[w] = startS + 0.01;
      continue;
    }
    const ttftS = 0.02 + rand() * 0.1;
    const outputLen = 20 + Math.floor(rand() * 100);
    const itlS = Array.from({ length: outputLen - 1 }, () => 0.008 + rand() * 0.008);
    const latencyS = itlS.reduce((a, g) => a + g, ttftS);
    out.push({ startS, ttftS, itlS, latencyS, inputLen, outputLen, error: "" });
    free[w] = startS + latencyS;
  }
  return out;
}

/** vLLM's peak: tokens (first token, then one per ITL) counted in whole-second buckets from the first start. */
function peakTokensPerS(ok: VllmRequest[]): number {
  if (ok.length === 0) return 0;
  const t0 = Math.min(...ok.map((r) => r.startS));
  const buckets = new Map<number, number>();
  for (const r of ok) {
    let t = r.startS + r.ttftS;
    const add = () => buckets.set(Math.floor(t - t0), (buckets.get(Math.floor(t - t0)) ?? 0) + 1);
    add();
    for (const g of r.itlS) {
      t += g;
      add();
    }
  }
  return Math.max(...buckets.values());
}

export function vllmBenchResult(o: VllmBenchOptions = {}): Record<string, unknown> {
  const reqs = vllmRequests(o);
  const ok = reqs.filter((r) => r.error === "");
  const first = Math.min(...reqs.map((r) => r.startS));
  const last = Math.max(...reqs.map((r) => r.startS + r.latencyS));
  // perf_counter around the gather: a little more than first start to last end.
  const duration = last - first + 0.0125;
  const totalInput = ok.reduce((a, r) => a + r.inputLen, 0);
  const totalOutput = reqs.reduce((a, r) => a + r.outputLen, 0);
  const ttfts = ok.map((r) => r.ttftS);
  const tpots = ok.filter((r) => r.outputLen > 1).map((r) => (r.latencyS - r.ttftS) / (r.outputLen - 1));
  const itls = ok.flatMap((r) => r.itlS);
  const e2els = ok.map((r) => r.latencyS);
  const result: Record<string, unknown> = {
    date: "20261201-101500",
    endpoint_type: "openai-chat",
    backend: "openai-chat",
    label: o.label ?? null,
    model_id: o.model ?? "meta-llama/Llama-3.1-8B-Instruct",
    tokenizer_id: o.model ?? "meta-llama/Llama-3.1-8B-Instruct",
    num_prompts: reqs.length,
    request_rate: "inf",
    burstiness: 1.0,
    max_concurrency: o.concurrency ?? 4,
    duration,
    completed: ok.length,
    ...(o.legacy ? {} : { failed: reqs.length - ok.length }),
    total_input_tokens: totalInput,
    total_output_tokens: totalOutput,
    request_throughput: ok.length / duration,
    [o.legacy ? "request_goodput:" : "request_goodput"]: null,
    output_throughput: totalOutput / duration,
    total_token_throughput: (totalInput + totalOutput) / duration,
    input_lens: reqs.map((r) => r.inputLen),
    output_lens: reqs.map((r) => r.outputLen),
    ttfts: reqs.map((r) => r.ttftS),
    itls: reqs.map((r) => r.itlS),
    ...(o.legacy
      ? {}
      : {
          latencies: reqs.map((r) => r.latencyS),
          start_times: reqs.map((r) => r.startS),
          queue_times: reqs.map(() => 0),
        }),
    generated_texts: reqs.map((r) => (r.error ? "" : "x".repeat(r.outputLen))),
    errors: reqs.map((r) => r.error),
    max_output_tokens_per_s: peakTokensPerS(ok),
    max_concurrent_requests: o.concurrency ?? 4,
    rtfx: 0,
  };
  const metrics = o.percentileMetrics ?? ["ttft", "tpot", "itl"];
  const values: Record<string, number[]> = { ttft: ttfts, tpot: tpots, itl: itls, e2el: e2els };
  for (const m of metrics) Object.assign(result, msStats(m, values[m], o.percentiles));
  if (!o.detailed)
    for (const k of [
      "input_lens",
      "output_lens",
      "start_times",
      "ttfts",
      "itls",
      "generated_texts",
      "errors",
    ])
      delete result[k];
  return result;
}

/**
 * The multi-turn result of vLLM's Rust `vllm-bench` (rust/src/bench/src/output/json.rs
 * `build_multi_turn_result_json`): conversation counts, overall `completed`/`failed` and figures
 * over every turn, `failed_requests[]` when a turn failed, and `per_turn_metrics[]` (each turn's
 * `turn_index`, `num_samples`, counts, throughputs and figures). Turn t of every conversation is
 * request i with i % turns = t.
 */
export function vllmMultiTurnResult(
  o: VllmBenchOptions & { conversations?: number; turns?: number } = {},
): Record<string, unknown> {
  const conversations = o.conversations ?? 8;
  const turns = o.turns ?? 3;
  const reqs = vllmRequests({ ...o, requests: conversations * turns });
  const first = Math.min(...reqs.map((r) => r.startS));
  const last = Math.max(...reqs.map((r) => r.startS + r.latencyS));
  const duration = last - first + 0.0125;
  const figures = (rs: VllmRequest[]) => {
    const ok = rs.filter((r) => r.error === "");
    const input = ok.reduce((a, r) => a + r.inputLen, 0);
    const output = ok.reduce((a, r) => a + r.outputLen, 0);
    const out: Record<string, unknown> = {
      completed: ok.length,
      failed: rs.length - ok.length,
      total_input_tokens: input,
      total_output_tokens: output,
      request_throughput: ok.length / duration,
      input_throughput: input / duration,
      output_throughput: output / duration,
      total_token_throughput: (input + output) / duration,
    };
    const values: Record<string, number[]> = {
      ttft: ok.map((r) => r.ttftS),
      tpot: ok.filter((r) => r.outputLen > 1).map((r) => (r.latencyS - r.ttftS) / (r.outputLen - 1)),
      itl: ok.flatMap((r) => r.itlS),
    };
    for (const [m, v] of Object.entries(values)) Object.assign(out, msStats(m, v));
    return out;
  };
  const overall = figures(reqs);
  const failedConversations = new Set(reqs.flatMap((r, i) => (r.error ? [Math.floor(i / turns)] : []))).size;
  return {
    date: "20261201-101500",
    mode: "multi_turn",
    backend: "openai-chat",
    model_id: o.model ?? "meta-llama/Llama-3.1-8B-Instruct",
    num_conversations: conversations,
    max_model_len: null,
    turns_per_conversation: turns,
    multi_turn_concurrency: o.concurrency ?? 4,
    inter_turn_delay_ms: 0,
    duration,
    conversations_completed: conversations - failedConversations,
    conversations_failed: failedConversations,
    avg_turns_completed: (reqs.length - n(overall.failed)) / conversations,
    avg_conversation_duration_ms: 1234.5,
    completed: overall.completed,
    failed: overall.failed,
    ...(n(overall.failed) > 0
      ? {
          failed_requests: reqs.flatMap((r, i) =>
            r.error
              ? [
                  {
                    conversation_id: `conv-${Math.floor(i / turns)}`,
                    turn_index: i % turns,
                    error: r.error,
                    prompt_len: r.inputLen,
                    start_time: r.startS,
                    latency: 0,
                    ttft: 0,
                    output_tokens: 0,
                    itl: [],
                  },
                ]
              : [],
          ),
        }
      : {}),
    ...Object.fromEntries(Object.entries(overall).filter(([k]) => k !== "completed" && k !== "failed")),
    per_turn_metrics: Array.from({ length: turns }, (_, t) => {
      const rs = reqs.filter((_, i) => i % turns === t);
      return { turn_index: t, num_samples: rs.length, ...figures(rs) };
    }),
  };
}

const n = (v: unknown) => v as number;
