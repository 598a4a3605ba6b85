/**
 * `vllm bench serve --save-result [--save-detailed]` result JSON (docs/formats.md §vLLM bench
 * serve): run-level figures (`completed`, `request_throughput`, `mean_ttft_ms`, `p99_ttft_ms`, …)
 * and, with --save-detailed, per-request arrays in seconds (`ttfts`, `itls`, `latencies`,
 * `start_times`, `input_lens`, `output_lens`, `errors`). One object per file; --append-result
 * writes one per line, and a `vllm bench sweep serve` combination's summary.json is an array of
 * them (each run also alone in its run=N.json, with `run_number` and the swept parameters).
 * The older benchmarks/benchmark_serving.py writes the same keys without `latencies`,
 * `start_times` and `failed`.
 */
import type { AiperfRecord } from "./aiperf-records";
import {
  factsOf,
  isObject,
  metricBlock,
  num,
  recordFromSeconds,
  str,
  toolSummary,
  type BenchResult,
} from "./bench-result";

const TOOL = "vLLM bench serve";

/** Whether a parsed object is one vLLM result: its counts plus keys SGLang's result never has. */
export function isVllmBenchResult(v: unknown): v is Record<string, unknown> {
  if (!isObject(v) || typeof v.completed !== "number" || typeof v.request_throughput !== "number")
    return false;
  return "mean_e2el_ms" in v || "endpoint_type" in v || "model_id" in v || "tokenizer_id" in v;
}

/** Keys in the first megabyte of a result too large for the detection head. */
export function sniffVllmBench(text: string): boolean {
  const has = (k: string) => new RegExp(`"${k}"\\s*:`).test(text);
  return has("completed") && has("request_throughput") && (has("endpoint_type") || has("model_id"));
}

/** The results in a document: one object, a sweep summary's array, or appended lines. */
export function vllmResultsOf(docs: unknown[]): BenchResult[] {
  const out: BenchResult[] = [];
  for (const d of docs) {
    if (Array.isArray(d)) {
      for (const x of d) if (isVllmBenchResult(x)) out.push(readVllmResult(x));
    } else if (isVllmBenchResult(d)) out.push(readVllmResult(d));
  }
  return out;
}

/** The swept parameters a sweep run carries beside the result (serve and bench overrides). */
/** Most swept parameters of a `vllm bench sweep` result kept as facts, and their longest name or value. */
export const MAX_SWEPT_PARAMS = 32;
const MAX_SWEPT_TEXT = 200;

const RESULT_KEYS = new Set([
  "date",
  "endpoint_type",
  "backend",
  "label",
  "model_id",
  "tokenizer_id",
  "num_prompts",
  "request_rate",
  "burstiness",
  "max_concurrency",
  "duration",
  "completed",
  "failed",
  "run_number",
]);

