/**
 * Predicted vs delivered hit rate (docs/metrics.md §Predicted vs delivered hit rate). A KV-aware
 * router records, per routed request, the share of the prompt's blocks it believed the chosen
 * worker already held; the engines' own counters say how many prompt tokens they served from
 * cache. The router's histograms name the worker pool (`dynamo_component`), never the chosen
 * worker, so the comparison is per pool, with each engine's own delivered rate beside it.
 */
import type {
  RouterPool,
  RouterPoolEndpoint,
  RouterPoint,
  RouterPredictionPayload,
  RouterSeries,
} from "@/lib/api/router-prediction";
import {
  HIT_RATE_GAUGES,
  LLMD_PREFIX_HIT_RATIO,
  POOL_LABELS,
  ROUTER_KV_HIT_RATE,
} from "@/lib/formats/server-metrics/catalog";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";
import type { EndpointFacts } from "./endpoint-facts";
import { clampFraction, ofNames } from "./select";
import { hasRouterSide, ROUTER_PREDICTION_NAMES } from "./router-side";
import { combineCache, prefillSide } from "./summarize";
import { cells, collect, mean, MAX_POINTS, Slots, total, type Cells } from "./timeseries";

const SOURCES: Record<string, string> = {
  [ROUTER_KV_HIT_RATE]: `${ROUTER_KV_HIT_RATE} (Dynamo router, one observation per routed request)`,
  [LLMD_PREFIX_HIT_RATIO]: `${LLMD_PREFIX_HIT_RATIO} (llm-d endpoint picker, one observation per scheduled request)`,
};

export const MISSING_ROUTER =
  "No router prediction in the upload: start the Dynamo frontend with --router-mode kv and include its /metrics " +
  "scrape (dynamo_component_router_kv_hit_rate), or scrape llm-d's endpoint picker " +
  "(inference_extension_prefix_indexer_hit_ratio).";
export const MISSING_ENGINES =
  "No engine prefix-cache counters in the upload, so what was delivered is unknown: scrape every worker's /metrics " +
  "(vLLM prefix_cache_hits / prefix_cache_queries, SGLang cached_tokens, TensorRT-LLM prompt_cached_tokens) " +
  "beside the router's.";

interface RouterGroup {
  key: string;
  label: string;
  /** The pool labels the router series carried; empty when they name no pool. */
  labels: Record<string, string>;
  series: MetricSeries[];
  routers: Set<string>;
}

function poolLabels(s: MetricSeries): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of POOL_LABELS) if (s.labels[k] !== undefined) out[k] = s.labels[k];
  return out;
}

/** Router histograms grouped by the pool they name; replicas of one router (router_id) add up. */
function routerGroups(facts: readonly EndpointFacts[]): RouterGroup[] {
  const groups = new Map<string, RouterGroup>();
  for (const f of facts)
    for (const s of ofNames(f.series, ROUTER_PREDICTION_NAMES)) {
      if (s.type !== "histogram") continue;
      const labels = poolLabels(s);
      const key = `${s.name}|${POOL_LABELS.map((k) => labels[k] ?? "").join("|")}`;
      let g = groups.get(key);
      if (!g) {
        const label =
          labels.dynamo_component ?? (s.name === LLMD_PREFIX_HIT_RATIO ? "inference pool" : "router");
        g = { key, label, labels, series: [], routers: new Set() };
        groups.set(key, g);
      }
      g.series.push(s);
      g.routers.add(f.endpoint);
    }
  return [...groups.values()];
}

/** Mean of the observations: Σ sum / Σ count over the group's series (null when nothing was routed). */
export function histogramMean(series: readonly MetricSeries[]): {
  mean: number | null;
  count: number | null;
} {
  let sum = 0;
  let count = 0;
  let seen = false;
  for (const s of series) {
    if (s.stats.count === undefined || s.stats.sum === undefined) continue;
    seen = true;
    sum += s.stats.sum;
    count += s.stats.count;
  }
  if (!seen) return { mean: null, count: null };
  return { mean: count > 0 ? clampFraction(sum / count) : null, count };
}

/** An engine endpoint belongs to a pool when one of its series carries every label the pool has. */
function inPool(f: EndpointFacts, labels: Record<string, string>): boolean {
  const keys = Object.keys(labels);
  return f.series.some((s) => keys.every((k) => s.labels[k] === labels[k]));
}

/**
 * The endpoints that own cache hits: prefill-side engines when the run has any (a decode worker's
 * "cached" tokens are KV received from prefill), else every engine (an aggregated deployment).
 */
type Owners = ReadonlySet<string>;

