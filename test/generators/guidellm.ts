/**
 * A GuideLLM `benchmarks.json`, shaped as src/guidellm/benchmark/schemas/report.py
 * (`GenerativeBenchmarksReport`: metadata, config, benchmarks), benchmark.py
 * (`GenerativeBenchmark`: config.strategy, scheduler_metrics, metrics, requests by status,
 * computed `duration`), metrics.py (`GenerativeMetrics`: status-split distributions) and
 * src/guidellm/schemas/request_stats.py (`GenerativeRequestStats` with its computed fields:
 * request_start_time, request_latency in s, time_to_first_token_ms, inter_token_latency_ms =
 * (last − first token) / (output − 1), prompt_tokens, output_tokens). Percentiles follow
 * src/guidellm/schemas/statistics.py `Percentiles.from_pdf`: the first value whose cumulative
 * probability reaches the rank. `legacy` writes the older generation (`args`, `run_stats`,
 * `start_time`, no metadata).
 */
import { prng } from "./prng.mjs";

function distribution(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  const mean = n ? s.reduce((a, b) => a + b, 0) / n : 0;
  const variance = n ? s.reduce((a, b) => a + (b - mean) ** 2, 0) / n : 0;
  const at = (q: number) => (n ? s[Math.min(n - 1, Math.max(0, Math.ceil(q * n - 1e-9) - 1))] : 0);
  const percentiles = Object.fromEntries(
    (
      [
        ["p001", 0.001],
        ["p01", 0.01],
        ["p05", 0.05],
        ["p10", 0.1],
        ["p25", 0.25],
        ["p50", 0.5],
        ["p75", 0.75],
        ["p90", 0.9],
        ["p95", 0.95],
        ["p99", 0.99],
        ["p999", 0.999],
      ] as const
    ).map(([k, q]) => [k, at(q)]),
  );
  return {
    mean,
    median: percentiles.p50,
    mode: s[0] ?? 0,
    variance,
    std_dev: Math.sqrt(variance),
    min: s[0] ?? 0,
    max: s[n - 1] ?? 0,
    count: n,
    total_sum: s.reduce((a, b) => a + b, 0),
    percentiles,
    pdf: null,
  };
}

const byStatus = (ok: number[], err: number[]) => ({
  successful: distribution(ok),
  errored: distribution(err),
  incomplete: distribution([]),
  total: distribution([...ok, ...err]),
});

