/**
 * The console text benchmark tools print beside their result files, written the way their
 * sources print it:
 * - `vllmConsole`: vllm/benchmarks/serve.py — `calculate_metrics` prints "Failed requests during
 *   benchmark run detected (capping to 10):" and `Error {i}: {err.error}` for the first 10 failed
 *   requests; `benchmark` prints the "Serving Benchmark Result" block with `"{:<40} {:<10}"`
 *   (counts) and `"{:<40} {:<10.2f}"` (figures), then `process_one_metric` per selected metric
 *   under a centred `-` rule, and `"=" * 50`.
 * - `sglangConsole`: python/sglang/bench_serving.py `benchmark` — the block of the same name with
 *   the backend, rate, counts, throughputs, E2E/TTFT/TPOT/ITL sections and "Max ITL (ms)".
 */

const line = (label: string, v: number | string) => `${label.padEnd(40)} ${String(v).padEnd(10)}`;
const fig = (label: string, v: number) => line(label, v.toFixed(2));
const rule = (title: string, c: string) => {
  const pad = 50 - title.length;
  return `${c.repeat(Math.floor(pad / 2))}${title}${c.repeat(Math.ceil(pad / 2))}`;
};
const n = (v: unknown) => v as number;

/** The run's duration, token totals and throughputs, as both tools print them after the counts. */
const runTotals = (r: Record<string, unknown>) => [
  fig("Benchmark duration (s):", n(r.duration)),
  line("Total input tokens:", n(r.total_input_tokens)),
  line("Total generated tokens:", n(r.total_output_tokens)),
  fig("Request throughput (req/s):", n(r.request_throughput)),
  fig("Output token throughput (tok/s):", n(r.output_throughput)),
];

/**
 * A latency's section as both tools print it: its centred `-` rule, then its mean, median and
 * (unless `p99` is false) P99 in ms, the result's `mean_<key>_ms` and the rest.
 */
const latencySection = (
  r: Record<string, unknown>,
  key: string,
  name: string,
  header: string,
  p99 = true,
) => [
  rule(header, "-"),
  fig(`Mean ${name} (ms):`, n(r[`mean_${key}_ms`])),
  fig(`Median ${name} (ms):`, n(r[`median_${key}_ms`])),
  ...(p99 ? [fig(`P99 ${name} (ms):`, n(r[`p99_${key}_ms`]))] : []),
];

/** vLLM's printed summary of a `vllmBenchResult`-shaped result, with the errors it printed. */
export function vllmConsole(r: Record<string, unknown>, errors: string[] = []): string {
  const out: string[] = ["Starting initial single prompt test run...", "Starting main benchmark run..."];
  out.push(`Traffic request rate: ${String(r.request_rate)}`);
  out.push(`Maximum request concurrency: ${String(r.max_concurrency)}`);
  if (n(r.completed) === 0)
    out.push(
      "/venv/lib/python3.12/site-packages/vllm/benchmarks/serve.py:886: UserWarning: All requests failed. This is likely due to a misconfiguration on the benchmark arguments.",
    );
  if (errors.length > 0) {
    out.push("Failed requests during benchmark run detected (capping to 10):");
    errors.slice(0, 10).forEach((e, i) => out.push(`Error ${i}: ${e}`));
  }
  out.push(rule(" Serving Benchmark Result ", "="));
  out.push(line("Successful requests:", n(r.completed)));
  out.push(line("Failed requests:", n(r.failed)));
  out.push(line("Maximum request concurrency:", n(r.max_concurrency)));
  out.push(...runTotals(r));
  out.push(fig("Peak output token throughput (tok/s):", n(r.max_output_tokens_per_s)));
  out.push(fig("Peak concurrent requests:", n(r.max_concurrent_requests)));
  out.push(fig("Total token throughput (tok/s):", n(r.total_token_throughput)));
  const metric = (key: string, name: string, header: string) => {
    if (r[`mean_${key}_ms`] !== undefined) out.push(...latencySection(r, key, name, header));
  };
  metric("ttft", "TTFT", "Time to First Token");
  metric("tpot", "TPOT", "Time per Output Token (excl. 1st token)");
  metric("itl", "ITL", "Inter-token Latency");
  metric("e2el", "E2EL", "End-to-end Latency");
  out.push("=".repeat(50));
  return out.join("\n") + "\n";
}

/** SGLang's printed summary of an `sglangLine`-shaped result; `maxItlMs` is printed only. */
export function sglangConsole(r: Record<string, unknown>, maxItlMs: number): string {
  const out: string[] = ["", rule(" Serving Benchmark Result ", "=")];
  out.push(line("Backend:", String(r.backend)));
  out.push(line("Traffic request rate:", r.request_rate === Infinity ? "inf" : String(r.request_rate)));
  out.push(line("Max request concurrency:", r.max_concurrency == null ? "not set" : n(r.max_concurrency)));
  out.push(line("Successful requests:", n(r.completed)));
  out.push(...runTotals(r));
  out.push(...latencySection(r, "e2e_latency", "E2E Latency", "End-to-End Latency", false));
  out.push(...latencySection(r, "ttft", "TTFT", "Time to First Token"));
  out.push(...latencySection(r, "itl", "ITL", "Inter-Token Latency"));
  out.push(fig("Max ITL (ms):", maxItlMs));
  out.push("=".repeat(50));
  return out.join("\n") + "\n";
}