function endpointRow(f: EndpointFacts, owners: Owners): RouterPoolEndpoint {
  const owner = owners.has(f.endpoint);
  return {
    endpoint: f.endpoint,
    role: f.role,
    delivered: owner ? f.hitRate : null,
    deliveredMethod: !owner
      ? "decode: cached tokens include KV received from prefill"
      : f.hitRateMethod === "counters"
        ? "token-weighted counters"
        : f.hitRateMethod === "gauge"
          ? "gauge avg"
          : null,
  };
}

const gap = (predicted: number | null, delivered: number | null) =>
  predicted === null || delivered === null ? null : (delivered - predicted) * 100;

/** Which engines a router group is compared with, and what the reader should know about the match. */
function matchPool(
  g: RouterGroup,
  engines: readonly EndpointFacts[],
  groups: number,
): { members: EndpointFacts[]; note: string | null } {
  if (Object.keys(g.labels).length === 0) {
    // No pool label (llm-d, or a scrape without Dynamo's hierarchy): one such router and nothing
    // else is read as routing to every engine of the upload, and says so; more are not guessed at.
    if (groups === 1)
      return {
        members: [...engines],
        note:
          engines.length > 0
            ? "The router's metrics name no worker pool; it is compared with every engine endpoint in the upload."
            : null,
      };
    return {
      members: [],
      note: "The router's metrics name no worker pool and there are other routers, so its workers cannot be told apart.",
    };
  }
  const members = engines.filter((f) => inPool(f, g.labels));
  if (members.length > 0 || engines.length === 0) return { members, note: null };
  const named = Object.entries(g.labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(", ");
  return {
    members,
    note: `No engine endpoint's metrics carry ${named}, so the router's pool cannot be matched to workers.`,
  };
}

function poolOf(g: RouterGroup, members: EndpointFacts[], note: string | null, owners: Owners): RouterPool {
  const { mean: predicted, count } = histogramMean(g.series);
  const prefill = members.filter((f) => owners.has(f.endpoint));
  const cache = prefill.length > 0 ? combineCache(prefill) : null;
  const delivered = cache?.gpuHitRate ?? null;
  let why = note;
  if (members.length > 0 && prefill.length === 0)
    why =
      "Every worker of this pool is a decode worker: their cached tokens include KV received from prefill, " +
      "so they are not compared with the prediction.";
  return {
    id: g.key,
    label: g.label,
    source: SOURCES[g.series[0].name] ?? g.series[0].name,
    routers: [...g.routers].sort(),
    requests: count,
    predicted,
    delivered,
    deliveredMethod: cache?.method ?? null,
    gapPoints: gap(predicted, delivered),
    endpoints: members.map((f) => endpointRow(f, owners)),
    note: why,
  };
}

/** Per-interval accumulators of one pool, over the union of its series' interval starts. */
interface PoolCells {
  predSum: Cells;
  predCount: Cells;
  den: Cells;
  gpu: Cells;
  gauge: Cells;
}

function countCells(slots: Slots, series: readonly MetricSeries[]): Cells {
  const c = cells(slots.keys.length);
  for (const s of series) {
    const counts = s.slices?.count;
    if (!s.slices || !counts) continue;
    const index = slots.of(s.slices.startNs);
    for (let j = 0; j < counts.length; j++) {
      const i = index[j];
      if (i === -1) continue;
      c.sum[i] += counts[j];
      c.n[i]++;
    }
  }
  return c;
}

interface PoolIntervals {
  pool: RouterPool;
  keys: number[];
  cells: PoolCells;
}

function intervalsOf(
  pool: RouterPool,
  g: RouterGroup,
  members: EndpointFacts[],
  owners: Owners,
): PoolIntervals | null {
  const withCounts = g.series.filter((s) => s.slices?.count);
  if (withCounts.length === 0) return null;
  const prefill = pool.delivered === null ? [] : members.filter((f) => owners.has(f.endpoint));
  const counted = prefill.filter((f) => f.cache !== null);
  const gauged = prefill.filter((f) => f.cache === null).flatMap((f) => ofNames(f.series, HIT_RATE_GAUGES));
  const starts = new Set<number>();
  const addStarts = (list: readonly MetricSeries[]) => {
    for (const s of list) if (s.slices) for (const v of s.slices.startNs) starts.add(v);
  };
  const den = counted.flatMap((f) => f.cache!.den);
  const gpu = counted.flatMap((f) => f.cache!.gpu);
  addStarts(withCounts);
  addStarts(den);
  addStarts(gauged);
  const keys = [...starts].sort((a, b) => a - b);
  const slots = new Slots(keys);
  const c: PoolCells = {
    predSum: collect(slots, withCounts),
    predCount: countCells(slots, withCounts),
    den: collect(slots, den),
    gpu: collect(slots, gpu),
    gauge: collect(slots, gauged, true),
  };
  return { pool, keys, cells: c };
}

/**
 * Points of merged neighbouring intervals (at most MAX_POINTS): sums and counts add before they
 * divide, so a merged point is the same ratio as the intervals it covers, not a mean of ratios.
 */
function points(keys: readonly number[], c: PoolCells, first: number): RouterPoint[] {
  const k = Math.max(1, Math.ceil(keys.length / MAX_POINTS));
  const out: RouterPoint[] = [];
  for (let i = 0; i < keys.length; i += k) {
    let ps = 0;
    let pc = 0;
    let d = 0;
    let g = 0;
    let dn = 0;
    let gaugeSum = 0;
    let gaugeN = 0;
    for (let j = i; j < Math.min(keys.length, i + k); j++) {
      ps += total(c.predSum, j) ?? 0;
      pc += total(c.predCount, j) ?? 0;
      if (c.den.n[j] > 0) {
        d += c.den.sum[j];
        dn++;
      }
      g += total(c.gpu, j) ?? 0;
      const m = mean(c.gauge, j);
      if (m !== null) {
        gaugeSum += m;
        gaugeN++;
      }
    }
    out.push({
      t: (keys[i] - first) / 1e9,
      predicted: pc > 0 ? clampFraction(ps / pc) : null,
      delivered: dn > 0 && d > 0 ? clampFraction(g / d) : gaugeN > 0 ? gaugeSum / gaugeN : null,
      requests: pc,
    });
  }
  return out;
}

function sliceSOf(g: RouterGroup): number | null {
  const sl = g.series.find((s) => (s.slices?.startNs.length ?? 0) > 1)?.slices;
  return sl ? (sl.startNs[1] - sl.startNs[0]) / 1e9 : null;
}

/**
 * The payload, or null when there is nothing to say: no router metrics and no Dynamo frontend
 * (a run without a KV-aware router in front has no prediction to miss).
 */
export function buildRouterPrediction(facts: readonly EndpointFacts[]): RouterPredictionPayload | null {
  const groups = routerGroups(facts);
  const engines = facts.filter((f) => f.engine !== null && f.role !== "frontend" && f.role !== "router");
  const owners: Owners = new Set(prefillSide(facts).map((f) => f.endpoint));
  const withDelivered = engines.filter((f) => f.hitRate !== null);
  if (!hasRouterSide(facts)) return null;
  const matched = new Set<string>();
  const pools: RouterPool[] = [];
  const intervals: PoolIntervals[] = [];
  for (const g of groups) {
    const { members, note } = matchPool(g, engines, groups.length);
    for (const m of members) matched.add(m.endpoint);
    const pool = poolOf(g, members, note, owners);
    pools.push(pool);
    const iv = intervalsOf(pool, g, members, owners);
    if (iv && iv.keys.length > 0) intervals.push(iv);
  }
  // One origin for every pool, so their lines share the time axis.
  const firstNs = intervals.reduce((m, iv) => Math.min(m, iv.keys[0]), Infinity);
  const series: RouterSeries[] = intervals
    .map((iv) => ({ poolId: iv.pool.id, label: iv.pool.label, points: points(iv.keys, iv.cells, firstNs) }))
    .filter((s) => s.points.some((p) => p.predicted !== null));
  const missing = groups.length === 0 ? MISSING_ROUTER : withDelivered.length === 0 ? MISSING_ENGINES : null;
  return {
    pools,
    unmatched: engines.filter((f) => !matched.has(f.endpoint)).map((f) => endpointRow(f, owners)),
    missing,
    sliceS: groups.length > 0 ? sliceSOf(groups[0]) : null,
    startEpochMs: Number.isFinite(firstNs) ? firstNs / 1e6 : null,
    series,
  };
}

/**
 * The run's own figures for the compare page: those of its one pool with both sides. With
 * several such pools there is no one run figure (a mean would hide which pool fell short).
 */
export function routerRunInfo(p: RouterPredictionPayload | null): Record<string, number> {
  const both = (p?.pools ?? []).filter((x) => x.predicted !== null && x.delivered !== null);
  if (both.length !== 1) return {};
  const [pool] = both;
  return {
    routerPredictedHitRate: pool.predicted!,
    routerDeliveredHitRate: pool.delivered!,
    routerHitRateGapPoints: pool.gapPoints!,
  };
}
