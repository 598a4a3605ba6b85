/**
 * Run-against-baseline deltas for the compare page. Pure: takes run summaries, returns rows.
 * Every metric carries its direction so "better" and "worse" are never guessed from the sign.
 */
import type { CompareStat } from "@/lib/api/compare-schemas";
import type { RunSummary, Stats } from "@/lib/api/schemas";
import { perUserStatLabel } from "./derived-throughput";
import { itlWordsOf } from "./request-words";

/** lower: latency, time. higher: throughput, hit rate, capacity, bandwidth. neutral: context only. */
export type Direction = "lower" | "higher" | "neutral";
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

/** A summary stored before p75 (or a segment before p95) was kept has none: missing, not 0. */
function statOf(s: Stats | null | undefined, stat: CompareStat): number | null {
  return s?.[stat] ?? null;
}

function segmentStat(
  seg: {
    meanMs: number | null;
    p50Ms: number | null;
    p75Ms?: number | null;
    p90Ms: number | null;
    p95Ms?: number | null;
    p99Ms: number | null;
  },
  stat: CompareStat,
): number | null {
  return (
    { mean: seg.meanMs, p50: seg.p50Ms, p75: seg.p75Ms, p90: seg.p90Ms, p95: seg.p95Ms, p99: seg.p99Ms }[
      stat
    ] ?? null
  );
}

/** Every comparable number of one run at the chosen statistic, in display order. */
export function runMetrics(run: RunSummary, stat: CompareStat): MetricValue[] {
  const out: MetricValue[] = [];
  // key, name, group, unit, direction: one line per metric reads as the table it is. A
  // distribution (`ofStat`) is read at the statistic and says which one in its label.
  const add = (
    [key, name, group, unit, direction]: [string, string, string, string, Direction],
    value: number | null | undefined,
    { ofStat = false, description }: { ofStat?: boolean; description?: string } = {},
  ) =>
    out.push({
      key,
      label: ofStat ? `${name} ${stat}` : name,
      name,
      ...(description === undefined ? {} : { description }),
      group,
      unit,
      direction,
      value: value ?? null,
    });
  const dist = { ofStat: true };
  const r = run.requests;
  add(["ttft", "TTFT", "Latency", "ms", "lower"], statOf(r?.ttftMs, stat), dist);
  add(["e2e", "E2E latency", "Latency", "ms", "lower"], statOf(r?.e2eMs, stat), dist);
  const itl = itlWordsOf([run]);
  add(["itl", itl.short, "Latency", "ms", "lower"], statOf(r?.itlMs, stat), {
    ...dist,
    description: itl.description,
  });
  add(["requestThroughput", "Request throughput", "Throughput", "req/s", "higher"], r?.requestThroughputPerS);
  add(
    ["outputTokenThroughput", "Output token throughput", "Throughput", "tok/s", "higher"],
    r?.outputTokenThroughputPerS,
  );
  // docs/metrics.md §Derived throughput: null (no row value) where the GPU count is unknown.
  const d = run.derived;
  if (d) {
    add(["gpuCount", "GPUs", "Per GPU", "GPU", "neutral"], d.gpuCount);
    add(
      ["outputTokPerGpu", "Output tok/s per GPU", "Per GPU", "tok/s/GPU", "higher"],
      d.outputTokPerSPerGpu.value,
    );
    add(
      ["totalTokPerGpu", "Total tok/s per GPU", "Per GPU", "tok/s/GPU", "higher"],
      d.totalTokPerSPerGpu.value,
    );
    add(
      ["requestsPerGpu", "Requests/s per GPU", "Per GPU", "req/s/GPU", "higher"],
      d.requestsPerSPerGpu.value,
    );
    // Derived per-user figures exist at mean, p50, p90 and p99 only (docs/metrics.md §Derived throughput).
    const perUser = stat === "p75" || stat === "p95" ? null : d.tokPerUser[stat].value;
    // A tail of a higher-is-better rate is its slow tail: "p99" reads the worst 1% (p1).
    add(
      ["tokPerUser", `Tok/s per user ${perUserStatLabel(stat)}`, "Per GPU", "tok/s/user", "higher"],
      perUser,
    );
  }
  const tb = run.timeBreakdown;
  // Server stamps (TensorRT-LLM perf metrics): their own rows, never mixed with a client's TTFT.
  add(["trtllmTtft", "Server TTFT", "Latency", "ms", "lower"], statOf(tb?.latency?.ttftMs, stat), dist);
  add(["trtllmE2e", "Server E2E", "Latency", "ms", "lower"], statOf(tb?.latency?.e2eMs, stat), dist);
  add(["trtllmTpot", "Server TPOT", "Latency", "ms", "lower"], statOf(tb?.latency?.tpotMs, stat), dist);
  // A segment row is named as the breakdown names it (ctx_queue); its sentence is the hover text,
  // since sentences wrapped the table's first column to two lines per row.
  for (const seg of tb?.segments ?? [])
    add([`segment:${seg.name}`, seg.name, "Time breakdown", "ms", "lower"], segmentStat(seg, stat), {
      ofStat: true,
      description: seg.label,
    });
  add(["kvCacheHitRate", "KV hit rate (perf metrics)", "Cache", "ratio", "higher"], tb?.kvCacheHitRate);
  add(
    ["kvTransferBandwidth", "KV transfer bandwidth", "Offload", "GB/s", "higher"],
    statOf(tb?.kvTransfer?.bandwidthGBps, stat),
    dist,
  );
  const sm = run.serverMetrics;
  // One definition per label (docs/metrics.md §Cache hit rate): tiers over all prompt tokens, overall their sum.
  add(["cacheHitRate", "Overall cache hit rate", "Cache", "ratio", "higher"], sm?.cache.overallHitRate);
  add(["gpuCacheHitRate", "GPU cache hit rate", "Cache", "ratio", "higher"], sm?.cache.gpuHitRate);
  add(["cpuCacheHitRate", "CPU/host cache hit rate", "Cache", "ratio", "higher"], sm?.cache.cpuHitRate);
  add(
    ["externalCacheHitRate", "External cache hit rate", "Cache", "ratio", "higher"],
    sm?.cache.externalHitRate ?? null,
  );
  // docs/metrics.md §Predicted vs delivered hit rate: set only when the run has one router pool with both sides.
  const info = run.info as Record<string, unknown> | undefined;
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  add(
    ["routerPredicted", "Router predicted hit rate", "Cache", "ratio", "neutral"],
    num(info?.routerPredictedHitRate),
  );
  add(
    ["routerGap", "Router gap (delivered − predicted)", "Cache", "pp", "higher"],
    num(info?.routerHitRateGapPoints),
  );
  add(["kvCapacity", "KV capacity", "KV cache", "tokens", "higher"], sm?.kvCache.gpuTotalTokens);
  // Usage is context, not a goal: high usage can mean a busy cache or a starved one.
  add(["kvUsageAvg", "KV usage (avg)", "KV cache", "ratio", "neutral"], sm?.kvCache.gpuUsageAvg);
  add(["kvUsageMax", "KV usage (max)", "KV cache", "ratio", "neutral"], sm?.kvCache.gpuUsageMax);
  add(
    ["offloadGpuToCpu", "Offload GPU→CPU", "Offload", "B/s", "higher"],
    sm?.kvOffload.bandwidthGpuToCpuBytesPerSecond,
  );
  add(
    ["offloadCpuToGpu", "Offload CPU→GPU", "Offload", "B/s", "higher"],
    sm?.kvOffload.bandwidthCpuToGpuBytesPerSecond,
  );
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
