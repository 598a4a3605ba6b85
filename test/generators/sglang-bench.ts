/**
 * SGLang `bench_serving --output-file F.jsonl [--output-details]` lines, written the way
 * python/sglang/bench_serving.py writes them (`calculate_metrics`, `benchmark`): run-level
 * figures in ms over the successful requests (TTFT mean/median/std/p99; TPOT
 * (latency − TTFT) / (output − 1); ITL pooled with p95 and max; E2E), `concurrency` = Σ latency /
 * duration, and with details the per-request lists in seconds. SGLang's latency is the time of
 * its last chunk, which follows the last token by `tailS` (the [DONE] or usage chunk): the
 * details do not hold it. A failed request keeps its prompt length, output length 0, error text.
 */
import { prng } from "./prng.mjs";
import { msStats } from "./bench-numpy";

export interface SglangOptions {
  requests?: number;
  concurrency?: number | null;
  requestRate?: number | "inf";
  seed?: number;
  errorEvery?: number;
  details?: boolean;
  /** Time from the last token to the last chunk (s) */
  tailS?: number;
}

export function sglangLine(o: SglangOptions = {}): Record<string, unknown> {
  const rand = prng(o.seed ?? 11);
  const n = o.requests ?? 40;
  const tail = o.tailS ?? 0.0004;
  const reqs = Array.from({ length: n }, (_, i) => {
    const inputLen = 200 + Math.floor(rand() * 300);
    if (o.errorEvery && (i + 1) % o.errorEvery === 0)
      return {
        ok: false,
        inputLen,
        outputLen: 0,
        ttft: 0,
        itl: [] as number[],
        latency: 0,
        error: "Service Unavailable",
      };
    const ttft = 0.03 + rand() * 0.05;
    const outputLen = 10 + Math.floor(rand() * 60);
    const itl = Array.from({ length: outputLen - 1 }, () => 0.01 + rand() * 0.005);
    const latency = itl.reduce((a, g) => a + g, ttft) + tail;
    return { ok: true, inputLen, outputLen, ttft, itl, latency, error: "" };
  });
  const ok = reqs.filter((r) => r.ok);
  const duration = (ok.reduce((a, r) => a + r.latency, 0) / (o.concurrency ?? 4)) * 1.02;
  const ttfts = ok.map((r) => r.ttft);
  const tpots = ok.filter((r) => r.outputLen > 1).map((r) => (r.latency - r.ttft) / (r.outputLen - 1));
  const itls = ok.flatMap((r) => r.itl);
  const e2e = ok.map((r) => r.latency);
  const totalInput = ok.reduce((a, r) => a + r.inputLen, 0);
  const totalOutput = reqs.reduce((a, r) => a + r.outputLen, 0);
  const result: Record<string, unknown> = {
    backend: "sglang",
    dataset_name: "random",
    request_rate: o.requestRate ?? "inf",
    max_concurrency: o.concurrency === undefined ? 4 : o.concurrency,
    sharegpt_output_len: null,
    random_input_len: 400,
    random_output_len: 60,
    random_range_ratio: 0.5,
    duration,
    completed: ok.length,
    total_input_tokens: totalInput,
    total_output_tokens: totalOutput,
    total_output_tokens_retokenized: totalOutput,
    request_throughput: ok.length / duration,
    input_throughput: totalInput / duration,
    output_throughput: totalOutput / duration,
    ...msStats("e2e_latency", e2e),
    ...msStats("ttft", ttfts),
    ...msStats("tpot", tpots),
    ...msStats("itl", itls, [95, 99]),
    concurrency: e2e.reduce((a, b) => a + b, 0) / duration,
    accept_length: null,
  };
  if (!o.details) return result;
  return {
    ...result,
    input_lens: reqs.map((r) => r.inputLen),
    output_lens: reqs.map((r) => r.outputLen),
    ttfts: reqs.map((r) => r.ttft),
    itls: reqs.map((r) => r.itl),
    generated_texts: reqs.map((r) => (r.ok ? "y".repeat(r.outputLen) : "")),
    errors: reqs.map((r) => r.error),
  };
}

/** A concurrency sweep appended to one file, as repeated runs with --output-file write it. */
export function sglangSweep(levels: number[], o: SglangOptions = {}): string {
  return (
    levels
      .map((c, i) => JSON.stringify(sglangLine({ ...o, concurrency: c, seed: (o.seed ?? 11) + i })))
      .join("\n") + "\n"
  );
}

/**
 * The 2024 line (python/sglang/bench_serving.py of v0.2/v0.3, kept by
 * benchmark/lora/lora_bench.py): written only when median TTFT, mean ITL and output throughput
 * exist, with this key set alone: no mean TTFT, no TPOT, no p99, no request throughput.
 */
export function sglangLine2024(o: SglangOptions = {}): Record<string, unknown> {
  const full = sglangLine({ ...o, details: false });
  const keys = [
    "backend",
    "dataset_name",
    "request_rate",
    "total_input_tokens",
    "total_output_tokens",
    "total_output_tokens_retokenized",
    "mean_e2e_latency_ms",
    "median_e2e_latency_ms",
    "median_ttft_ms",
    "median_itl_ms",
    "output_throughput",
    "sharegpt_output_len",
    "random_input_len",
    "random_output_len",
    "random_range_ratio",
    "duration",
    "completed",
  ];
  return Object.fromEntries(keys.map((k) => [k, full[k]]));
}
