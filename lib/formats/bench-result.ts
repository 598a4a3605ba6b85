/**
 * What every imported benchmark tool's result becomes (docs/formats.md §Benchmark tools): the
 * requests as aiperf records (so they are stored, charted and compared like aiperf's), and the
 * tool's own run-level figures under aiperf's metric tags in milliseconds, so one agreement check
 * and one run-level fallback serve every producer.
 */
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
  /** Facts worth a line in the run header (burstiness, dataset, …) */
  facts: Record<string, string | number | boolean>;
  /** What the reader had to say about this benchmark (a dropped field, an assumption) */
  notes: string[];
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
    config: {
      model: null,
      endpointType: null,
      endpointUrl: null,
      streaming: null,
      concurrency: null,
      requestRate: null,
      requestCount: null,
      warmup: null,
      configVersion: null,
      syntheticIsl: null,
      syntheticOsl: null,
      ...config,
    },
    errorSummary: [],
    wasCancelled: null,
    telemetryGpus: [],
    warmupMetrics: null,
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
