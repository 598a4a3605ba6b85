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
  servingLatencyBlock,
  str,
  toolSummary,
  withoutOutOfRange,
  type BenchResult,
} from "./bench-result";
import { vllmServeRunConfig } from "./run-config";

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

/**
 * Speculative decoding on, from the result's own counters where no serving argument says so:
 * `vllm bench serve` reads the server's `vllm:spec_decode_*` counters before and after the run and
 * writes `spec_decode_num_drafts`, `spec_decode_acceptance_rate` and the rest only when the server
 * exposes them (vllm/benchmarks/serve.py `_add_spec_decode_result`), and vLLM registers them only
 * when a speculative config is set (vllm/v1/metrics/loggers.py `SpecDecodingProm`). So the fields
 * say "on" without naming a method; their figures are measurements, not settings, and are not
 * compared. A result without them says nothing (another server, or an older `vllm bench`).
 */
function specDecodeStated(
  d: Record<string, unknown>,
  stated: ReturnType<typeof vllmServeRunConfig>,
): Record<string, string> {
  if (stated.speculativeDecoding !== undefined || num(d.spec_decode_num_drafts) === null) return {};
  return {
    speculativeDecoding: "speculative_decoding=on",
    speculativeDecodingSource: "vLLM bench result spec_decode_num_drafts (the server's spec-decode counters)",
  };
}

