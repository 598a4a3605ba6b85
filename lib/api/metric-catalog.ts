/**
 * The metric catalog: one line per metric Runlens shows, compares, judges or gates on — its name,
 * short name, unit, group, and which way is better (docs/metrics.md §Metric catalog). Tiles, the
 * compare table, the series page, verdicts and the gate read names, units and directions here and
 * nowhere else; adding a metric is one line. A leaf (the browser bundles it).
 *
 * Which tail is the worst follows from the direction: for a lower-is-better metric (a latency)
 * "p99" is its 99th percentile, the slowest 1 %; for a higher-is-better one (a rate) "p99" reads
 * its worst 1 %, the 1st percentile (`tailOf`). A neutral metric is read as asked.
 */

/** lower: latency, time. higher: throughput, hit rate, capacity, bandwidth. neutral: context only. */
export type Direction = "lower" | "higher" | "neutral";

export interface MetricDef {
  /** The catalog key: also the compare table's row key and the run-level verdict's `compareKey` */
  id: string;
  /** The name a row, a tile or a figure title says ("E2E latency") */
  label: string;
  /** The name where room is short: an axis, a legend, a tile pair ("E2E") */
  short: string;
  /**
   * The name spelled out, where a figure or a table has room for it ("End-to-end latency"): a
   * latency's; any other metric's is its label
   */
  long: string;
  unit: string;
  group: string;
  direction: Direction;
}

type Line = [label: string, short: string, unit: string, group: string, direction: Direction];

const LINES = {
  ttft: ["TTFT", "TTFT", "ms", "Latency", "lower"],
  e2e: ["E2E latency", "E2E", "ms", "Latency", "lower"],
  itl: ["ITL", "ITL", "ms", "Latency", "lower"],
  requestThroughput: ["Request throughput", "Requests/s", "req/s", "Throughput", "higher"],
  outputTokenThroughput: ["Output token throughput", "Output tok/s", "tok/s", "Throughput", "higher"],
  gpuCount: ["GPUs", "GPUs", "GPU", "Per GPU", "neutral"],
  outputTokPerGpu: ["Output tok/s per GPU", "Output tok/s/GPU", "tok/s/GPU", "Per GPU", "higher"],
  totalTokPerGpu: ["Total tok/s per GPU", "Total tok/s/GPU", "tok/s/GPU", "Per GPU", "higher"],
  requestsPerGpu: ["Requests/s per GPU", "Req/s/GPU", "req/s/GPU", "Per GPU", "higher"],
  tokPerUser: ["Tok/s per user", "tok/s/user", "tok/s/user", "Per GPU", "higher"],
  trtllmTtft: ["Server TTFT", "Server TTFT", "ms", "Latency", "lower"],
  trtllmE2e: ["Server E2E", "Server E2E", "ms", "Latency", "lower"],
  trtllmTpot: ["Server TPOT", "Server TPOT", "ms", "Latency", "lower"],
  segment: ["Time-breakdown segment", "Segment", "ms", "Time breakdown", "lower"],
  kvCacheHitRate: ["KV hit rate (perf metrics)", "KV hit rate", "ratio", "Cache", "higher"],
  kvTransferBandwidth: ["KV transfer bandwidth", "KV transfer", "GB/s", "Offload", "higher"],
  cacheHitRate: ["Overall cache hit rate", "Cache hit rate", "ratio", "Cache", "higher"],
  gpuCacheHitRate: ["GPU cache hit rate", "GPU hit rate", "ratio", "Cache", "higher"],
  cpuCacheHitRate: ["CPU/host cache hit rate", "CPU hit rate", "ratio", "Cache", "higher"],
  externalCacheHitRate: ["External cache hit rate", "External hit rate", "ratio", "Cache", "higher"],
  routerPredicted: ["Router predicted hit rate", "Predicted hit rate", "ratio", "Cache", "neutral"],
  routerGap: ["Router gap (delivered − predicted)", "Router gap", "pp", "Cache", "higher"],
  kvCapacity: ["KV capacity", "KV capacity", "tokens", "KV cache", "higher"],
  // Usage is context, not a goal: high usage can mean a busy cache or a starved one.
  kvUsageAvg: ["KV usage (avg)", "KV usage avg", "ratio", "KV cache", "neutral"],
  kvUsageMax: ["KV usage (max)", "KV usage max", "ratio", "KV cache", "neutral"],
  offloadGpuToCpu: ["Offload GPU→CPU", "GPU→CPU", "B/s", "Offload", "higher"],
  offloadCpuToGpu: ["Offload CPU→GPU", "CPU→GPU", "B/s", "Offload", "higher"],
} as const satisfies Record<string, Line>;

