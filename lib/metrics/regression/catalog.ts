/**
 * The metrics a regression verdict is given for, their names in thresholds and gates
 * (`ttft.p99`, `throughput`), and the default thresholds (docs/metrics.md §Regressions).
 */
import type { CompareStat } from "@/lib/api/compare-schemas";
import { METRICS, statLabel, type MetricId } from "@/lib/api/metric-catalog";
import type { LatencyStat } from "./bootstrap";

/** Per-request latency columns: client (aiperf records) and server (TensorRT-LLM perf metrics). */
export type RequestField = "ttft" | "itl" | "e2e" | "server_ttft" | "server_e2e";

export const REQUEST_FIELDS: readonly RequestField[] = ["ttft", "itl", "e2e", "server_ttft", "server_e2e"];

export interface VerdictMetric {
  /** The name in thresholds and gate rules: `ttft.p99`, `throughput` */
  id: string;
  /** The catalog's name, with the statistic for a latency ("TTFT p99") */
  label: string;
  unit: string;
  direction: "lower" | "higher";
  /** `requests`: bootstrap over the per-request values; `run`: the series' run-to-run spread */
  kind: "requests" | "run";
  field?: RequestField;
  stat?: LatencyStat;
  /** The metric in the catalog (lib/api/metric-catalog.ts), also the compare table's row key */
  compareKey: MetricId;
  /** Smallest relative change that counts as a regression or an improvement */
  threshold: number;
}

export const VERDICT_STATS: readonly LatencyStat[] = ["mean", "p50", "p90", "p99"];

/** Each per-request column and the catalog metric it measures. */
const LATENCY: Array<[RequestField, MetricId]> = [
  ["ttft", "ttft"],
  ["itl", "itl"],
  ["e2e", "e2e"],
  ["server_ttft", "trtllmTtft"],
  ["server_e2e", "trtllmE2e"],
];

/** Latency is judged at 5%: below that a change rarely matters to a service level. */
export const LATENCY_THRESHOLD = 0.05;

/** A judged metric's direction: the catalog's, which for a judged metric is never neutral. */
function judged(id: MetricId): { label: string; unit: string; direction: "lower" | "higher" } {
  const m = METRICS[id];
  if (m.direction === "neutral") throw new Error(`${id} has no better direction to judge`);
  return { label: m.label, unit: m.unit, direction: m.direction };
}

function latencyMetric(field: RequestField, metric: MetricId, stat: LatencyStat): VerdictMetric {
  const m = judged(metric);
  return {
    id: `${field}.${stat}`,
    ...m,
    label: `${m.label} ${statLabel(m, stat)}`,
    kind: "requests",
    field,
    stat,
    compareKey: metric,
    threshold: LATENCY_THRESHOLD,
  };
}

const RUN_LEVEL: VerdictMetric[] = [
  run("throughput", "outputTokenThroughput", 0.03),
  run("request_throughput", "requestThroughput", 0.03),
  run("cache_hit_rate", "cacheHitRate", 0.02),
  run("gpu_cache_hit_rate", "gpuCacheHitRate", 0.02),
  run("kv_hit_rate", "kvCacheHitRate", 0.02),
];

function run(id: string, metric: MetricId, threshold: number): VerdictMetric {
  return { id, ...judged(metric), kind: "run", compareKey: metric, threshold };
}

/** Every metric at every statistic a verdict can be asked for. */
export const ALL_VERDICT_METRICS: VerdictMetric[] = [
  ...LATENCY.flatMap(([field, metric]) =>
    (["mean", "p50", "p75", "p90", "p99"] as const).map((s) => latencyMetric(field, metric, s)),
  ),
  ...RUN_LEVEL,
];

const BY_ID = new Map(ALL_VERDICT_METRICS.map((m) => [m.id, m]));

export function verdictMetric(id: string): VerdictMetric | undefined {
  return BY_ID.get(id);
}

/** The metrics judged by default: latency at mean, p50, p90, p99, and every run-level figure. */
export function defaultVerdictMetrics(): VerdictMetric[] {
  return ALL_VERDICT_METRICS.filter((m) => m.kind === "run" || VERDICT_STATS.includes(m.stat!));
}

/** The verdict metric behind a compare row at the chosen statistic, if it has one. */
export function metricForCompareRow(compareKey: string, stat: CompareStat): VerdictMetric | undefined {
  return ALL_VERDICT_METRICS.find(
    (m) => m.compareKey === compareKey && (m.kind === "run" || m.stat === stat),
  );
}

/** A figure the series page draws: a verdict metric, or context it never judges. */
export interface SeriesMetric {
  id: string;
  label: string;
  unit: string;
  compareKey: MetricId;
}

/** Drawn beside the judged metrics, never judged: KV usage is context, high can mean busy or starved. */
export const KV_USAGE_PEAK: SeriesMetric = {
  id: "kv_usage_peak",
  label: METRICS.kvUsageMax.label,
  unit: METRICS.kvUsageMax.unit,
  compareKey: "kvUsageMax",
};

/** A series figure by its id (`ttft.p99`, `throughput`, `kv_usage_peak`), named and united by the catalog. */
export function seriesMetric(id: string): SeriesMetric | undefined {
  return id === KV_USAGE_PEAK.id ? KV_USAGE_PEAK : verdictMetric(id);
}

export type Thresholds = Record<string, number>;

/** A percentage: "5%", "5", "-3%", "2.5%"; returns the fraction. */
function percent(text: string): number | null {
  const m = /^\s*([+-]?\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  return m ? Number(m[1]) / 100 : null;
}

/**
 * Thresholds from `ttft.p99:5%,throughput:3%` (the URL's `thresholds` parameter or a request's
 * field). Throws with the offending part on anything else.
 */
export function parseThresholds(text: string): Thresholds {
  const out: Thresholds = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [id, value] = part.split(":");
    if (!verdictMetric(id?.trim() ?? "")) throw new Error(`unknown metric "${id}" in thresholds`);
    const v = percent(value ?? "");
    if (v === null || v < 0) throw new Error(`threshold "${part}" is not a percentage like 5%`);
    out[id.trim()] = v;
  }
  return out;
}

export interface FailRule {
  metric: string;
  /** ">" fails on a rise past limit, "<" on a fall past it (limit is signed) */
  op: ">" | "<";
  limit: number;
  text: string;
}

/**
 * Gate rules from `ttft.p99>5%,throughput<-3%`: a regression verdict whose change passes the limit
 * fails the gate. The rule must point the way the metric gets worse.
 */
export function parseFailOn(text: string): FailRule[] {
  return text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^([a-z][a-z0-9_]*(?:\.[a-z0-9]+)?)\s*([<>])\s*(.+)$/.exec(part);
      if (!m) throw new Error(`rule "${part}" is not like ttft.p99>5% or throughput<-3%`);
      const metric = verdictMetric(m[1]);
      if (!metric) throw new Error(`unknown metric "${m[1]}" in rule "${part}"`);
      const limit = percent(m[3]);
      if (limit === null) throw new Error(`rule "${part}": "${m[3]}" is not a percentage`);
      const op = m[2] as ">" | "<";
      if ((metric.direction === "lower") !== (op === ">"))
        throw new Error(
          `rule "${part}": ${metric.id} gets worse as it ${metric.direction === "lower" ? "rises (use >)" : "falls (use <)"}`,
        );
      return { metric: metric.id, op, limit, text: part };
    });
}
