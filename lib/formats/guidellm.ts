/**
 * GuideLLM benchmark reports, `benchmarks.json` (docs/formats.md §GuideLLM): `benchmarks[]` of
 * `generative_benchmark`, each with `metrics` (status-split distributions: `successful`,
 * `errored`, `incomplete`, `total`, each with mean, median, min, max, count and percentiles
 * p001…p999) and `requests` (per-request stats by status, reservoir-sampled when
 * `sample_size` is set). Two generations: report schema 2 (`metadata.version`, `config`,
 * `scheduler_metrics`, `request_start_time`) and the older one (`args`, `run_stats`,
 * `start_time`). Request latency is in seconds, the `_ms` metrics in ms. `benchmarks.yaml` holds
 * the same report in YAML.
 */
import { parseDocument } from "yaml";
import type { AiperfRecord } from "./aiperf-records";
import { guidellmRunConfig } from "./run-config";
import { factsOf, isObject, metricBlock, num, str, toolSummary, type BenchResult } from "./bench-result";

const TOOL = "GuideLLM";

export function isGuidellmReport(v: unknown): v is Record<string, unknown> {
  if (!isObject(v) || !Array.isArray(v.benchmarks)) return false;
  const first = v.benchmarks.find(isObject);
  return first !== undefined && (first.type_ === "generative_benchmark" || isObject(first.metrics));
}

export function sniffGuidellmReport(text: string): boolean {
  return /"benchmarks"\s*:/.test(text) && /"type_"\s*:\s*"generative_benchmark"/.test(text);
}

/**
 * `benchmarks.yaml`: the same report through PyYAML's `yaml.dump(model_dict)` (report.py
 * `save_file`): block style, keys sorted. A value PyYAML tags as a Python object (an enum) is
 * read as the plain value under its tag. Null when the text is not YAML or not a report.
 */
export function parseGuidellmYaml(text: string): Record<string, unknown> | null {
  try {
    const doc = parseDocument(text, { logLevel: "silent" });
    if (doc.errors.length > 0) return null;
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    return isGuidellmReport(value) ? value : null;
  } catch {
    return null;
  }
}

export function guidellmResults(doc: Record<string, unknown>): BenchResult[] {
  const meta = isObject(doc.metadata) ? doc.metadata : {};
  const version = str(meta.guidellm_version);
  const reportConfig = isObject(doc.config) ? doc.config : {};
  return (doc.benchmarks as unknown[]).filter(isObject).map((b) => readBenchmark(b, version, reportConfig));
}

/** One status of a distribution (`successful` unless said), as an aiperf-shaped block. */
function dist(metrics: Record<string, unknown>, key: string, unit: string, scale = 1, status = "successful") {
  const m = metrics[key];
  const d = isObject(m) && isObject(m[status]) ? m[status] : null;
  if (!d || num(d.count) === 0) return null;
  const p = isObject(d.percentiles) ? d.percentiles : {};
  const s = (v: unknown) => (num(v) === null ? undefined : num(v)! * scale);
  return metricBlock(unit, {
    avg: s(d.mean),
    min: s(d.min),
    max: s(d.max),
    p50: s(d.median ?? p.p50),
    p75: s(p.p75),
    p90: s(p.p90),
    p95: s(p.p95),
    p99: s(p.p99),
    std: s(d.std_dev),
    count: d.count,
  });
}