export function readVllmResult(raw: Record<string, unknown>): BenchResult {
  const notes: string[] = [];
  const { value: d, note: outOfRange } = withoutOutOfRange(raw, TOOL);
  if (outOfRange) notes.push(outOfRange);
  const completedStated = num(d.completed);
  const completed = completedStated ?? 0;
  const prompts = num(d.num_prompts);
  // The older benchmark_serving.py writes no `failed`: every prompt that did not complete failed.
  const stated = num(d.failed);
  const failed = stated ?? (prompts !== null && prompts >= completed ? prompts - completed : null);
  if (stated === null && failed !== null && failed > 0)
    notes.push(
      `vLLM's result has no failed count (older schema): ${failed} failed is num_prompts ${prompts} − completed ${completed}`,
    );
  // With no completed request vLLM still writes every latency statistic, as 0.0 (np.mean(0)):
  // placeholders, not measurements. A statistic nobody measured (TTFT on a non-streamed endpoint,
  // TPOT of one-token outputs) is written the same way, all 0.0.
  const none = completedStated === 0;
  if (none)
    notes.push(
      `no successful request: ${failed === null ? "every request" : `all ${failed} requests`} failed, and vLLM's 0.0 latencies for this run are placeholders, not measurements`,
    );
  const placeholders: string[] = [];
  const rate = d.request_rate === "inf" ? "inf" : num(d.request_rate);
  const records = readRequests(d, notes);
  const block = (name: string, label: string) =>
    servingLatencyBlock(d, name, { none, placeholders }, label, {
      p50: d[`median_${name}_ms`] ?? d[`p50_${name}_ms`],
      p75: d[`p75_${name}_ms`],
    });
  const ttft = block("ttft", "TTFT");
  const tpot = block("tpot", "TPOT");
  const e2el = block("e2el", "E2EL");
  const itl = block("itl", "ITL");
  if (placeholders.length > 0)
    notes.push(
      `vLLM wrote 0.0 for every ${placeholders.join(", ")} statistic: no request measured it (a non-streamed endpoint has no TTFT; one-token outputs have no TPOT), so it is not shown`,
    );
  const summary = toolSummary(
    {
      request_count: metricBlock("requests", { avg: completed }),
      error_request_count: failed === null ? null : metricBlock("requests", { avg: failed }),
      benchmark_duration: metricBlock("sec", { avg: d.duration }),
      // With no completed request vLLM's throughputs and token totals are 0.0 over nothing:
      // there is no successful request to have a rate or a token count, so none is shown.
      request_throughput: none ? null : metricBlock("requests/sec", { avg: d.request_throughput }),
      output_token_throughput: none ? null : metricBlock("tokens/sec", { avg: d.output_throughput }),
      total_token_throughput: none ? null : metricBlock("tokens/sec", { avg: d.total_token_throughput }),
      total_isl: none ? null : metricBlock("tokens", { avg: d.total_input_tokens }),
      total_osl: none ? null : metricBlock("tokens", { avg: d.total_output_tokens }),
      time_to_first_token: ttft,
      // vLLM's TPOT, (latency − TTFT) / (output − 1) per request, is aiperf's inter-token
      // latency; vLLM's own "ITL" pools every gap between chunks and is another statistic.
      inter_token_latency: tpot,
      request_latency: e2el,
    },
    {
      model: str(d.model_id),
      endpointType: str(d.endpoint_type) ?? str(d.backend),
      concurrency: num(d.max_concurrency),
      requestRate: typeof rate === "number" ? rate : null,
      requestCount: prompts,
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
  const serving = vllmServeRunConfig(d, "vLLM bench result", false);
  const facts = factsOf({
    vllmPooledItlMeanMs: itl ? d.mean_itl_ms : null,
    vllmPooledItlMedianMs: itl ? d.median_itl_ms : null,
    vllmPooledItlP99Ms: itl ? d.p99_itl_ms : null,
    burstiness: d.burstiness,
    // Maxima over the successful requests' timeline: 0 when there were none.
    peakOutputTokensPerS: none ? null : d.max_output_tokens_per_s,
    peakConcurrentRequests: none ? null : d.max_concurrent_requests,
    totalInputTokens: none ? null : d.total_input_tokens,
    totalTokenThroughputPerS: none ? null : d.total_token_throughput,
    requestGoodputPerS: none ? null : (d.request_goodput ?? d["request_goodput:"]),
    sweepRun: d.run_number,
    ...Object.fromEntries(swept.map(([k, v]) => [`sweep.${k}`, v])),
    ...multiTurnFacts(d),
    // The serving arguments a `vllm bench sweep` result carries among its serve overrides.
    ...serving,
    ...specDecodeStated(d, serving),
  });
  const reasons = failureReasons(d);
  if (reasons) notes.push(reasons);
  return {
    tool: TOOL,
    toolVersion: str(d.vllm_version) ?? str(d.version),
    label: str(d.label) ?? (typeof d.run_number === "number" ? `run ${d.run_number}` : null),
    model: str(d.model_id),
    backend: str(d.backend) ?? str(d.endpoint_type),
    concurrency: num(d.max_concurrency),
    requestRate: rate,
    numPrompts: prompts,
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
    tokenLens: records ? null : successfulLens(d, completed),
    e2eValuesMs: records || e2el ? null : successfulLatencies(d, completed, notes),
    facts,
    notes,
  };
}

/** Most turns whose figures become run facts (a long conversation would flood the header). */
const MAX_TURN_FACTS = 32;

/**
 * The multi-turn result of vLLM's Rust `vllm-bench` (rust/src/bench/src/output/json.rs
 * `build_multi_turn_result_json`): conversation counts, and `per_turn_metrics[]` with each turn's
 * completed and failed requests and its figures. The run-level figures cover every turn.
 */
function multiTurnFacts(d: Record<string, unknown>): Record<string, unknown> {
  if (d.mode !== "multi_turn" && !Array.isArray(d.per_turn_metrics)) return {};
  const out: Record<string, unknown> = {
    mode: d.mode,
    conversations: d.num_conversations,
    turnsPerConversation: d.turns_per_conversation,
    conversationsCompleted: d.conversations_completed,
    conversationsFailed: d.conversations_failed,
    avgTurnsCompleted: d.avg_turns_completed,
    avgConversationDurationMs: d.avg_conversation_duration_ms,
  };
  const turns = Array.isArray(d.per_turn_metrics) ? d.per_turn_metrics.filter(isObject) : [];
  for (const t of turns.slice(0, MAX_TURN_FACTS)) {
    const i = num(t.turn_index);
    if (i === null) continue;
    const none = num(t.completed) === 0;
    out[`turn${i}Completed`] = t.completed;
    out[`turn${i}Failed`] = t.failed;
    // A turn with no completed request has 0.0 placeholders, as the run has.
    if (!none) {
      out[`turn${i}MeanTtftMs`] = t.mean_ttft_ms;
      out[`turn${i}MeanTpotMs`] = t.mean_tpot_ms;
      out[`turn${i}MeanE2elMs`] = t.mean_e2el_ms;
      out[`turn${i}OutputThroughputPerS`] = t.output_throughput;
    }
  }
  return out;
}

/**
 * The Rust `vllm-bench` writes `failed_requests[]` (index, error, …) whenever a request failed,
 * with or without --save-detailed: the reasons, grouped, for a result without per-request arrays.
 */
function failureReasons(d: Record<string, unknown>): string | null {
  if (!Array.isArray(d.failed_requests) || Array.isArray(d.ttfts)) return null;
  const counts = new Map<string, number>();
  for (const f of d.failed_requests) {
    if (!isObject(f)) continue;
    const text = typeof f.error === "string" && f.error.trim() !== "" ? f.error.trim() : "no reason given";
    const lines = text.split(/\r?\n/);
    const last = lines[lines.length - 1].trim();
    const key = last.length > 80 ? `${last.slice(0, 77)}…` : last;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return `vLLM's failed_requests: ${top.map(([k, c]) => `${c} × ${k}`).join("; ")}${counts.size > 3 ? `; and ${counts.size - 3} more reasons` : ""}`;
}

/**
 * vllm/benchmarks/serve.py keeps `latencies` (every request, seconds; 0.0 for a failed one)
 * without --save-detailed, while E2EL statistics are written only when selected: the successful
 * requests' latencies are then the run's E2E, when they are as many as vLLM's `completed`.
 */
function successfulLatencies(
  d: Record<string, unknown>,
  completed: number,
  notes: string[],
): number[] | null {
  const latencies = numbers(d.latencies);
  if (!latencies || completed === 0) return null;
  const ok = latencies.filter((v): v is number => v !== null && v > 0).map((v) => v * 1000);
  if (ok.length !== completed) {
    notes.push(
      `vLLM's latencies list ${ok.length} successful requests where it counts ${completed} completed: no end-to-end latency is taken from them`,
    );
    return null;
  }
  notes.push(
    "vLLM wrote no E2EL statistics: end-to-end latency is taken from its per-request latencies (numpy's linear percentiles, as vLLM's)",
  );
  return ok;
}

/**
 * `input_lens`/`output_lens` without the timing arrays: the successful requests' lengths. vLLM
 * lists every request, a failed one with output length 0 (and an error string with
 * --save-detailed), so those are left out.
 */
function successfulLens(d: Record<string, unknown>, completed: number): BenchResult["tokenLens"] {
  const inputs = numbers(d.input_lens);
  const outputs = numbers(d.output_lens);
  if (!inputs && !outputs) return null;
  const n = (inputs ?? outputs)!.length;
  const errors = Array.isArray(d.errors) && d.errors.length === n ? d.errors : null;
  const ok = (i: number) =>
    errors ? errors[i] === "" || errors[i] === null : completed >= n || (outputs?.[i] ?? 0) > 0;
  const pick = (a: Array<number | null> | null) => {
    if (!a || a.length !== n) return null;
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (ok(i) && a[i] !== null) out.push(a[i]!);
    return out.length > 0 ? out : null;
  };
  return { input: pick(inputs), output: pick(outputs) };
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
