/**
 * SGLang `python -m sglang.bench_serving --output-file FILE.jsonl` (docs/formats.md §SGLang
 * bench_serving): every benchmark appends one JSON line of run-level figures (`completed`,
 * `request_throughput`, `mean_ttft_ms`, `median_e2e_latency_ms`, `p99_itl_ms`, …); with
 * --output-details the line also holds per-request arrays in seconds (`input_lens`,
 * `output_lens`, `ttfts`, `itls`, `generated_texts`, `errors`). A file of several lines is a
 * sweep (one line per request rate or concurrency).
 */
import { sglangDataset, sglangRunConfig } from "./run-config";
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

const TOOL = "SGLang bench_serving";

/**
 * SGLang's line: its count plus `mean_e2e_latency_ms` (or the retokenized total), keys vLLM's
 * result never has. The 2024 line (python/sglang/bench_serving.py of v0.2/v0.3, still written by
 * benchmark/lora/lora_bench.py) has no `request_throughput` and no mean TTFT: `completed`,
 * `duration`, `output_throughput`, mean and median E2E, median TTFT and median ITL.
 */
export function isSglangBenchResult(v: unknown): v is Record<string, unknown> {
  return (
    isObject(v) &&
    typeof v.completed === "number" &&
    (typeof v.request_throughput === "number" || typeof v.duration === "number") &&
    ("mean_e2e_latency_ms" in v || "total_output_tokens_retokenized" in v)
  );
}

export function sniffSglangBench(text: string): boolean {
  const has = (k: string) => new RegExp(`"${k}"\\s*:`).test(text);
  return has("completed") && (has("request_throughput") || has("duration")) && has("mean_e2e_latency_ms");
}

export function sglangResultsOf(lines: unknown[]): BenchResult[] {
  return lines.filter(isSglangBenchResult).map(readSglangResult);
}

export function readSglangResult(raw: Record<string, unknown>): BenchResult {
  const notes: string[] = [];
  const { value: d, note: outOfRange } = withoutOutOfRange(raw, TOOL);
  if (outOfRange) notes.push(outOfRange);
  const rate = d.request_rate === "inf" || d.request_rate === null ? "inf" : num(d.request_rate);
  // SGLang adapted vLLM's calculate_metrics: np.mean(ttfts or 0) and the like, so a line with
  // no completed request (or a statistic nobody measured) holds 0.0 placeholders.
  const none = num(d.completed) === 0;
  const placeholders: string[] = [];
  const block = (name: string) =>
    servingLatencyBlock(d, name, { none, placeholders }, name, { max: d[`max_${name}_ms`] });
  const completed = num(d.completed) ?? 0;
  const duration = num(d.duration);
  const records = readRequests(d, notes);
  if (none)
    notes.push(
      `no successful request: SGLang's 0.0 latencies for this run are placeholders, not measurements${records ? "" : " (the line does not count the failed requests)"}`,
    );
  const failed = records ? records.filter((r) => r.error).length : null;
  if (!records)
    notes.push(
      "SGLang's result line counts successful requests only: failed requests are not in it (run with --output-details to count them)",
    );
  // SGLang's request throughput is completed / duration; the 2024 line did not write it.
  let requestThroughput = num(d.request_throughput);
  if (requestThroughput === null && duration !== null && duration > 0) {
    requestThroughput = completed / duration;
    notes.push(
      "this SGLang line (2024 schema) has no request_throughput: it is completed ÷ duration here, SGLang's own definition",
    );
  }
  const ttft = block("ttft");
  const tpot = block("tpot");
  const e2e = block("e2e_latency");
  const pooled = block("itl");
  if (placeholders.length > 0)
    notes.push(
      `SGLang wrote 0.0 for every ${placeholders.map((p) => p.replace("_latency", "").toUpperCase()).join(", ")} statistic: no request measured it, so it is not shown`,
    );
  const summary = toolSummary(
    {
      request_count: metricBlock("requests", { avg: completed }),
      benchmark_duration: metricBlock("sec", { avg: duration }),
      request_throughput: metricBlock("requests/sec", { avg: requestThroughput }),
      output_token_throughput: metricBlock("tokens/sec", { avg: d.output_throughput }),
      total_token_throughput: metricBlock("tokens/sec", { avg: d.total_throughput }),
      total_isl: metricBlock("tokens", { avg: d.total_input_tokens }),
      total_osl: metricBlock("tokens", { avg: d.total_output_tokens }),
      time_to_first_token: ttft,
      // SGLang's TPOT is aiperf's inter-token latency; its "ITL" pools the gaps between chunks.
      inter_token_latency: tpot,
      request_latency: e2e,
    },
    {
      model: str(d.model_id) ?? str(d.model) ?? str(serverInfo(d).model_path),
      endpointType: str(d.backend),
      concurrency: num(d.max_concurrency),
      requestRate: typeof rate === "number" ? rate : null,
    },
  );
  // A statistic the line gives without a mean (the 2024 line's medians) is not a full
  // statistic on the page: it is stated as SGLang's figure beside the run.
  const medianOnly = (name: string) =>
    d[`mean_${name}_ms`] === undefined && !none ? d[`median_${name}_ms`] : undefined;
  const facts = factsOf({
    ...sglangDataset(d.dataset_name),
    ...sglangRunConfig(d.server_info),
    sglangMedianTtftMs: ttft ? medianOnly("ttft") : undefined,
    sglangMedianE2eLatencyMs: e2e && d.p99_e2e_latency_ms === undefined ? d.median_e2e_latency_ms : undefined,
    sglangMeanE2eLatencyMs: e2e && d.p99_e2e_latency_ms === undefined ? d.mean_e2e_latency_ms : undefined,
    sglangPooledItlMeanMs: pooled ? d.mean_itl_ms : undefined,
    sglangPooledItlMedianMs: pooled ? d.median_itl_ms : undefined,
    sglangPooledItlP99Ms: pooled ? d.p99_itl_ms : undefined,
    sglangConcurrency: d.concurrency,
    acceptLength: d.accept_length,
    randomInputLen: d.random_input_len,
    randomOutputLen: d.random_output_len,
    totalInputTokens: d.total_input_tokens,
    totalOutputTokens: d.total_output_tokens,
    inputTokenThroughputPerS: d.input_throughput,
    totalTokenThroughputPerS: d.total_throughput,
    peakOutputTokensPerS: none ? undefined : d.max_output_tokens_per_s,
    peakConcurrentRequests: none ? undefined : d.max_concurrent_requests,
  });
  const server = serverInfo(d);
  return {
    tool: TOOL,
    toolVersion: str(d.sglang_version) ?? str(d.version),
    label: str(d.tag) ?? null,
    model: summary.config.model,
    backend: str(d.backend),
    concurrency: num(d.max_concurrency),
    requestRate: rate,
    numPrompts: records ? records.length : null,
    records,
    summary,
    // SGLang's latency is the time of its last chunk, which may be the empty [DONE] or usage
    // chunk after the last token; the details hold no latency, so E2E and TPOT here end at the
    // last token and are not held to SGLang's figures.
    comparable: ["request_count", "time_to_first_token", "request_throughput", "output_token_throughput"],
    durationS: duration,
    gpuCount: gpusOf(server),
    engineVersion: str(server.version)
      ? { value: str(server.version)!, source: "SGLang server_info.version" }
      : null,
    facts: failed === null ? facts : { ...facts, failedRequests: failed },
    notes,
  };
}

