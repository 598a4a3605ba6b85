/**
 * Run-against-baseline deltas for the compare page. Pure: takes run summaries, returns rows.
 * Every metric carries its direction so "better" and "worse" are never guessed from the sign.
 */
import type { CompareStat } from "@/lib/api/compare-schemas";
import type { RunSummary, Stats } from "@/lib/api/schemas";
import { METRICS, readStat, statLabel, type Direction, type MetricId } from "@/lib/api/metric-catalog";
import { itlWordsOf } from "./request-words";
import { segmentWords } from "./segment-words";

export type { Direction };
export type Verdict = "better" | "worse" | "same" | "neutral" | "missing";

export interface MetricValue {
  key: string;
  /** What the row says: the metric's name, and the statistic for a distribution ("TTFT p95") */
  label: string;
  /** The metric's name alone, for the line that lists metrics no run has */
  name: string;
  /** The full definition behind a short label (a segment's sentence), shown on hover */
  description?: string;
  group: string;
  unit: string;
  direction: Direction;
  value: number | null;
}

export interface Delta {
  /** run − baseline */
  absolute: number | null;
  /** (run − baseline) / |baseline|; null when the baseline is 0 or missing */
  percent: number | null;
  verdict: Verdict;
}

/**
 * Relative change below which two values count as the same: float noise from different
 * aggregation orders must not paint a cell green or red.
 */
export const SAME_TOLERANCE = 1e-9;

export function computeDelta(baseline: number | null, value: number | null, direction: Direction): Delta {
  if (baseline === null || value === null || !Number.isFinite(baseline) || !Number.isFinite(value))
    return { absolute: null, percent: null, verdict: "missing" };
  const absolute = value - baseline;
  // Percent against |baseline| so a negative baseline does not flip the sign of the change.
  const percent = baseline === 0 ? null : absolute / Math.abs(baseline);
  const scale = Math.max(Math.abs(baseline), Math.abs(value));
  if (Math.abs(absolute) <= SAME_TOLERANCE * scale)
    return { absolute: 0, percent: baseline === 0 ? null : 0, verdict: "same" };
  if (direction === "neutral") return { absolute, percent, verdict: "neutral" };
  const improved = direction === "lower" ? absolute < 0 : absolute > 0;
  return { absolute, percent, verdict: improved ? "better" : "worse" };
}

/** A segment's statistics under the statistic names (a segment stored before p75 or p95 has none). */
function segmentStats(seg: {
  meanMs: number | null;
  p50Ms: number | null;
  p75Ms?: number | null;
  p90Ms: number | null;
  p95Ms?: number | null;
  p99Ms: number | null;
}): Partial<Record<CompareStat, number>> {
  const all = {
    mean: seg.meanMs,
    p50: seg.p50Ms,
    p75: seg.p75Ms,
    p90: seg.p90Ms,
    p95: seg.p95Ms,
    p99: seg.p99Ms,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => typeof v === "number"));
}

/** Every comparable number of one run at the chosen statistic, in display order. */
export function runMetrics(run: RunSummary, stat: CompareStat): MetricValue[] {
  const out: MetricValue[] = [];
  // Name, group, unit and direction are the metric catalog's (lib/api/metric-catalog.ts). A
  // distribution (`stats`) is read at the statistic, at the worst tail for a higher-is-better
  // metric (its "p99" is the p1), and its label says which.
  const add = (
    id: MetricId,
    value: number | null | undefined,
    {
      stats,
      key = id,
      name = METRICS[id].label,
      description,
    }: {
      stats?: Partial<Record<string, number>> | null;
      key?: string;
      name?: string;
      description?: string;
    } = {},
  ) => {
    const m = METRICS[id];
    out.push({
      key,
      label: stats === undefined ? name : `${name} ${statLabel(m, stat)}`,
      name,
      ...(description === undefined ? {} : { description }),
      group: m.group,
      unit: m.unit,
      direction: m.direction,
      value: stats === undefined ? (value ?? null) : readStat(m, stats, stat),
    });
  };
  const dist = (stats: Stats | null | undefined) => ({ stats: stats ?? null });
  const r = run.requests;
  add("ttft", null, dist(r?.ttftMs));
  add("e2e", null, dist(r?.e2eMs));
  const itl = itlWordsOf([run]);
  add("itl", null, { ...dist(r?.itlMs), name: itl.short, description: itl.description });
  add("requestThroughput", r?.requestThroughputPerS);
  add("outputTokenThroughput", r?.outputTokenThroughputPerS);
  // docs/metrics.md §Derived throughput: null (no row value) where the GPU count is unknown.
  const d = run.derived;
  if (d) {
    add("gpuCount", d.gpuCount);
    add("outputTokPerGpu", d.outputTokPerSPerGpu.value);
    add("totalTokPerGpu", d.totalTokPerSPerGpu.value);
    add("requestsPerGpu", d.requestsPerSPerGpu.value);
    // Derived per-user figures exist at mean, p50, p90 and p99 only (docs/metrics.md §Derived
    // throughput); their "p99" is already the worst 1% (1000 ÷ TPOT p99), named so by the catalog.
    const perUser = stat === "p75" || stat === "p95" ? null : d.tokPerUser[stat].value;
    add("tokPerUser", perUser, {
      name: `${METRICS.tokPerUser.label} ${statLabel(METRICS.tokPerUser, stat)}`,
    });
  }
  const tb = run.timeBreakdown;
  // Server stamps (TensorRT-LLM perf metrics): their own rows, never mixed with a client's TTFT.
  add("trtllmTtft", null, dist(tb?.latency?.ttftMs));
  add("trtllmE2e", null, dist(tb?.latency?.e2eMs));
  add("trtllmTpot", null, dist(tb?.latency?.tpotMs));
  // A segment row is named in the words the Breakdown view's table names it ("context queue" for
  // ctx_queue, lib/metrics/segment-words.ts); its upstream name and sentence are the hover text,
  // since sentences wrapped the table's first column to two lines per row.
  for (const seg of tb?.segments ?? [])
    add("segment", null, {
      stats: segmentStats(seg),
      key: `segment:${seg.name}`,
      name: segmentWords(seg.name),
      description: `${seg.name}: ${seg.label}`,
    });
  add("kvCacheHitRate", tb?.kvCacheHitRate);
  add("kvTransferBandwidth", null, dist(tb?.kvTransfer?.bandwidthGBps));
  const sm = run.serverMetrics;
  // One definition per label (docs/metrics.md §Cache hit rate): tiers over all prompt tokens, overall their sum.
  add("cacheHitRate", sm?.cache.overallHitRate);
  add("gpuCacheHitRate", sm?.cache.gpuHitRate);
  add("cpuCacheHitRate", sm?.cache.cpuHitRate);
  add("externalCacheHitRate", sm?.cache.externalHitRate ?? null);
  // docs/metrics.md §Predicted vs delivered hit rate: set only when the run has one router pool with both sides.
  const info = run.info as Record<string, unknown> | undefined;
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  add("routerPredicted", num(info?.routerPredictedHitRate));
  add("routerGap", num(info?.routerHitRateGapPoints));
  add("kvCapacity", sm?.kvCache.gpuTotalTokens);
  add("kvUsageAvg", sm?.kvCache.gpuUsageAvg);
  add("kvUsageMax", sm?.kvCache.gpuUsageMax);
  add("offloadGpuToCpu", sm?.kvOffload.bandwidthGpuToCpuBytesPerSecond);
  add("offloadCpuToGpu", sm?.kvOffload.bandwidthCpuToGpuBytesPerSecond);
  return out;
}