function readBenchmark(
  b: Record<string, unknown>,
  version: string | null,
  reportConfig: Record<string, unknown>,
): BenchResult {
  const notes: string[] = [];
  const metrics = isObject(b.metrics) ? b.metrics : {};
  const config = firstObject(b.config, b.args);
  const strategy = isObject(config.strategy) ? config.strategy : {};
  // Report schema 2 keeps the totals in `metrics`, the older generation beside them.
  const totals = firstObject(metrics.request_totals, b.request_totals);
  const successful = num(totals.successful);
  const errored = num(totals.errored);
  const incomplete = num(totals.incomplete);
  const window = measureWindow(b);
  const records = readRequests(b, window);
  const outside = records?.filter((r) => r.phase === "warmup").length ?? 0;
  if (outside > 0)
    notes.push(
      `${outside} listed request${outside === 1 ? " lies" : "s lie"} outside GuideLLM's measurement window (warm-up or cool-down: ending before it starts or starting after it ends): left out of every statistic, as GuideLLM leaves them out of its metrics`,
    );
  const kept = records?.filter((r) => !r.error && r.phase === "profiling").length ?? 0;
  const partial = records !== null && successful !== null && kept !== successful;
  if (partial)
    notes.push(
      kept < successful!
        ? `GuideLLM's request list is a sample of ${kept} of the ${successful} successful requests its metrics count (sample_size, or a stripped list): the run's figures are GuideLLM's own, and charts drawn from the list are of that sample`
        : `GuideLLM's request list holds ${kept} successful requests in its measurement window where its metrics count ${successful}: the run's figures are GuideLLM's own, and the charts drawn from the list are not the run's`,
    );
  const summary = toolSummary(
    {
      request_count: successful === null ? null : metricBlock("requests", { avg: successful }),
      error_request_count:
        errored === null ? null : metricBlock("requests", { avg: errored + (incomplete ?? 0) }),
      time_to_first_token: dist(metrics, "time_to_first_token_ms", "ms"),
      inter_token_latency: dist(metrics, "inter_token_latency_ms", "ms"),
      request_latency: dist(metrics, "request_latency", "ms", 1000),
      input_sequence_length: dist(metrics, "prompt_token_count", "tokens"),
      output_sequence_length: dist(metrics, "output_token_count", "tokens"),
      // GuideLLM's "Per Second" and "Out Tok/sec" columns: means of its rate distributions over
      // the measurement window (src/guidellm/schemas/statistics.py rate_distribution_from_timings).
      request_throughput: rate(metrics, "requests_per_second", "requests/sec"),
      output_token_throughput: rate(metrics, "output_tokens_per_second", "tokens/sec"),
      total_token_throughput: rate(metrics, "tokens_per_second", "tokens/sec"),
      total_isl: total(metrics, "prompt_token_count"),
      total_osl: total(metrics, "output_token_count"),
    },
    {
      model: modelOf(b, reportConfig),
      concurrency: strategyConcurrency(strategy),
      requestRate: num(strategy.rate),
    },
  );
  if (partial && summary.metrics.inter_token_latency)
    notes.push(
      "inter-token latency is GuideLLM's: each request weighted by its output tokens − 1 (metrics.py inter_token_latency_ms)",
    );
  const kind = str(strategy.type_);
  const label = kind
    ? [kind, num(strategy.streams) ?? num(strategy.rate)].filter((x) => x !== null).join(" ")
    : null;
  const facts = factsOf({
    guidellmStrategy: kind,
    incompleteRequests: incomplete || null,
    guidellmMeanRequestsPerS: summary.metrics.request_throughput?.avg,
    guidellmTotalTokensPerS: summary.metrics.total_token_throughput?.avg,
    // Token-weighted (each request by its output tokens − 1), unlike a mean over requests.
    guidellmItlMeanMsTokenWeighted: summary.metrics.inter_token_latency?.avg,
    // GuideLLM's TPOT ((last token − start) / output tokens, weighted by output tokens) and the
    // mean concurrency it measured over its window: its own columns, under its own names.
    guidellmTpotMeanMs: dist(metrics, "time_per_output_token_ms", "ms")?.avg,
    guidellmTpotP99Ms: dist(metrics, "time_per_output_token_ms", "ms")?.p99,
    guidellmMeanConcurrency: rate(metrics, "request_concurrency", "requests")?.avg,
    ...guidellmRunConfig(b),
  });
  return {
    tool: TOOL,
    toolVersion: version,
    label,
    model: summary.config.model,
    backend:
      str(isObject(config.backend) ? config.backend.type_ : null) ??
      str(isObject(b.worker) ? b.worker.backend_type : null),
    concurrency: summary.config.concurrency,
    requestRate: summary.config.requestRate,
    numPrompts: successful === null ? null : successful + (errored ?? 0) + (incomplete ?? 0),
    records,
    summary,
    // GuideLLM's percentiles are read off its own CDF (the value at or above each rank), not
    // interpolated, and its ITL mean weights each request by its output tokens − 1; a partial
    // request list is not every request: only counts and means of a whole list are held to its
    // figures, ITL not among them.
    comparable: partial
      ? []
      : ["request_count", "error_request_count", "time_to_first_token", "request_latency"],
    comparableStats: ["count", "mean"],
    durationS: num(b.duration) ?? runDuration(b),
    facts,
    notes,
    ...(partial ? { partial: { records: kept, described: successful! } } : {}),
    ...warmupOf(config),
  };
}

/**
 * The warm-up GuideLLM was told to run, when its config says: none at all (neither a count nor a
 * duration: older `args.warmup_number` / `warmup_duration`, report schema 2 `config.warmup`
 * percent / value), or the older count, whose requests it left out of its lists. A warm-up bounded
 * by time alone has no count here.
 */
function warmupOf(config: Record<string, unknown>): { warmupConfigured?: number } {
  if ("warmup_number" in config || "warmup_duration" in config) {
    const n = num(config.warmup_number);
    if (n !== null) return { warmupConfigured: n };
    return config.warmup_duration === null || config.warmup_duration === undefined
      ? { warmupConfigured: 0 }
      : {};
  }
  const w = config.warmup;
  if (w === null || (isObject(w) && num(w.percent) === null && num(w.value) === null))
    return { warmupConfigured: 0 };
  return {};
}

/** Σ of a distribution's successful values (`total_sum`): GuideLLM's "Tok Total" columns. */
function total(metrics: Record<string, unknown>, key: string) {
  const m = metrics[key];
  const d = isObject(m) && isObject(m.successful) ? m.successful : null;
  return d && num(d.count) ? metricBlock("tokens", { avg: d.total_sum }) : null;
}

