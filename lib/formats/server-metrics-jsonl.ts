/**
 * aiperf `server_metrics_export.jsonl` (reference/aiperf.md §2.7c): one raw cumulative scrape
 * per (time, endpoint). Window totals, gauge stats and timeslices are computed here exactly as
 * aiperf computes them for its JSON export, so the three exports of one run agree. Lines marked
 * `benchmark_phase` other than "profiling" are warmup: the last one is the counters' reference.
 */
import type { Readable } from "node:stream";
import { normalizeEndpoint } from "@/lib/metrics/endpoint";
import { KNOWN_COUNTERS } from "@/lib/metrics/server-metrics/catalog";
import {
  counterSlices,
  counterTotal,
  gaugeSlices,
  gaugeStats,
  sliceDurationNs,
  type ScrapeTrack,
} from "@/lib/metrics/server-metrics/scrape-window";
import {
  canonicalName,
  emptyMetricSet,
  type MetricSet,
  type MetricType,
} from "@/lib/metrics/server-metrics/types";
import { readJsonLines, type WarningLog } from "./json-lines";
import { toLabels, toNumber } from "./server-metrics-json";

interface Track extends ScrapeTrack {
  name: string;
  type: MetricType;
  endpoint: string;
  labels: Record<string, string>;
  /** Histograms: the running `_count` beside the `_sum` in `v`. */
  count?: number[];
  /** Index of the first profiling sample; earlier ones are warmup (only the last one is kept as reference). */
  firstProfiling: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function inferType(rawName: string, sample: Record<string, unknown>): MetricType {
  if (isObject(sample.buckets) || isObject(sample.histogram)) return "histogram";
  if (rawName.endsWith("_total") || KNOWN_COUNTERS.has(canonicalName(rawName))) return "counter";
  return "gauge";
}

export async function readServerMetricsJsonl(
  stream: Readable,
  warnings: WarningLog,
  result: { records: number; skipped: number },
  maxLineBytes: number,
): Promise<MetricSet> {
  const tracks = new Map<string, Track>();
  const spans = new Map<string, { first: number; last: number }>();
  const lines = { skipped: 0 };
  for await (const { lineNo, value } of readJsonLines(stream, warnings, lines, { maxLineBytes })) {
    if (!isObject(value) || typeof value.endpoint_url !== "string" || !isObject(value.metrics)) {
      result.skipped++;
      warnings.add("skipped line: not a server-metrics scrape (endpoint_url, metrics)", lineNo);
      continue;
    }
    const t = toNumber(value.timestamp_ns);
    if (t === null) {
      result.skipped++;
      warnings.add("skipped line: no timestamp_ns", lineNo);
      continue;
    }
    result.records++;
    const endpoint = normalizeEndpoint(value.endpoint_url);
    const warmup = typeof value.benchmark_phase === "string" && value.benchmark_phase !== "profiling";
    if (!warmup) {
      const span = spans.get(endpoint);
      spans.set(
        endpoint,
        span ? { first: Math.min(span.first, t), last: Math.max(span.last, t) } : { first: t, last: t },
      );
    }
    for (const [rawName, samples] of Object.entries(value.metrics)) {
      if (!Array.isArray(samples)) continue;
      for (const s of samples) {
        if (!isObject(s)) continue;
        const type = inferType(rawName, s);
        const v = toNumber(type === "histogram" ? s.sum : s.value);
        if (v === null) continue;
        // Exporters write one series' labels in a stable order, so the raw text is a cheap key.
        const key = `${endpoint}\u0000${rawName}\u0000${s.labels === undefined ? "" : JSON.stringify(s.labels)}`;
        let track = tracks.get(key);
        if (!track) {
          const labels = toLabels(s.labels);
          track = { name: canonicalName(rawName), type, endpoint, labels, t: [], v: [], firstProfiling: -1 };
          if (type === "histogram") track.count = [];
          tracks.set(key, track);
        }
        if (warmup && track.firstProfiling === -1) {
          // Keep only the latest warmup sample: it is the reference the window delta starts from.
          track.t.length = 0;
          track.v.length = 0;
          if (track.count) track.count.length = 0;
        } else if (!warmup && track.firstProfiling === -1) track.firstProfiling = track.t.length;
        else if (warmup) continue;
        track.t.push(t);
        track.v.push(v);
        track.count?.push(toNumber(s.count) ?? 0);
      }
    }
  }
  result.skipped += lines.skipped;

  const set = emptyMetricSet();
  for (const [ep, span] of spans) set.windows.set(ep, { durationS: (span.last - span.first) / 1e9 });
  for (const track of tracks.values()) {
    if (track.firstProfiling === -1) continue;
    const span = spans.get(track.endpoint);
    const startNs =
      track.firstProfiling > 0 ? track.t[track.firstProfiling - 1] : (span?.first ?? track.t[0]);
    const endNs = span?.last ?? track.t[track.t.length - 1];
    const step = sliceDurationNs(endNs - startNs);
    const base = { name: track.name, type: track.type, endpoint: track.endpoint, labels: track.labels };
    if (track.type === "gauge") {
      const inWindow = { t: track.t.slice(track.firstProfiling), v: track.v.slice(track.firstProfiling) };
      set.series.push({ ...base, stats: gaugeStats(inWindow), slices: gaugeSlices(inWindow, startNs, step) });
      continue;
    }
    const total = counterTotal(track);
    const durationS = (endNs - startNs) / 1e9;
    const stats: Record<string, number> =
      track.type === "histogram"
        ? { sum: total, count: counterTotal({ t: track.t, v: track.count ?? [] }) }
        : durationS > 0
          ? { total, rate: total / durationS }
          : { total };
    set.series.push({ ...base, stats, slices: counterSlices(track, startNs, step) });
  }
  return set;
}
