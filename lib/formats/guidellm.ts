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
  const config = isObject(b.config) ? b.config : isObject(b.args) ? b.args : {};
  const strategy = isObject(config.strategy) ? config.strategy : {};
  const totals = isObject(metrics.request_totals) ? metrics.request_totals : {};
  const successful = num(totals.successful);
  const errored = num(totals.errored);
  const incomplete = num(totals.incomplete);
  const records = readRequests(b);
  const sampled =
    records !== null && successful !== null && records.filter((r) => !r.error).length !== successful;
  if (sampled)
    notes.push(
      `GuideLLM kept a sample of ${records!.filter((r) => !r.error).length} of ${successful} successful requests (sample_size): the statistics here are of the sample`,
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
    },
    {
      model: modelOf(b, reportConfig),
      concurrency: strategyConcurrency(strategy),
      requestRate: num(strategy.rate),
    },
  );
  const kind = str(strategy.type_);
  const label = kind
    ? [kind, num(strategy.streams) ?? num(strategy.rate)].filter((x) => x !== null).join(" ")
    : null;
  const facts = factsOf({
    guidellmStrategy: kind,
    incompleteRequests: incomplete || null,
    guidellmMeanRequestsPerS: dist(metrics, "requests_per_second", "requests/sec")?.avg,
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
    // interpolated, and a sampled request list is not every request: only counts and means of
    // an unsampled list are held to its figures.
    comparable: sampled
      ? []
      : [
          "request_count",
          "error_request_count",
          "time_to_first_token",
          "request_latency",
          "inter_token_latency",
        ],
    comparableStats: ["count", "mean"],
    durationS: num(b.duration) ?? runDuration(b),
    facts,
    notes,
  };
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

function runDuration(b: Record<string, unknown>): number | null {
  const stats = isObject(b.run_stats)
    ? b.run_stats
    : isObject(b.scheduler_metrics)
      ? b.scheduler_metrics
      : {};
  const start = num(stats.start_time);
  const end = num(stats.end_time);
  return start !== null && end !== null && end > start ? end - start : null;
}

/** Successful, errored and incomplete requests with GuideLLM's own per-request figures. */
function readRequests(b: Record<string, unknown>): AiperfRecord[] | null {
  if (!isObject(b.requests)) return null;
  const out: AiperfRecord[] = [];
  for (const status of ["successful", "errored", "incomplete"] as const) {
    const list = b.requests[status];
    if (!Array.isArray(list)) continue;
    for (const r of list) if (isObject(r)) out.push(requestRecord(r, status, out.length));
  }
  return out.length > 0 ? out : null;
}

const sToNs = (s: number | null) => (s === null ? null : BigInt(Math.round(s * 1e9)));

function requestRecord(r: Record<string, unknown>, status: string, i: number): AiperfRecord {
  const start = num(r.request_start_time) ?? num(r.start_time);
  const end = num(r.request_end_time) ?? num(r.end_time);
  const failed = status !== "successful";
  const latency = num(r.request_latency);
  const message =
    str(r.error) ??
    (status === "incomplete" ? "incomplete (cancelled at the end of the benchmark)" : "errored");
  return {
    requestId: str(r.request_id) ?? String(i),
    phase: "profiling",
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
