/**
 * aiperf `server_metrics_export.json` (schema 1.0, docs/formats.md §Server metrics) → MetricSet.
 * Only `metrics` is read for numbers; `warmup_metrics` (a fork-only key) is ignored on purpose.
 * aiperf computed the counters over the profiling phase, whose length is `summary.start_time` →
 * `end_time`; `endpoint_info.duration_seconds` is the scrape span (baseline and warmup included)
 * and is the window only when the export has no phase times.
 *
 * Uploads are read by the streaming reader (server-metrics-json-stream.ts); `parseServerMetricsJson`
 * reads a document already parsed. Both hand their raw metrics to `assembleMetricSet`, so the
 * rules below are written once.
 */
import { normalizeEndpoint } from "@/lib/formats/endpoint";
import {
  canonicalName,
  emptyMetricSet,
  UNKNOWN_ENDPOINT,
  type MetricSet,
  type MetricType,
  type Slices,
} from "@/lib/formats/server-metrics/types";
import { wallClockSpanS } from "./aiperf-wall-clock";
import type { WarningLog } from "./json-lines";
import { dropBadSeries } from "./server-metrics/bad-values";

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Numbers may arrive as strings; NaN/Infinity were already turned into null. */
export function toNumber(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

export function toLabels(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(v)) return out;
  for (const [k, val] of Object.entries(v)) if (val !== null && val !== undefined) out[k] = String(val);
  return out;
}

/** A family's type from its `type` member and its name. */
export function toType(t: unknown, name: string): MetricType {
  if (t === "counter" || t === "histogram") return t;
  if (name.endsWith("_info")) return "info";
  return "gauge";
}

/** The timeslice fields read, in column order; which one is the value depends on the metric type. */
export const SLICE_FIELDS = ["start_ns", "end_ns", "total", "sum", "avg", "max", "count"] as const;
const FIELDS = SLICE_FIELDS.length;
const [START, END, TOTAL, SUM, AVG, MAX, COUNT] = [0, 1, 2, 3, 4, 5, 6];

/**
 * A series' timeslices as read, before the metric's type is known (aiperf writes `type` first,
 * but JSON does not promise it): each field's number, NaN where it is missing or not a number.
 */
export class SliceColumns {
  private data = new Float64Array(FIELDS * 64);
  private rows = 0;
  private built: { type: MetricType; slices: Slices } | null = null;