export type MetricId = keyof typeof LINES;

/** The per-request latencies spelled out (a server's TTFT is still a time to first token). */
const LONG: Partial<Record<MetricId, string>> = {
  ttft: "Time to first token",
  e2e: "End-to-end latency",
  itl: "Inter-token latency",
  trtllmTtft: "Time to first token",
  trtllmE2e: "End-to-end latency",
  trtllmTpot: "Time per output token",
};

export const METRICS = Object.fromEntries(
  Object.entries(LINES).map(([id, [label, short, unit, group, direction]]) => [
    id,
    { id, label, short, long: LONG[id as MetricId] ?? label, unit, group, direction },
  ]),
) as { [K in MetricId]: MetricDef & { id: K } };

/**
 * The metric of each per-request latency field of a payload or a statistics block (ms): the
 * client's TTFT, E2E and ITL (aiperf's records, an imported tool's), the server's TPOT (perf
 * metrics). A chart, a table or a report names a field through here.
 */
export const LATENCY_FIELDS = {
  ttftMs: METRICS.ttft,
  e2eMs: METRICS.e2e,
  itlMs: METRICS.itl,
  tpotMs: METRICS.trtllmTpot,
} as const;

export type LatencyField = keyof typeof LATENCY_FIELDS;

export const LATENCY_FIELD_IDS = Object.keys(LATENCY_FIELDS) as LatencyField[];

/** A latency field's name spelled out ("Time to first token"), or the field itself when none. */
export function latencyName(field: string): string {
  return Object.hasOwn(LATENCY_FIELDS, field) ? LATENCY_FIELDS[field as LatencyField].long : field;
}

export const METRIC_IDS = Object.keys(LINES) as MetricId[];

/** The catalog entry of `id`, or undefined for a name the catalog does not hold. */
export function metricDef(id: string): MetricDef | undefined {
  return Object.hasOwn(METRICS, id) ? METRICS[id as MetricId] : undefined;
}

/**
 * The percentile a statistic reads for a metric. A tail statistic (pN, N > 50) of a
 * higher-is-better metric is its worst (100−N) %: "p99" reads the p1, "p90" the p10.
 */
export function tailOf(metric: Pick<MetricDef, "direction">, stat: string): string {
  const n = /^p(\d+)$/.exec(stat);
  if (!n || metric.direction !== "higher" || Number(n[1]) <= 50) return stat;
  return `p${100 - Number(n[1])}`;
}

/** How a statistic of a metric is named: "p99" for a latency, "worst 1% (p1)" for a rate's p99. */
export function statLabel(metric: Pick<MetricDef, "direction">, stat: string): string {
  const percentile = tailOf(metric, stat);
  return percentile === stat ? stat : `worst ${percentile.slice(1)}% (${percentile})`;
}

/** "TTFT p99", "Tok/s per user worst 1% (p1)": a metric at a statistic. */
export function metricAtStat(metric: MetricDef, stat: string, { short = false } = {}): string {
  return `${short ? metric.short : metric.label} ${statLabel(metric, stat)}`;
}

/**
 * A metric's value at a statistic from stored statistics, read at the tail `tailOf` names: a
 * higher-is-better metric whose stored statistics have no such low percentile has no value there
 * (missing, never its high tail under the low tail's name).
 */
export function readStat(
  metric: Pick<MetricDef, "direction">,
  stats: Partial<Record<string, number>> | null | undefined,
  stat: string,
): number | null {
  const v = stats?.[tailOf(metric, stat)];
  return typeof v === "number" ? v : null;
}

/** A tile's pair of statistics: "TTFT p50 / p99"; a rate's tail is its worst ("… p50 / worst 1% (p1)"). */
export function pairLabel(metric: MetricDef, a = "p50", b = "p99"): string {
  return `${metric.label} ${statLabel(metric, a)} / ${statLabel(metric, b)}`;
}