const serverInfo = (d: Record<string, unknown>): Record<string, unknown> =>
  isObject(d.server_info) ? d.server_info : {};

/**
 * GPUs from the server's own arguments (python/sglang/srt/server_args.py): tp_size × pp_size,
 * times dp_size unless DP attention is on (then the DP ranks share the TP GPUs).
 */
function gpusOf(s: Record<string, unknown>): BenchResult["gpuCount"] {
  const tp = num(s.tp_size);
  if (tp === null || tp < 1) return null;
  const pp = num(s.pp_size) ?? 1;
  const dp = num(s.dp_size) ?? 1;
  const dpAttention = s.enable_dp_attention === true;
  const value = tp * pp * (dpAttention ? 1 : dp);
  const parts = [
    `tp_size ${tp}`,
    ...(pp > 1 ? [`pp_size ${pp}`] : []),
    ...(!dpAttention ? [`dp_size ${dp}`] : []),
  ];
  return {
    value,
    source: `SGLang server_info (${parts.join(" × ")}${dpAttention ? `; dp_size ${dp} with DP attention shares them` : ""})`,
  };
}

/**
 * The --output-details arrays. A failed request has output length 0 and an error string (the
 * HTTP reason phrase, which can be empty, or a traceback); a success has a TTFT above 0.
 */
function readRequests(d: Record<string, unknown>, notes: string[]): AiperfRecord[] | null {
  if (!Array.isArray(d.ttfts)) return null;
  const ttfts = d.ttfts;
  const itls = Array.isArray(d.itls) ? d.itls : [];
  const inputs = Array.isArray(d.input_lens) ? d.input_lens : [];
  const outputs = Array.isArray(d.output_lens) ? d.output_lens : [];
  const errors = Array.isArray(d.errors) ? d.errors : [];
  notes.push(
    "SGLang's details hold no per-request latency or start time: end-to-end latency is TTFT + the sum of the request's ITLs (its last token), and the run has no request timeline",
  );
  return ttfts.map((t, i) => {
    const ttft = num(t);
    const gaps = Array.isArray(itls[i]) ? (itls[i] as unknown[]) : [];
    const message = typeof errors[i] === "string" ? (errors[i] as string) : "";
    const failed = message !== "" || ttft === null || ttft <= 0;
    return recordFromSeconds({
      index: i,
      startS: null,
      ttftS: ttft,
      latencyS: ttft === null ? null : gaps.reduce<number>((a, g) => a + (num(g) ?? 0), ttft),
      inputTokens: num(inputs[i]),
      outputTokens: num(outputs[i]),
      error: failed ? message || "request failed (no reason given)" : null,
    });
  });
}