  /** `row` holds one timeslice's fields in SLICE_FIELDS order. */
  push(row: Float64Array): void {
    if ((this.rows + 1) * FIELDS > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    const o = this.rows * FIELDS;
    for (let f = 0; f < FIELDS; f++) d[o + f] = row[f];
    this.rows++;
  }

  /** One timeslice object of a parsed document. */
  pushObject(ts: Record<string, unknown>, row: Float64Array): void {
    for (let f = 0; f < FIELDS; f++) row[f] = toNumber(ts[SLICE_FIELDS[f]]) ?? NaN;
    this.push(row);
  }

  /**
   * Builds the intervals now that the type is known and lets the read columns go: a streamed
   * export holds every family until it ends, and 6 growing columns per series would be twice
   * what the 4 kept ones need.
   */
  freeze(type: MetricType): void {
    this.built = { type, slices: this.toSlices(type) };
    this.data = new Float64Array(0);
    this.rows = 0;
  }

  /** The intervals of a `type` series; an interval without start, end or value is left out. */
  toSlices(type: MetricType): Slices {
    if (this.built?.type === type) return this.built.slices;
    const valueField = type === "counter" ? TOTAL : type === "histogram" ? SUM : AVG;
    const d = this.data;
    let kept = 0;
    for (let r = 0; r < this.rows; r++) {
      const o = r * FIELDS;
      if (!Number.isNaN(d[o + START]) && !Number.isNaN(d[o + END]) && !Number.isNaN(d[o + valueField]))
        kept++;
    }
    const slices: Slices = {
      startNs: new Float64Array(kept),
      endNs: new Float64Array(kept),
      value: new Float64Array(kept),
      max: new Float64Array(kept),
    };
    const count = type === "histogram" ? new Float64Array(kept) : null;
    let withCount = 0;
    let k = 0;
    for (let r = 0; r < this.rows; r++) {
      const o = r * FIELDS;
      const v = d[o + valueField];
      if (Number.isNaN(d[o + START]) || Number.isNaN(d[o + END]) || Number.isNaN(v)) continue;
      slices.startNs[k] = d[o + START];
      slices.endNs[k] = d[o + END];
      slices.value[k] = v;
      const max = d[o + MAX];
      slices.max[k] = type === "gauge" && !Number.isNaN(max) ? max : v;
      if (count) {
        const c = d[o + COUNT];
        count[k] = Number.isNaN(c) ? 0 : c;
        if (!Number.isNaN(c)) withCount++;
      }
      k++;
    }
    // Every interval needs its count, or a per-interval mean would read a gap as zero observations.
    if (count && kept > 0 && withCount === kept) slices.count = count;
    return slices;
  }
}

/** One series as read: the raw `endpoint_url`, `labels` and `stats` values, and its timeslices. */
export interface RawSeries {
  endpointUrl: unknown;
  labels: unknown;
  stats: unknown;
  /** undefined when `timeslices` is not a list */
  slices: SliceColumns | undefined;
}

/** One metric family as read: its raw `type`, and its series (null when `series` is not a list). */
export interface RawMetric {
  type: unknown;
  series: RawSeries[] | null;
}

/**
 * The MetricSet of an export's metrics (null: not an object) in document order and its raw
 * `summary`: series named and typed, endpoint windows from the summary, bad series dropped.
 */
export function assembleMetricSet(
  metrics: Iterable<[string, RawMetric | null]> | null,
  summaryRaw: unknown,
  warnings: WarningLog,
): MetricSet {
  const set = emptyMetricSet();
  if (metrics === null) {
    warnings.add("no `metrics` object in the server-metrics export");
    return set;
  }
  for (const [rawName, metric] of metrics) {
    if (metric === null || metric.series === null) {
      warnings.add(`metric ${rawName}: no series list`);
      continue;
    }
    const type = toType(metric.type, rawName);
    const name = canonicalName(rawName);
    for (const s of metric.series) {
      const stats: Record<string, number> = {};
      if (isObject(s.stats))
        for (const [k, v] of Object.entries(s.stats)) {
          const n = toNumber(v);
          if (n !== null) stats[k] = n;
        }
      const endpoint =
        typeof s.endpointUrl === "string" ? normalizeEndpoint(s.endpointUrl) : UNKNOWN_ENDPOINT;
      set.series.push({
        name,
        type,
        endpoint,
        labels: toLabels(s.labels),
        stats,
        slices: s.slices?.toSlices(type),
      });
    }
  }
  const summary = isObject(summaryRaw) ? summaryRaw : {};
  const phaseS = wallClockSpanS(summary.start_time, summary.end_time);
  const info = isObject(summary.endpoint_info) ? summary.endpoint_info : {};
  const endpoints = new Set(set.series.map((s) => s.endpoint));
  for (const url of Object.keys(info)) endpoints.add(normalizeEndpoint(url));
  for (const [url, ei] of Object.entries(info)) {
    const d = isObject(ei) ? toNumber(ei.duration_seconds) : null;
    if (phaseS === null && d !== null && d > 0)
      set.windows.set(normalizeEndpoint(url), {
        durationS: d,
        source: "scrape span (endpoint_info.duration_seconds; the export has no start_time / end_time)",
      });
  }
  if (phaseS !== null)
    for (const ep of endpoints)
      set.windows.set(ep, {
        durationS: phaseS,
        source: "profiling phase, export summary start_time → end_time",
      });
  set.series = dropBadSeries(set.series, (m) => warnings.count(m));
  return set;
}

function rawMetric(metric: unknown): RawMetric | null {
  if (!isObject(metric)) return null;
  if (!Array.isArray(metric.series)) return { type: metric.type, series: null };
  const row = new Float64Array(FIELDS);
  const series: RawSeries[] = [];
  for (const s of metric.series) {
    if (!isObject(s)) continue;
    let slices: SliceColumns | undefined;
    if (Array.isArray(s.timeslices)) {
      slices = new SliceColumns();
      for (const ts of s.timeslices) if (isObject(ts)) slices.pushObject(ts, row);
    }
    series.push({ endpointUrl: s.endpoint_url, labels: s.labels, stats: s.stats, slices });
  }
  return { type: metric.type, series };
}

/** An export already parsed into a value (tests, and documents that came whole). */
export function parseServerMetricsJson(doc: unknown, warnings: WarningLog): MetricSet {
  const metrics =
    isObject(doc) && isObject(doc.metrics)
      ? Object.entries(doc.metrics).map(([name, m]): [string, RawMetric | null] => [name, rawMetric(m)])
      : null;
  return assembleMetricSet(metrics, isObject(doc) ? doc.summary : undefined, warnings);
}
