/**
 * The server-metrics time series, as renderer-neutral descriptions (lib/api/figure.ts): the Cache,
 * KV and Offload views' line charts of the endpoint (or role, or all) picked, and the offline
 * report's, which draws the run's (all endpoints) and, one line per endpoint, each endpoint's. An
 * interval without the value is null (the line breaks), never 0.
 */
import { SM_SERIES } from "@/lib/api/chart-catalog";
import type { ColourToken, FigureDefinition, FigureDescription, FigureSeries } from "@/lib/api/figure";
import { METRICS } from "@/lib/api/metric-catalog";
import type { SmPoint, SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { byteRateUnit, formatCount } from "@/lib/format-number";

/** Every server-metrics time series covers the scrape intervals, from the first. */
const INTERVALS = "scrape intervals, from the first";

/** A series of counters: a value per scrape interval, of all the traffic the server saw. */
export const SERVER_INTERVALS: FigureDefinition = {
  window: INTERVALS,
  requests: "all traffic the server saw, any client",
  method: "counter deltas per interval",
};

/** A series of a gauge: its samples per scrape interval. */
export const SERVER_GAUGE: FigureDefinition = {
  window: INTERVALS,
  method: "gauge samples (a level, not a count)",
};

/** The charts of one series group: the views draw one of each for the picked group. */
export type SmSeriesMetric = "hitRate" | "kvUsage" | "queue" | "offload";

export const SM_SERIES_METRICS: readonly SmSeriesMetric[] = ["hitRate", "kvUsage", "queue", "offload"];

/** The per-endpoint charts of the report: one line per endpoint. */
export type SmEndpointSeriesMetric = "hitRate" | "kvUsage" | "running" | "waiting" | "offload";

export const SM_ENDPOINT_SERIES_METRICS: readonly SmEndpointSeriesMetric[] = [
  "hitRate",
  "kvUsage",
  "running",
  "waiting",
  "offload",
];

const ID: Record<SmSeriesMetric | SmEndpointSeriesMetric, string> = {
  hitRate: "hit-rate",
  kvUsage: "kv-usage",
  queue: "queue",
  running: "running",
  waiting: "waiting",
  offload: "offload",
};

const X = { label: "time from the first interval", unit: "s" } as const;

/** A ratio of the catalog (a hit rate, a usage) is drawn in %. */
const percentUnit = (unit: string) => (unit === "ratio" ? "%" : unit);
const HIT_RATE_UNIT = percentUnit(METRICS.gpuCacheHitRate.unit);
const KV_USAGE_UNIT = percentUnit(METRICS.kvUsageAvg.unit);

const MISSING = {
  hitRate:
    "No interval has a hit rate: it needs prefix-cache counters or a hit-rate gauge in the server metrics.",
  kvUsage:
    "No interval has a KV usage gauge (vllm:kv_cache_usage_perc, sglang:token_usage, trtllm_kv_cache_utilization; TensorRT-LLM needs enable_iter_perf_stats).",
  queue:
    "No interval has running or waiting request gauges (vllm:num_requests_running/waiting, trtllm_num_requests_running/waiting, sglang:num_running_reqs).",
  offload: "No interval has offload bytes (vLLM kv_offload_*, TensorRT-LLM kv_cache_offload/onboard bytes).",
};

const KV_DEFINITION = { ...SERVER_GAUGE, method: "usage gauge samples: mean and peak per interval" };

type Field = Exclude<keyof SmPoint, "t" | "durationS">;

const has = (points: readonly SmPoint[], field: Field) =>
  points.some((p) => p[field] !== null && p[field] !== undefined);

const valueOf = (p: SmPoint, field: Field, scale: number) => {
  const v = p[field];
  return v === null || v === undefined ? null : v * scale;
};

/**
 * The series of the fields, each interval's value × scale, from the first to the last interval
 * where one of them has a value: intervals where none has one (a gauge exported for half the
 * run) would stretch the time axis past the data.
 */
function lines(
  points: readonly SmPoint[],
  specs: ReadonlyArray<{ field: Field; name: string; colour: ColourToken }>,
  scale = 1,
): FigureSeries[] {
  const any = (p: SmPoint) => specs.some((s) => valueOf(p, s.field, 1) !== null);
  const first = points.findIndex(any);
  let last = points.length - 1;
  while (last >= 0 && !any(points[last])) last--;
  const within = first < 0 ? [] : points.slice(first, last + 1);
  return specs.map((s) => ({
    key: s.field,
    name: s.name,
    colour: s.colour,
    points: within.map((p) => [p.t, valueOf(p, s.field, scale)] as const),
  }));
}

/** The id part of a series group: "all", "role-prefill", an endpoint's name. */
const groupId = (id: string) => id.replace(/[^A-Za-z0-9.]+/g, "-");

/** Which offload fields a series has: bytes over transfer time where the engine counts it, else over the interval. */
function offloadFields(points: readonly SmPoint[]) {
  const measured = has(points, "offloadGpuToCpuBandwidth") || has(points, "offloadCpuToGpuBandwidth");
  const [out, back] = measured
    ? (["offloadGpuToCpuBandwidth", "offloadCpuToGpuBandwidth"] as const)
    : (["offloadGpuToCpuBytesPerSecond", "offloadCpuToGpuBytesPerSecond"] as const);
  return { measured, out, back };
}

function offloadDefinition(measured: boolean) {
  return {
    ...SERVER_INTERVALS,
    method: measured
      ? "byte and transfer-time counter deltas per interval (bytes over transfer time)"
      : "byte counter deltas per interval (bytes over the interval, not over transfer time)",
  };
}

/** The byte rate unit the largest value of the fields reads in. */
function rateUnit(points: readonly SmPoint[], fields: readonly Field[]) {
  let max = 0;
  for (const p of points) for (const f of fields) max = Math.max(max, valueOf(p, f, 1) ?? 0);
  return byteRateUnit(max);
}

/**
 * One chart of a series group (all endpoints, a role, an endpoint), as the views draw it for the
 * group picked. `requestLevel`: the perf-metrics hit rate (block-weighted, a fraction), a level on
 * the hit-rate chart.
 */
export function smSeriesFigure(
  series: SmSeriesPayload,
  metric: SmSeriesMetric,
  { requestLevel = null }: { requestLevel?: number | null } = {},
): FigureDescription {
  const id = `${SM_SERIES.prefix}${groupId(series.id)}-${ID[metric]}`;
  const pts = series.points;
  const base = { id, kind: "line" as const, x: X, legend: true };
  switch (metric) {
    case "hitRate":
      return {
        ...base,
        exportName: "hit-rate-over-time",
        title: `Cache hit rate over time — ${series.label}`,
        description: "% of prompt tokens served from cache in each interval",
        definition: SERVER_INTERVALS,
        missing: MISSING.hitRate,
        y: { label: "hit rate", unit: HIT_RATE_UNIT, domain: [0, 100] },
        series: lines(pts, [{ field: "hitRate", name: "hit rate", colour: "chart-1" }], 100),
        legend: false,
        levels:
          requestLevel === null ? [] : [{ y: requestLevel * 100, label: "perf-metrics (block-weighted)" }],
      };
    case "kvUsage": {
      // Used tokens under the capacity line when capacity is known, else % of it.
      const capacity = has(pts, "kvUsedTokens") ? series.kvCapacityTokens : null;
      if (capacity !== null)
        return {
          ...base,
          exportName: "kv-usage-tokens",
          title: `KV cache used vs capacity — ${series.label}`,
          description: `Tokens held in KV cache per interval; dashed line = capacity ${formatCount(capacity)}`,
          definition: KV_DEFINITION,
          missing: MISSING.kvUsage,
          y: { label: "KV cache used", unit: METRICS.kvCapacity.unit, domain: [0, capacity] },
          series: lines(pts, [{ field: "kvUsedTokens", name: "used tokens", colour: "chart-1" }]),
          legend: false,
          levels: [{ y: capacity, label: "capacity" }],
        };
      return {
        ...base,
        exportName: "kv-usage-percent",
        title: `KV cache usage — ${series.label}`,
        description: "Mean and peak usage per interval; 100% = capacity",
        definition: KV_DEFINITION,
        missing: MISSING.kvUsage,
        y: { label: "KV usage", unit: KV_USAGE_UNIT, domain: [0, 100] },
        series: lines(
          pts,
          [
            { field: "kvUsage", name: "mean", colour: "chart-1" },
            { field: "kvUsageMax", name: "peak", colour: "chart-4" },
          ],
          100,
        ),
        levels: [{ y: 100, label: "capacity" }],
      };
    }
    case "queue":
      return {
        ...base,
        exportName: "requests-running-waiting",
        title: `Running and waiting requests — ${series.label}`,
        description: "Requests per interval, summed over the picked endpoints",
        definition: SERVER_GAUGE,
        missing: MISSING.queue,
        y: { label: "requests", unit: "" },
        series: lines(pts, [
          { field: "running", name: "running", colour: "chart-1" },
          { field: "waiting", name: "waiting", colour: "chart-3" },
        ]),
      };
    case "offload": {
      const { measured, out, back } = offloadFields(pts);
      const { unit, divisor } = rateUnit(pts, [out, back]);
      return {
        ...base,
        exportName: "offload-over-time",
        title: `KV offload over time — ${series.label}`,
        description: measured
          ? `Bandwidth, ${unit} per interval: bytes moved / seconds spent transferring them (engine transfer-time counters)`
          : `Traffic, ${unit} per interval: bytes moved / interval length (an average rate, not link bandwidth)`,
        definition: offloadDefinition(measured),
        missing: MISSING.offload,
        y: { label: measured ? "bandwidth" : "traffic", unit },
        series: lines(
          pts,
          [
            { field: out, name: "GPU → CPU", colour: "chart-7" },
            { field: back, name: "CPU → GPU", colour: "chart-2" },
          ],
          1 / divisor,
        ),
      };
    }
  }
}

/** One endpoint's series, by its name; `decode`: a decode endpoint, which does no prefill. */
export interface EndpointSeries {
  label: string;
  decode: boolean;
  series: SmSeriesPayload;
}

/** The chart colours in turn, one per endpoint. */
const colourOf = (i: number) => `chart-${(i % 8) + 1}` as ColourToken;

/**
 * One chart per metric with a line per endpoint (the report's; the views show one endpoint at a
 * time with the picker): where one endpoint's cache, KV, queue or offload differs from the others.
 * A decode endpoint has no hit-rate line: it does no prefill, so it has no prefix hits to count.
 */
export function smEndpointSeriesFigure(
  endpoints: readonly EndpointSeries[],
  metric: SmEndpointSeriesMetric,
): FigureDescription {
  const all = endpoints.flatMap((e) => e.series.points);
  const perEndpoint = (field: Field, scale: number, of = endpoints) =>
    of.map((e, i) => ({
      ...lines(e.series.points, [{ field, name: e.label, colour: colourOf(endpoints.indexOf(e)) }], scale)[0],
      key: `ep${i}`,
    }));
  const base = {
    id: `${SM_SERIES.prefix}ep-${ID[metric]}`,
    kind: "line" as const,
    x: X,
    legend: true,
  };
  const n = `${endpoints.length} endpoints`;
  switch (metric) {
    case "hitRate": {
      const prefill = endpoints.filter((e) => !e.decode);
      const decode = endpoints.length - prefill.length;
      return {
        ...base,
        exportName: "hit-rate-over-time-per-endpoint",
        title: "Cache hit rate over time — per endpoint",
        description: `% of prompt tokens served from cache in each interval, one line per endpoint that does prefill (${
          prefill.map((e) => e.label).join(", ") || "none"
        })${
          decode > 0 ? `; ${decode} decode endpoint${decode === 1 ? " has" : "s have"} no prefill to hit` : ""
        }`,
        definition: SERVER_INTERVALS,
        missing: MISSING.hitRate,
        y: { label: "hit rate", unit: HIT_RATE_UNIT, domain: [0, 100] },
        series: perEndpoint("hitRate", 100, prefill),
      };
    }
    case "kvUsage":
      return {
        ...base,
        exportName: "kv-usage-percent-per-endpoint",
        title: "KV cache usage — per endpoint",
        description: `Mean usage per interval, one line per endpoint (${n}); 100% = its capacity`,
        definition: KV_DEFINITION,
        missing: MISSING.kvUsage,
        y: { label: "KV usage", unit: KV_USAGE_UNIT, domain: [0, 100] },
        series: perEndpoint("kvUsage", 100),
        levels: [{ y: 100, label: "capacity" }],
      };
    case "running":
    case "waiting":
      return {
        ...base,
        exportName: `requests-${metric}-per-endpoint`,
        title: `${metric === "running" ? "Running" : "Waiting"} requests — per endpoint`,
        description: `Requests ${metric} per interval, one line per endpoint (${n})`,
        definition: SERVER_GAUGE,
        missing: `No interval has a ${metric}-requests gauge (vllm:num_requests_${metric}, trtllm_num_requests_${metric}, ${
          metric === "running" ? "sglang:num_running_reqs" : "sglang:num_queue_reqs"
        }).`,
        y: { label: `requests ${metric}`, unit: "" },
        series: perEndpoint(metric, 1),
      };
    case "offload": {
      const { measured, out } = offloadFields(all);
      const { unit, divisor } = rateUnit(all, [out]);
      return {
        ...base,
        exportName: "offload-over-time-per-endpoint",
        title: `KV offload over time, GPU → CPU — per endpoint`,
        description: `${measured ? "Bandwidth" : "Traffic"}, ${unit} per interval from GPU to CPU memory, one line per endpoint (${n})`,
        definition: offloadDefinition(measured),
        missing: MISSING.offload,
        y: { label: measured ? "bandwidth" : "traffic", unit },
        series: perEndpoint(out, 1 / divisor),
      };
    }
  }
}
