/**
 * aiperf `server_metrics_export.json` (schema 1.0, docs/formats.md §Server metrics) → MetricSet.
 * Only `metrics` is read for numbers; `warmup_metrics` (a fork-only key) is ignored on purpose.
 * aiperf computed the counters over the profiling phase, whose length is `summary.start_time` →
 * `end_time`; `endpoint_info.duration_seconds` is the scrape span (baseline and warmup included)
 * and is the window only when the export has no phase times.
 */
import type { Readable } from "node:stream";
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
import { PARSE_FAILED, parseJsonText, type WarningLog } from "./json-lines";
import { dropBadSeries } from "./server-metrics/bad-values";

export async function readWholeText(stream: Readable, maxBytes: number): Promise<string | null> {
  const parts: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      stream.destroy();
      return null;
    }
    parts.push(chunk);
  }
  let text = Buffer.concat(parts, bytes).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}

function isObject(v: unknown): v is Record<string, unknown> {
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

function toType(t: unknown, name: string): MetricType {
  if (t === "counter" || t === "histogram") return t;
  if (name.endsWith("_info")) return "info";
  return "gauge";
}

function toSlices(raw: unknown, type: MetricType): Slices | undefined {
  if (!Array.isArray(raw)) return undefined;
  const start: number[] = [];
  const end: number[] = [];
  const value: number[] = [];
  const max: number[] = [];
  for (const ts of raw) {
    if (!isObject(ts)) continue;
    const startNs = toNumber(ts.start_ns);
    const endNs = toNumber(ts.end_ns);
    const v = toNumber(type === "counter" ? ts.total : type === "histogram" ? ts.sum : ts.avg);
    if (startNs === null || endNs === null || v === null) continue;
    start.push(startNs);
    end.push(endNs);
    value.push(v);
    max.push((type === "gauge" ? toNumber(ts.max) : null) ?? v);
  }
  return {
    startNs: Float64Array.from(start),
    endNs: Float64Array.from(end),
    value: Float64Array.from(value),
    max: Float64Array.from(max),
  };
}

export function parseServerMetricsJson(doc: unknown, warnings: WarningLog): MetricSet {
  const set = emptyMetricSet();
  if (!isObject(doc) || !isObject(doc.metrics)) {
    warnings.add("no `metrics` object in the server-metrics export");
    return set;
  }
  for (const [rawName, metric] of Object.entries(doc.metrics)) {
    if (!isObject(metric) || !Array.isArray(metric.series)) {
      warnings.add(`metric ${rawName}: no series list`);
      continue;
    }
    const type = toType(metric.type, rawName);
    const name = canonicalName(rawName);
    for (const s of metric.series) {
      if (!isObject(s)) continue;
      const stats: Record<string, number> = {};
      if (isObject(s.stats))
        for (const [k, v] of Object.entries(s.stats)) {
          const n = toNumber(v);
          if (n !== null) stats[k] = n;
        }
      const endpoint =
        typeof s.endpoint_url === "string" ? normalizeEndpoint(s.endpoint_url) : UNKNOWN_ENDPOINT;
      set.series.push({
        name,
        type,
        endpoint,
        labels: toLabels(s.labels),
        stats,
        slices: toSlices(s.timeslices, type),
      });
    }
  }
  const summary = isObject(doc.summary) ? doc.summary : {};
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

export async function readServerMetricsJson(
  stream: Readable,
  warnings: WarningLog,
  maxBytes: number,
): Promise<MetricSet | null> {
  const text = await readWholeText(stream, maxBytes);
  if (text === null) {
    warnings.add(`the server-metrics JSON is larger than the ${maxBytes}-byte document limit`);
    return null;
  }
  const doc = parseJsonText(text.trim());
  if (doc === PARSE_FAILED) {
    warnings.add("the server-metrics JSON is not valid JSON (truncated?)");
    return null;
  }
  return parseServerMetricsJson(doc, warnings);
}
