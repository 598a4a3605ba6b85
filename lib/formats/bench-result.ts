/**
 * What every imported benchmark tool's result becomes (docs/formats.md §Benchmark tools): the
 * requests as aiperf records (so they are stored, charted and compared like aiperf's), and the
 * tool's own run-level figures under aiperf's metric tags in milliseconds, so one agreement check
 * and one run-level fallback serve every producer.
 */
import type { ThroughputInputs } from "@/lib/api/derived-throughput";
import type { ExtractedFacts } from "@/lib/api/run-facts";
import { UNKNOWN_RUN_CONFIG } from "./aiperf-input-config";
import type { AiperfRecord } from "./aiperf-records";
import type { AiperfSummary, SummaryMetric } from "./aiperf-summary";

export interface BenchResult {
  /** The producer as users name it: "vLLM bench serve", "SGLang bench_serving", … */
  tool: string;
  toolVersion: string | null;
  /** The benchmark's own name within its file (a label, a rate, a strategy) */
  label: string | null;
  model: string | null;
  /** The serving backend or endpoint kind the tool says it drove (vLLM's `backend`) */
  backend: string | null;
  concurrency: number | null;
  /** Requests per second, or "inf" when every request was sent at once */
  requestRate: number | "inf" | null;
  numPrompts: number | null;
  /** Per-request rows; null when the file holds run-level figures only */
  records: AiperfRecord[] | null;
  /** The tool's own figures, keyed by aiperf tag (time_to_first_token, …), times in ms */
  summary: AiperfSummary;
  /**
   * Tags of `summary` whose definition is the one our per-request statistics compute, so they
   * are checked against them; a tool figure with another definition stays out of the check.
   */
  comparable: string[];
  /** Which statistics of those figures are compared (all when absent) */
  comparableStats?: string[];
  /** The tool's benchmark duration (s), which its throughputs divide by */
  durationS: number | null;
  /**
   * Per-request token lengths of the successful requests when the file lists them without the
   * timing arrays (vLLM's `input_lens`/`output_lens` beside a summary): token statistics only.
   */
  tokenLens?: { input: number[] | null; output: number[] | null } | null;
  /**
   * The successful requests' end-to-end latencies (ms) when the file lists them without the other
   * arrays and writes no E2E statistics (vLLM keeps `latencies` without --save-detailed)
   */
  e2eValuesMs?: number[] | null;
  /** GPUs the engine served with, as the file states them (SGLang's server_info parallelism) */
  gpuCount?: { value: number; source: string } | null;
  /** The serving engine's version, as the file states it (SGLang's server_info.version) */
  engineVersion?: { value: string; source: string } | null;
  /** Facts worth a line in the run header (burstiness, dataset, …) */
  facts: Record<string, string | number | boolean>;
  /** What the reader had to say about this benchmark (a dropped field, an assumption) */
  notes: string[];
  /**
   * The per-request list holds a part of the requests the tool's own figures describe (GuideLLM's
   * `sample_size`, a stripped list): the run's figures are then the tool's, and the rows only
   * draw charts that say they are a sample. Absent when the list is whole.
   */
  partial?: { records: number; described: number };
  /**
   * Warm-up requests the tool's configuration states (genai-perf `warmup_request_count`) when its
   * files hold no warm-up rows; absent when the tool does not say.
   */
  warmupConfigured?: number;
  /** Run facts the file states beyond model and load (GPUs, hardware, ISL/OSL), with their sources */
  runFacts?: ExtractedFacts;
  /**
   * The tool's own tok/s per user (1000 ÷ each request's TPOT) per statistic, when it wrote them
   * with that definition (genai-perf `output_token_throughput_per_user`)
   */
  tokPerUser?: Record<"mean" | "p50" | "p90" | "p99", number | null>;
  /** The derived figures' inputs as the tool states them, when it has no requests block (InferenceX) */
  throughput?: ThroughputInputs;
}