/** A rate distribution's mean over successful requests; GuideLLM writes one with count 0 as 0. */
function rate(metrics: Record<string, unknown>, key: string, unit: string) {
  const m = metrics[key];
  const d = isObject(m) && isObject(m.successful) ? m.successful : null;
  return d && num(d.count) ? metricBlock(unit, { avg: d.mean }) : null;
}

/**
 * GuideLLM's measurement window (report schema 2: `scheduler_metrics.measure_start_time` /
 * `measure_end_time`, which the benchmark's `start_time` / `end_time` repeat). Its metrics count
 * only the requests overlapping it (accumulator.py `get_within_range`); the request list holds
 * every request, warm-up and cool-down included. The older generation dropped warm-up and
 * cool-down requests from both (aggregator.py), and its `start_time` / `end_time` span its
 * requests, so the same rule keeps them all.
 */
function measureWindow(b: Record<string, unknown>): { start: number; end: number } | null {
  const sm = isObject(b.scheduler_metrics) ? b.scheduler_metrics : {};
  const start = num(sm.measure_start_time) ?? num(b.start_time);
  const end = num(sm.measure_end_time) ?? num(b.end_time);
  return start !== null && end !== null && end >= start ? { start, end } : null;
}

/** accumulator.py `get_within_range`: ends at or after the start, starts at or before the end. */
function inWindow(
  start: number | null,
  end: number | null,
  w: { start: number; end: number } | null,
): boolean {
  if (w === null || end === null) return true;
  if (end < w.start) return false;
  return start !== null ? start <= w.end : end <= w.end;
}

/**
 * The concurrency a strategy holds (src/guidellm/scheduler/strategies.py): `concurrent` its
 * streams, `synchronous` one request at a time, `throughput` and the rate strategies their
 * `max_concurrency` cap when set. A sweep profile's synchronous benchmark is so its first point.
 */
function strategyConcurrency(strategy: Record<string, unknown>): number | null {
  if (strategy.type_ === "synchronous") return 1;
  return num(strategy.streams) ?? num(strategy.max_concurrency);
}

function modelOf(b: Record<string, unknown>, reportConfig: Record<string, unknown>): string | null {
  const config = isObject(b.config) ? b.config : {};
  for (const holder of [config.backend, config.requests, reportConfig.backend, reportConfig])
    if (isObject(holder) && str(holder.model)) return str(holder.model);
  return isObject(b.worker) ? str(b.worker.backend_model) : null;
}

/** The first of `candidates` that is an object (the place a field moved to between report schemas), else {}. */
function firstObject(...candidates: unknown[]): Record<string, unknown> {
  return (candidates.find(isObject) as Record<string, unknown> | undefined) ?? {};
}

function runDuration(b: Record<string, unknown>): number | null {
  const stats = firstObject(b.run_stats, b.scheduler_metrics);
  const start = num(stats.start_time);
  const end = num(stats.end_time);
  return start !== null && end !== null && end > start ? end - start : null;
}

/**
 * Successful, errored and incomplete requests with GuideLLM's own per-request figures; those
 * outside the measurement window are kept as not measured (phase "warmup").
 */
function readRequests(
  b: Record<string, unknown>,
  window: { start: number; end: number } | null,
): AiperfRecord[] | null {
  if (!isObject(b.requests)) return null;
  const out: AiperfRecord[] = [];
  for (const status of ["successful", "errored", "incomplete"] as const) {
    const list = b.requests[status];
    if (!Array.isArray(list)) continue;
    for (const r of list) if (isObject(r)) out.push(requestRecord(r, status, out.length, window));
  }
  return out.length > 0 ? out : null;
}

const sToNs = (s: number | null) => (s === null ? null : BigInt(Math.round(s * 1e9)));

function requestRecord(
  r: Record<string, unknown>,
  status: string,
  i: number,
  window: { start: number; end: number } | null,
): AiperfRecord {
  const start = num(r.request_start_time) ?? num(r.start_time);
  const end = num(r.request_end_time) ?? num(r.end_time);
  const failed = status !== "successful";
  const latency = num(r.request_latency);
  const message =
    str(r.error) ??
    (status === "incomplete" ? "incomplete (cancelled at the end of the benchmark)" : "errored");
  return {
    requestId: str(r.request_id) ?? String(i),
    phase: inWindow(start, end, window) ? "profiling" : "warmup",
    cancelled: status === "incomplete",
    startNs: sToNs(start),
    endNs: sToNs(end),
    ttftMs: failed ? null : num(r.time_to_first_token_ms),
    e2eMs: failed || latency === null ? null : latency * 1000,
    itlMs: failed ? null : num(r.inter_token_latency_ms),
    inputTokens: num(r.prompt_tokens),
    outputTokens: failed ? null : num(r.output_tokens),
    error: failed
      ? { type: status === "incomplete" ? "Incomplete" : errorType(message), code: null, message }
      : null,
  };
}

function errorType(message: string): string {
  const first = message.split(/[:\n]/)[0].trim();
  return first.length > 0 && first.length <= 60 ? first : "Error";
}