/** Stands for every segment row when no compared run has a time breakdown at all. */
export const SEGMENTS_NAME = "time-breakdown segments (TensorRT-LLM perf metrics)";

/**
 * The names of the metrics no compared run has, in display order: they get no row and no chart,
 * and the page says in one line that they were left out. Segments are listed as one entry, and
 * only when no run has a breakdown (a segment of the other serving mode is not a gap).
 */
export function absentMetrics(runs: RunSummary[], stat: CompareStat): string[] {
  const all = runs.flatMap((r) => runMetrics(r, stat));
  const present = new Set(all.filter((m) => m.value !== null).map((m) => m.key));
  // key → name, in first-seen (display) order
  const missing = new Map<string, string>();
  for (const m of all) if (!m.key.startsWith("segment:") && !present.has(m.key)) missing.set(m.key, m.name);
  const absent = [...missing.values()];
  if (runs.length > 0 && !runs.some((r) => (r.timeBreakdown?.segments.length ?? 0) > 0))
    absent.push(SEGMENTS_NAME);
  return absent;
}

export interface DeltaRow {
  key: string;
  label: string;
  /** The full definition behind a short label, shown on hover */
  description?: string;
  group: string;
  unit: string;
  direction: Direction;
  baseline: number | null;
  /** One cell per compared run, in the order given (the baseline's own cell included) */
  cells: Array<{ runId: string; value: number | null } & Delta>;
}

/**
 * The delta table: one row per metric that at least one run has, each run against the baseline.
 * Metrics are matched by key, so a segment only one run recorded still gets a row (missing elsewhere).
 */
export function compareRuns(runs: RunSummary[], baselineId: string, stat: CompareStat): DeltaRow[] {
  const baseline = runs.find((r) => r.id === baselineId) ?? runs[0];
  if (!baseline) return [];
  const perRun = runs.map((r) => ({
    id: r.id,
    metrics: new Map(runMetrics(r, stat).map((m) => [m.key, m])),
  }));
  const order: MetricValue[] = [];
  const seen = new Set<string>();
  for (const { metrics } of perRun)
    for (const m of metrics.values())
      if (m.value !== null && !seen.has(m.key)) {
        seen.add(m.key);
        order.push(m);
      }
  const baseMetrics = perRun.find((p) => p.id === baseline.id)!.metrics;
  // One row holds every run's ITL or TPOT: it is named in the words of all of them.
  const itlShort = itlWordsOf(runs).short;
  return order.map((m) => {
    const base = baseMetrics.get(m.key)?.value ?? null;
    return {
      key: m.key,
      label: m.key === "itl" ? `${itlShort} ${stat}` : m.label,
      ...(m.description === undefined ? {} : { description: m.description }),
      group: m.group,
      unit: m.unit,
      direction: m.direction,
      baseline: base,
      cells: perRun.map((p) => {
        const value = p.metrics.get(m.key)?.value ?? null;
        const delta = computeDelta(base, value, m.direction);
        // A value in percentage points is itself a difference: its change is in points, never in percent.
        return { runId: p.id, value, ...delta, ...(m.unit === "pp" ? { percent: null } : {}) };
      }),
    };
  });
}
