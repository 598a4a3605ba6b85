/**
 * Per-interval series for one group of endpoints (one endpoint, a role, or the whole run) from
 * timeslices. Hit rate per interval is Δcached / Δprompt summed over the group's prefill-side
 * endpoints, the same formula as the headline, so the chart and the number agree. At most
 * MAX_POINTS intervals: longer runs merge neighbouring intervals (counters add, gauges average).
 * Each point keeps the seconds it covers, so a partial last interval is never read as a collapse.
 */
import type { SmPoint, SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import {
  DYNAMO_USAGE_GAUGES,
  HIT_RATE_GAUGES,
  REQUESTS_RUNNING,
  REQUESTS_WAITING,
  USAGE_GAUGES,
} from "@/lib/formats/server-metrics/catalog";
import type { EndpointFacts } from "./endpoint-facts";
import { offloadSeries, type OffloadDirection } from "./offload";
import { clampFraction, fractionScale, ofNames } from "./select";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";

export const MAX_POINTS = 2000;

/** Per-interval accumulators of one quantity, indexed like the group's sorted interval starts. */
export interface Cells {
  sum: Float64Array;
  n: Float64Array;
  max: Float64Array;
}

export function cells(size: number): Cells {
  return {
    sum: new Float64Array(size),
    n: new Float64Array(size),
    max: new Float64Array(size).fill(-Infinity),
  };
}

function add(c: Cells, i: number, value: number, max = value): void {
  c.sum[i] += value;
  c.n[i]++;
  c.max[i] = Math.max(c.max[i], max);
}

function sameValues(a: Float64Array | null, b: Float64Array): boolean {
  if (a === b) return true;
  if (a === null || a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Positions of interval starts among the group's sorted starts. The series of one endpoint
 * usually share their start times: a run of equal start columns is looked up once.
 */
export class Slots {
  private readonly slot = new Map<number, number>();
  private lastStart: Float64Array | null = null;
  private lastIndex = new Int32Array(0);

  constructor(readonly keys: readonly number[]) {
    keys.forEach((k, i) => this.slot.set(k, i));
  }

  of(start: Float64Array): Int32Array {
    if (sameValues(this.lastStart, start)) return this.lastIndex;
    const index = new Int32Array(start.length);
    for (let j = 0; j < start.length; j++) index[j] = this.slot.get(start[j]) ?? -1;
    this.lastStart = start;
    this.lastIndex = index;
    return index;
  }
}

/** Adds every slice of `series` (in order, so each sum is the same float as before) at its interval's index. */
export function collect(slots: Slots, series: readonly MetricSeries[], scaled = false): Cells {
  const c = cells(slots.keys.length);
  for (const s of series) {
    const sl = s.slices;
    if (!sl) continue;
    const k = scaled ? fractionScale(s) : 1;
    const index = slots.of(sl.startNs);
    for (let j = 0; j < sl.value.length; j++) {
      const i = index[j];
      if (i === -1) continue;
      add(
        c,
        i,
        scaled ? clampFraction(sl.value[j] / k) : sl.value[j],
        scaled ? clampFraction(sl.max[j] / k) : sl.max[j],
      );
    }
  }
  return c;
}

/** Σ over series of each interval's value (counters, or gauges added across engines). */
export const total = (c: Cells, i: number) => (c.n[i] > 0 ? c.sum[i] : null);
export const mean = (c: Cells, i: number) => (c.n[i] > 0 ? c.sum[i] / c.n[i] : null);

/** The group's interval starts (epoch ns, sorted) and each one's longest duration in ns. */
function intervalStarts(group: readonly EndpointFacts[]) {
  const durations = new Map<number, number>();
  let lastStart: Float64Array | null = null;
  let lastEnd: Float64Array | null = null;
  for (const f of group)
    for (const s of f.series) {
      const sl = s.slices;
      // Series with the same intervals as the previous one add nothing (max of equal durations).
      if (!sl || (sameValues(lastStart, sl.startNs) && sameValues(lastEnd, sl.endNs))) continue;
      lastStart = sl.startNs;
      lastEnd = sl.endNs;
      for (let i = 0; i < sl.value.length; i++) {
        const start = sl.startNs[i];
        durations.set(start, Math.max(durations.get(start) ?? 0, sl.endNs[i] - start));
      }
    }
  return { keys: [...durations.keys()].sort((a, b) => a - b), durations };
}

/** The prompt tokens looked up (den) and served from GPU cache per interval, of endpoints with cache counters. */
function cacheCells(slot: Slots, counted: readonly EndpointFacts[]) {
  return {
    den: collect(
      slot,
      counted.flatMap((f) => f.cache!.den),
    ),
    gpu: collect(
      slot,
      counted.flatMap((f) => f.cache!.gpu),
    ),
  };
}

export function buildSeries(
  id: string,
  label: string,
  group: readonly EndpointFacts[],
  prefillSide: readonly EndpointFacts[],
): SmSeriesPayload {
  const { keys, durations } = intervalStarts(group);
  const slot = new Slots(keys);

  const counted = prefillSide.filter((f) => f.cache !== null);
  const { den, gpu } = cacheCells(slot, counted);
  // Off-GPU tiers share the prompt-token denominator, so what they served is never "computed".
  const ext = collect(
    slot,
    counted.flatMap((f) => [...f.cache!.host, ...f.cache!.ext]),
  );
  const hitGauge = collect(
    slot,
    prefillSide.filter((f) => f.cache === null).flatMap((f) => ofNames(f.series, HIT_RATE_GAUGES)),
    true,
  );
  const usageSeriesOf = (f: EndpointFacts) => {
    const engine = ofNames(f.series, USAGE_GAUGES);
    return engine.length > 0 ? engine : ofNames(f.series, DYNAMO_USAGE_GAUGES);
  };
  const usage = collect(slot, group.flatMap(usageSeriesOf), true);
  const withUsage = group.filter((f) => usageSeriesOf(f).length > 0);
  const capacityKnown = withUsage.length > 0 && withUsage.every((f) => f.capacity !== null);
  const used = cells(keys.length);
  if (capacityKnown)
    for (const f of withUsage) {
      const c = collect(slot, usageSeriesOf(f), true);
      for (let i = 0; i < keys.length; i++)
        if (c.n[i] > 0) add(used, i, (c.sum[i] / c.n[i]) * f.capacity!.tokens);
    }
  const named = (names: readonly string[]) => group.flatMap((f) => ofNames(f.series, names));
  // One generation of offload counters per endpoint and direction, as in the endpoint facts.
  const offload = group.map((f) => offloadSeries(f.series));
  const picked = (dir: OffloadDirection, part: "bytes" | "time") =>
    offload.flatMap((o) => o[dir]?.[part] ?? []);
  const outBytes = collect(slot, picked("gpuToCpu", "bytes"));
  const inBytes = collect(slot, picked("cpuToGpu", "bytes"));
  const outTime = collect(slot, picked("gpuToCpu", "time"));
  const inTime = collect(slot, picked("cpuToGpu", "time"));
  // Σ bytes / Σ transfer seconds of the interval: the link's speed, not the traffic's average rate.
  const perTransferS = (bytes: Cells, time: Cells, i: number) => {
    const t = total(time, i);
    return t === null || !(t > 0) ? null : (total(bytes, i) ?? 0) / t;
  };
  const running = collect(slot, named(REQUESTS_RUNNING));
  const waiting = collect(slot, named(REQUESTS_WAITING));

  const first = keys[0] ?? 0;
  const raw: SmPoint[] = keys.map((k, i) => {
    const durS = (durations.get(k) ?? 0) / 1e9;
    const d = total(den, i);
    const g = total(gpu, i);
    const e = total(ext, i);
    const perS = (v: number | null) => (v === null || !(durS > 0) ? null : v / durS);
    return {
      t: (k - first) / 1e9,
      hitRate: d !== null && d > 0 ? clampFraction((g ?? 0) / d) : mean(hitGauge, i),
      promptTokens: d,
      cachedTokens: g,
      externalCachedTokens: e,
      computedTokens: d === null ? null : Math.max(0, d - (g ?? 0) - (e ?? 0)),
      kvUsage: mean(usage, i),
      kvUsageMax: usage.n[i] > 0 ? usage.max[i] : null,
      kvUsedTokens: total(used, i),
      offloadGpuToCpuBytesPerSecond: perS(total(outBytes, i)),
      offloadCpuToGpuBytesPerSecond: perS(total(inBytes, i)),
      offloadGpuToCpuBandwidth: perTransferS(outBytes, outTime, i),
      offloadCpuToGpuBandwidth: perTransferS(inBytes, inTime, i),
      running: total(running, i),
      waiting: total(waiting, i),
      durationS: durS > 0 ? durS : null,
    };
  });
  const sliceS =
    keys.length > 1
      ? (keys[1] - keys[0]) / 1e9
      : keys.length === 1
        ? (durations.get(keys[0]) ?? 0) / 1e9
        : null;
  const capacity = group.every((f) => f.capacity === null)
    ? null
    : group.reduce((a, f) => a + (f.capacity?.tokens ?? 0), 0);
  const startEpochMs = keys.length > 0 ? first / 1e6 : null;
  return { id, label, sliceS, kvCapacityTokens: capacity, startEpochMs, points: downsample(raw) };
}

const COUNTED: (keyof SmPoint)[] = [
  "durationS",
  "promptTokens",
  "cachedTokens",
  "externalCachedTokens",
  "computedTokens",
  "kvUsedTokens",
];

/** Merges runs of k neighbouring intervals: token counts add; rates, usage and queue depths average. */
export function downsample(points: SmPoint[], maxPoints = MAX_POINTS): SmPoint[] {
  if (points.length <= maxPoints) return points;
  const k = Math.ceil(points.length / maxPoints);
  const out: SmPoint[] = [];
  for (let i = 0; i < points.length; i += k) {
    const chunk = points.slice(i, i + k);
    const merged = { ...chunk[0] } as Record<keyof SmPoint, number | null>;
    for (const key of Object.keys(merged) as (keyof SmPoint)[]) {
      if (key === "t") continue;
      const vals = chunk.map((p) => p[key]).filter((v): v is number => v !== null);
      if (vals.length === 0) merged[key] = null;
      else if (key === "kvUsageMax") merged[key] = vals.reduce((m, v) => Math.max(m, v), -Infinity);
      else if (COUNTED.includes(key) && key !== "kvUsedTokens") merged[key] = vals.reduce((a, b) => a + b, 0);
      else merged[key] = vals.reduce((a, b) => a + b, 0) / vals.length;
    }
    const d = merged.promptTokens;
    if (d !== null && d > 0) merged.hitRate = clampFraction((merged.cachedTokens ?? 0) / d);
    out.push(merged as SmPoint);
  }
  return out;
}

/** Prompt tokens of each interval by where the engines served them, before any downsampling. */
export interface ServedIntervals {
  /** Interval starts, epoch ns, sorted */
  startNs: number[];
  durationNs: number[];
  /** Σ prompt tokens looked up (the cache counters' denominator); null where no counter covers it */
  prompt: (number | null)[];
  gpu: (number | null)[];
  /** Null everywhere when no endpoint's counters name a host, CPU or external tier */
  external: (number | null)[] | null;
  /** The cache selections used, joined (e.g. "vllm prompt_tokens_by_source") */
  sources: string[];
}

/**
 * The prefill-side endpoints' cache counters per interval, for the reuse stack. Unlike the hit
 * rate series, an external tier counted against its own lookups (vLLM's
 * external_prefix_cache_queries) is kept: vLLM's scheduler counts those hits past the local GPU
 * hit, so they never overlap it (docs/metrics.md §Reuse per interval).
 */
export function servedIntervals(prefillSide: readonly EndpointFacts[]): ServedIntervals | null {
  const counted = prefillSide.filter((f) => f.cache !== null);
  if (counted.length === 0) return null;
  const { keys, durations } = intervalStarts(counted);
  if (keys.length === 0) return null;
  return servedOn(new Slots(keys), durations, counted);
}

/**
 * The same per endpoint, each on the intervals of the whole prefill side, so an interval of one
 * endpoint is the interval of the run and the endpoints' parts add up to the run's. Empty with
 * fewer than two counted endpoints: one endpoint's stack is the run's.
 */
export function servedIntervalsByEndpoint(
  prefillSide: readonly EndpointFacts[],
): { endpoint: string; served: ServedIntervals }[] {
  const counted = prefillSide.filter((f) => f.cache !== null);
  if (counted.length < 2) return [];
  const { keys, durations } = intervalStarts(counted);
  if (keys.length === 0) return [];
  const slot = new Slots(keys);
  return counted.map((f) => ({ endpoint: f.endpoint, served: servedOn(slot, durations, [f]) }));
}

function servedOn(
  slot: Slots,
  durations: ReadonlyMap<number, number>,
  counted: readonly EndpointFacts[],
): ServedIntervals {
  const keys = slot.keys;
  const { den, gpu } = cacheCells(slot, counted);
  const extSeries = counted.flatMap((f) => [...f.cache!.host, ...f.cache!.ext]);
  const ext = extSeries.length > 0 ? collect(slot, extSeries) : null;
  return {
    startNs: [...keys],
    durationNs: keys.map((k) => durations.get(k) ?? 0),
    prompt: keys.map((_, i) => total(den, i)),
    gpu: keys.map((_, i) => total(gpu, i)),
    external: ext ? keys.map((_, i) => total(ext, i)) : null,
    sources: [...new Set(counted.map((f) => f.cache!.source))],
  };
}