export function readVllmResult(d: Record<string, unknown>): BenchResult {
  const notes: string[] = [];
  const completed = num(d.completed) ?? 0;
  const failed = num(d.failed);
  const rate = d.request_rate === "inf" ? "inf" : num(d.request_rate);
  const records = readRequests(d, notes);
  const block = (name: string) =>
    metricBlock("ms", {
      avg: d[`mean_${name}_ms`],
      std: d[`std_${name}_ms`],
      p50: d[`median_${name}_ms`] ?? d[`p50_${name}_ms`],
      p75: d[`p75_${name}_ms`],
      p90: d[`p90_${name}_ms`],
      p95: d[`p95_${name}_ms`],
      p99: d[`p99_${name}_ms`],
    });
  const summary = toolSummary(
    {
      request_count: metricBlock("requests", { avg: completed }),
      error_request_count: failed === null ? null : metricBlock("requests", { avg: failed }),
      benchmark_duration: metricBlock("sec", { avg: d.duration }),
      request_throughput: metricBlock("requests/sec", { avg: d.request_throughput }),
      output_token_throughput: metricBlock("tokens/sec", { avg: d.output_throughput }),
      total_osl: metricBlock("tokens", { avg: d.total_output_tokens }),
      time_to_first_token: block("ttft"),
      // vLLM's TPOT, (latency − TTFT) / (output − 1) per request, is aiperf's inter-token
      // latency; vLLM's own "ITL" pools every gap between chunks and is another statistic.
      inter_token_latency: block("tpot"),
      request_latency: block("e2el"),
    },
    {
      model: str(d.model_id),
      endpointType: str(d.endpoint_type) ?? str(d.backend),
      concurrency: num(d.max_concurrency),
      requestRate: typeof rate === "number" ? rate : null,
      requestCount: num(d.num_prompts),
    },
  );
  // A combination's overrides, bounded: a handful of short parameters, never thousands of facts.
  const swept =
    typeof d.run_number === "number"
      ? Object.entries(d)
          .filter(
            ([k, v]) =>
              !RESULT_KEYS.has(k) &&
              k.length <= MAX_SWEPT_TEXT &&
              (typeof v === "boolean" || (typeof v === "string" && v.length <= MAX_SWEPT_TEXT)),
          )
          .slice(0, MAX_SWEPT_PARAMS)
      : [];
  const facts = factsOf({
    vllmPooledItlMeanMs: d.mean_itl_ms,
    vllmPooledItlP99Ms: d.p99_itl_ms,
    burstiness: d.burstiness,
    peakOutputTokensPerS: d.max_output_tokens_per_s,
    peakConcurrentRequests: d.max_concurrent_requests,
    requestGoodputPerS: d.request_goodput ?? d["request_goodput:"],
    sweepRun: d.run_number,
    ...Object.fromEntries(swept.map(([k, v]) => [`sweep.${k}`, v])),
  });
  return {
    tool: TOOL,
    toolVersion: str(d.vllm_version) ?? str(d.version),
    label: str(d.label) ?? (typeof d.run_number === "number" ? `run ${d.run_number}` : null),
    model: str(d.model_id),
    backend: str(d.backend) ?? str(d.endpoint_type),
    concurrency: num(d.max_concurrency),
    requestRate: rate,
    numPrompts: num(d.num_prompts),
    records,
    summary,
    comparable: [
      "request_count",
      "error_request_count",
      "time_to_first_token",
      "inter_token_latency",
      "request_latency",
      "request_throughput",
      "output_token_throughput",
    ],
    durationS: num(d.duration),
    facts,
    notes,
  };
}

const numbers = (v: unknown): Array<number | null> | null =>
  Array.isArray(v) ? v.map((x) => (typeof x === "number" && Number.isFinite(x) ? x : null)) : null;

/**
 * The --save-detailed arrays, one entry per request in send order. A failed request has an
 * error string (the reason phrase or a traceback), TTFT and latency 0 and output length 0; the
 * reason phrase can be empty, so a request with no latency at all counts as failed too.
 */
function readRequests(d: Record<string, unknown>, notes: string[]): AiperfRecord[] | null {
  const ttfts = numbers(d.ttfts);
  if (!ttfts) return null;
  const n = ttfts.length;
  const itls = Array.isArray(d.itls) ? d.itls : [];
  const latencies = numbers(d.latencies);
  const starts = numbers(d.start_times);
  const inputs = numbers(d.input_lens);
  const outputs = numbers(d.output_lens);
  const errors = Array.isArray(d.errors) ? d.errors : [];
  if (!latencies)
    notes.push("no per-request latencies (older vLLM): end-to-end latency is TTFT + the sum of ITLs");
  if (!starts) notes.push("no per-request start times (older vLLM): the run has no request timeline");
  const out: AiperfRecord[] = [];
  for (let i = 0; i < n; i++) {
    const gaps = Array.isArray(itls[i]) ? (itls[i] as unknown[]) : [];
    // vLLM's latency is the time of the last token, so TTFT + Σ ITL is the same figure.
    let latency = latencies?.[i] ?? null;
    if (latency === null && ttfts[i] !== null)
      latency = gaps.reduce<number>((a, g) => a + (typeof g === "number" ? g : 0), ttfts[i]!);
    const message = typeof errors[i] === "string" ? (errors[i] as string) : "";
    const failed = message !== "" || latency === null || latency <= 0;
    out.push(
      recordFromSeconds({
        index: i,
        startS: starts?.[i] ?? null,
        ttftS: ttfts[i],
        latencyS: latency,
        inputTokens: inputs?.[i] ?? null,
        outputTokens: outputs?.[i] ?? null,
        error: failed ? message || "request failed (no reason given)" : null,
      }),
    );
  }
  return out;
}