export function guidellmBenchmark(
  o: {
    streams?: number;
    requests?: number;
    errorEvery?: number;
    seed?: number;
    sampleOf?: number;
    legacy?: boolean;
    /**
     * A constant-rate benchmark (src/guidellm/scheduler/strategies.py `AsyncConstantStrategy`:
     * `type_: "constant"`, `rate`, `startup_duration`): request i is sent at i / rate.
     */
    rate?: number;
  } = {},
) {
  const rand = prng(o.seed ?? 21);
  const n = o.requests ?? 30;
  const streams = o.streams ?? 2;
  const t0 = 1_764_590_000.25;
  const free = Array.from({ length: streams }, () => t0);
  const ok: Array<Record<string, unknown>> = [];
  const errored: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) {
    const w = i % streams;
    const start = o.rate ? t0 + i / o.rate : free[w];
    const prompt = 256;
    if (o.errorEvery && (i + 1) % o.errorEvery === 0) {
      const end = start + 0.05;
      errored.push(
        requestStats(
          i,
          start,
          end,
          null,
          null,
          prompt,
          null,
          "HTTPStatusError: 500 Internal Server Error",
          o.legacy,
        ),
      );
      free[w] = Math.max(free[w], end);
      continue;
    }
    const first = start + 0.03 + rand() * 0.06;
    const out = 16 + Math.floor(rand() * 48);
    const last = first + (out - 1) * (0.009 + rand() * 0.004);
    const end = last + 0.002;
    ok.push(requestStats(i, start, end, first, last, prompt, out, null, o.legacy));
    free[w] = Math.max(free[w], end);
  }
  const get = (list: Array<Record<string, unknown>>, k: string) =>
    list.map((r) => r[k] as number).filter((v) => v !== null);
  const metrics = {
    request_totals: { successful: ok.length, errored: errored.length, incomplete: 0, total: n },
    request_latency: byStatus(get(ok, "request_latency"), get(errored, "request_latency")),
    time_to_first_token_ms: byStatus(get(ok, "time_to_first_token_ms"), []),
    inter_token_latency_ms: byStatus(get(ok, "inter_token_latency_ms"), []),
    prompt_token_count: byStatus(get(ok, "prompt_tokens"), get(errored, "prompt_tokens")),
    output_token_count: byStatus(get(ok, "output_tokens"), []),
    requests_per_second: byStatus([streams * 4.1], []),
  };
  const end = Math.max(...free);
  const kept = o.sampleOf ? ok.slice(0, o.sampleOf) : ok;
  const strategy = o.rate
    ? { type_: "constant", rate: o.rate, startup_duration: 0 }
    : { type_: "concurrent", streams };
  const common = {
    type_: "generative_benchmark",
    metrics,
    requests: { successful: kept, errored, incomplete: [], total: null },
  };
  if (o.legacy)
    return {
      ...common,
      args: { strategy, profile: { type_: "concurrent", streams: [streams] } },
      run_stats: { start_time: t0, end_time: end, requests_made: metrics.request_totals },
      worker: {
        type_: "generative_requests_worker",
        backend_type: "openai_http",
        backend_model: "Qwen/Qwen3-8B",
      },
    };
  return {
    ...common,
    config: {
      id_: o.rate ? `b-rate-${o.rate}` : `b-${streams}`,
      run_id: "r",
      run_index: 0,
      strategy,
      sample_size: o.sampleOf ?? null,
      backend: { type_: "openai_http", model: "Qwen/Qwen3-8B" },
    },
    scheduler_metrics: { start_time: t0, end_time: end, measure_start_time: t0, measure_end_time: end },
    start_time: t0,
    end_time: end,
    duration: end - t0,
  };
}

function requestStats(
  i: number,
  start: number,
  end: number,
  first: number | null,
  last: number | null,
  prompt: number,
  out: number | null,
  error: string | null,
  legacy?: boolean,
) {
  const latency = end - start;
  const itl =
    first !== null && last !== null && out !== null && out > 1 ? (1000 * (last - first)) / (out - 1) : null;
  const computed = {
    request_latency: latency,
    prompt_tokens: prompt,
    output_tokens: out,
    time_to_first_token_ms: first === null ? null : 1000 * (first - start),
    inter_token_latency_ms: itl,
    time_per_output_token_ms: out ? (1000 * ((last ?? end) - start)) / out : null,
  };
  if (legacy)
    return {
      type_: "generative_text_response",
      request_id: `req-${i}`,
      start_time: start,
      end_time: end,
      first_token_time: first,
      last_token_time: last,
      ...computed,
      ...(error ? { error } : {}),
    };
  return {
    type_: "generative_request_stats",
    request_id: `req-${i}`,
    info: { timings: { request_start: start, request_end: end, resolve_end: end } },
    input_metrics: { total_tokens: prompt },
    output_metrics: { total_tokens: out },
    request_start_time: start,
    request_end_time: end,
    ...computed,
    ...(error ? { error } : {}),
  };
}

export function guidellmReport(streams: number[], o: Parameters<typeof guidellmBenchmark>[0] = {}) {
  return {
    metadata: { version: 2, guidellm_version: "0.5.1", python_version: "3.12.3", platform: "Linux" },
    config: { kind: "generative", profile: { type_: "concurrent", streams } },
    benchmarks: streams.map((s, i) => guidellmBenchmark({ ...o, streams: s, seed: (o.seed ?? 21) + i })),
  };
}

/** A rate sweep (`--profile constant --rate a,b,…`): one constant-rate benchmark per rate. */
export function guidellmRateReport(rates: number[], o: Parameters<typeof guidellmBenchmark>[0] = {}) {
  return {
    metadata: { version: 2, guidellm_version: "0.5.1", python_version: "3.12.3", platform: "Linux" },
    config: { kind: "generative", profile: { type_: "constant", rates } },
    benchmarks: rates.map((rate, i) => guidellmBenchmark({ ...o, rate, seed: (o.seed ?? 21) + i })),
  };
}