/** One file's benchmarks, in file order; a sweep or appended results hold several. */
export interface BenchFile {
  results: BenchResult[];
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * A benchmark's facts from the tool's values: numbers, strings and booleans are kept, anything
 * else (null for a figure the tool did not compute, nested objects) is left out.
 */
export function factsOf(values: Record<string, unknown>): BenchResult["facts"] {
  const facts: BenchResult["facts"] = {};
  for (const [k, v] of Object.entries(values))
    if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") facts[k] = v;
  return facts;
}

/** A summary block from the named stats that are present (numbers only), or null when none are. */
export function metricBlock(
  unit: string,
  stats: Partial<Record<keyof SummaryMetric, unknown>>,
): SummaryMetric | null {
  const block: SummaryMetric = { unit };
  let any = false;
  for (const [k, v] of Object.entries(stats)) {
    const n = num(v);
    if (n === null || k === "unit") continue;
    (block as Record<string, number | string | undefined>)[k] = n;
    any = true;
  }
  return any ? block : null;
}

/**
 * One latency statistic of a result written by vLLM's serving benchmark, or by SGLang's, which
 * adapted its calculate_metrics: `mean_<name>_ms`, `std_…`, `median_…`, `p90_…`, `p95_…` and
 * `p99_…` as a block in ms, with the figures only one of the tools writes in `extra`. Both write
 * 0.0 for every figure when no request completed (`none`) and for a statistic nobody measured
 * (np.mean of nothing): placeholders, not measurements, so the block is null; the second case adds
 * `label` to `placeholders`, for the note that says so.
 */
export function servingLatencyBlock(
  d: Record<string, unknown>,
  name: string,
  run: { none: boolean; placeholders: string[] },
  label: string,
  extra: Partial<Record<keyof SummaryMetric, unknown>> = {},
): SummaryMetric | null {
  const b = metricBlock("ms", {
    avg: d[`mean_${name}_ms`],
    std: d[`std_${name}_ms`],
    p50: d[`median_${name}_ms`],
    p90: d[`p90_${name}_ms`],
    p95: d[`p95_${name}_ms`],
    p99: d[`p99_${name}_ms`],
    ...extra,
  });
  if (!b || run.none) return null;
  if (Object.values(b).every((v) => typeof v !== "number" || v === 0)) {
    run.placeholders.push(label);
    return null;
  }
  return b;
}

/** An aiperf-shaped summary holding only the tool's figures (no aiperf config, no error summary). */
export function toolSummary(
  metrics: Record<string, SummaryMetric | null>,
  config: Partial<AiperfSummary["config"]>,
): AiperfSummary {
  const kept: Record<string, SummaryMetric> = {};
  for (const [k, v] of Object.entries(metrics)) if (v) kept[k] = v;
  return {
    schemaVersion: null,
    aiperfVersion: null,
    metrics: kept,
    config: { ...UNKNOWN_RUN_CONFIG, ...config },
    errorSummary: [],
    wasCancelled: null,
    telemetryGpus: [],
    warmupMetrics: null,
    runConfig: {},
  };
}

/** A request's record from seconds since an arbitrary clock (perf_counter), as vLLM and SGLang keep it. */
export function recordFromSeconds(r: {
  index: number;
  startS: number | null;
  ttftS: number | null;
  latencyS: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  error: string | null;
}): AiperfRecord {
  const ttftMs = r.ttftS === null ? null : r.ttftS * 1000;
  const e2eMs = r.latencyS === null ? null : r.latencyS * 1000;
  const startNs = r.startS === null ? null : BigInt(Math.round(r.startS * 1e9));
  const endNs =
    startNs === null || r.latencyS === null ? null : startNs + BigInt(Math.round(r.latencyS * 1e9));
  const failed = r.error !== null;
  return {
    requestId: String(r.index),
    phase: "profiling",
    cancelled: false,
    startNs,
    endNs,
    ttftMs: failed ? null : ttftMs,
    e2eMs: failed ? null : e2eMs,
    // The tools' TPOT and aiperf's ITL: (latency − TTFT) / (output tokens − 1), for two tokens or more.
    itlMs:
      failed || ttftMs === null || e2eMs === null || r.outputTokens === null || r.outputTokens < 2
        ? null
        : (e2eMs - ttftMs) / (r.outputTokens - 1),
    inputTokens: r.inputTokens,
    outputTokens: failed ? null : r.outputTokens,
    error: failed ? { type: errorType(r.error!), code: null, message: r.error! } : null,
  };
}

/** The first line of a traceback's last line, or the reason phrase: short enough to group by. */
function errorType(message: string): string {
  const lines = message.trim().split(/\r?\n/);
  const last = lines[lines.length - 1].trim();
  const m = /^([A-Za-z_][\w.]*(?:Error|Exception|Timeout)\w*)\b/.exec(last);
  if (m) return m[1];
  return last.length > 60 ? `${last.slice(0, 57)}…` : last || "Error";
}

/**
 * The plausible range of a tool's value by what its key says it is. A value outside it (1e300,
 * a timestamp from another epoch, a negative count) is no measurement: it is skipped and
 * reported with its place, and the rest of the result stands.
 */
const RANGES: Array<{ test: RegExp; min: number; max: number }> = [
  // Milliseconds: up to about 11.6 days for one request.
  { test: /_ms$/, min: 0, max: 1e9 },
  // Seconds: a benchmark's duration, per-request TTFT, gaps and latencies (about 11.6 days).
  { test: /^(duration|ttfts|itls|latencies|queue_times)$/, min: 0, max: 1e6 },
  // Rates: requests or tokens per second.
  { test: /(throughput|goodput|_per_s|^request_rate)$/, min: 0, max: 1e12 },
  // Counts and token lengths.
  {
    test: /^(completed|failed|num_prompts|max_concurrency|max_concurrent_requests|concurrency|total_\w*tokens\w*|input_lens|output_lens)$/,
    min: 0,
    max: 1e12,
  },
];

function rangeOf(key: string): { min: number; max: number } | null {
  for (const r of RANGES) if (r.test.test(key)) return r;
  return null;
}

const shown = (v: number) =>
  Math.abs(v) >= 1e6 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : String(v);

/**
 * A copy of a result with every out-of-range number replaced by null (top-level figures, the
 * per-request arrays, `itls` lists), and a note naming each place; `start_times` more than a
 * day from the others' median (a clock from another epoch) are skipped too. Null when nothing
 * was out of range.
 */
export function withoutOutOfRange(
  d: Record<string, unknown>,
  tool: string,
): { value: Record<string, unknown>; note: string | null } {
  const places: string[] = [];
  const check = (v: unknown, key: string, place: string): unknown => {
    // Infinity is a value some tools mean (SGLang's unbounded request_rate): readers decide.
    if (typeof v !== "number" || !Number.isFinite(v)) return v;
    const r = rangeOf(key);
    if (r && (v < r.min || v > r.max)) {
      places.push(`${place} = ${shown(v)}`);
      return null;
    }
    return v;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    if (Array.isArray(v) && rangeOf(k))
      out[k] = v.map((x, i) =>
        Array.isArray(x) ? x.map((y, j) => check(y, k, `${k}[${i}][${j}]`)) : check(x, k, `${k}[${i}]`),
      );
    else out[k] = check(v, k, k);
  }
  if (Array.isArray(d.start_times)) {
    const t = d.start_times.filter((x): x is number => typeof x === "number" && Number.isFinite(x));
    const sorted = [...t].sort((a, b) => a - b);
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
    out.start_times = d.start_times.map((x, i) => {
      if (typeof x !== "number" || !Number.isFinite(x)) return x;
      if (Math.abs(x - median) > 86_400) {
        places.push(`start_times[${i}] = ${shown(x)}`);
        return null;
      }
      return x;
    });
  }
  if (places.length === 0) return { value: d, note: null };
  return {
    value: out,
    note: `${places.length} out-of-range value${places.length === 1 ? "" : "s"} in ${tool}'s result skipped (the rest stands): ${places.slice(0, 5).join("; ")}${places.length > 5 ? `; and ${places.length - 5} more` : ""}`,
  };
}
