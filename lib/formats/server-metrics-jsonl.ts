/**
 * aiperf `server_metrics_export.jsonl` (docs/formats.md §Server metrics): one raw cumulative scrape
 * per (time, endpoint), baseline and warmup included. Every sample is kept: the profiling window is
 * known only once the run's records and summary are read too, and server-metrics/scrape-set.ts
 * cuts it then, exactly as aiperf does for its JSON export. Lines marked `benchmark_phase` other
 * than "profiling" (written by some builds) are noted, to place the phase without a summary.
 */
import type { Readable } from "node:stream";
import { normalizeEndpoint } from "@/lib/formats/endpoint";
import { KNOWN_COUNTERS } from "@/lib/formats/server-metrics/catalog";
import { cutScrapes, type ScrapeLog, type ScrapedSeries } from "@/lib/formats/server-metrics/scrape-set";
import { canonicalName, type MetricSet, type MetricType } from "@/lib/formats/server-metrics/types";
import { JsonLineParser, PARSE_FAILED, type WarningLog } from "./json-lines";
import { readLineBatches } from "./read-lines";
import { badSample, badValueWarning } from "./server-metrics/bad-values";
import { Column } from "./server-metrics/column";
import { toLabels, toNumber } from "./server-metrics-json";

/** One endpoint's scrapes: their times once, shared by its series (one line = one scrape). */
interface EndpointScrapes {
  endpoint: string;
  times: Column;
  /** 1 where the scrape's line is marked as warmup (`benchmark_phase`), else 0. */
  warmup: Column;
  families: Map<string, Family>;
}

/** One metric family of one endpoint: its series by label text, and by position in a scrape's list as a guess. */
interface Family {
  /** The canonical family name (no `_total`). */
  name: string;
  /** The name says counter (`_total`, or a known counter family); a sample with buckets says histogram. */
  counterByName: boolean;
  byLabels: Map<string, Track>;
  byPosition: (Track | undefined)[];
}

interface Track {
  name: string;
  type: MetricType;
  endpoint: string;
  labels: Record<string, string>;
  /** The label keys and values of the first sample, when all values are JSON scalars (compared without serialising). */
  labelKeys: string[] | null;
  labelValues: unknown[];
  scrapes: EndpointScrapes;
  v: Column;
  /** Histograms: the running `_count` beside the `_sum` in `v`. */
  count: Column | null;
  /** Scrape number of sample 0 while the samples are one per consecutive scrape; else null and `at` lists them. */
  firstScrape: number;
  at: number[] | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function inferType(rawName: string, sample: Record<string, unknown>): MetricType {
  if (isObject(sample.buckets) || isObject(sample.histogram)) return "histogram";
  if (rawName.endsWith("_total") || KNOWN_COUNTERS.has(canonicalName(rawName))) return "counter";
  return "gauge";
}

/**
 * Whether `labels` serialise to the same text as the track's first sample's labels, without
 * serialising: same keys in the same order with the same scalar values. False only sends the
 * caller to the text comparison, so anything unusual (nested values, arrays, null) answers false.
 */
function sameLabels(track: Track, labels: unknown): boolean {
  const keys = track.labelKeys;
  if (keys === null) return false;
  if (labels === undefined || track.labelValues === ABSENT)
    return labels === undefined && track.labelValues === ABSENT;
  if (!isObject(labels)) return false;
  const values = track.labelValues;
  let i = 0;
  for (const k in labels) {
    if (i >= keys.length || k !== keys[i] || labels[k] !== values[i]) return false;
    i++;
  }
  return i === keys.length;
}

/** `labelValues` of a track whose samples carry no `labels` key. */
const ABSENT: unknown[] = [];

function labelShape(labels: unknown): Pick<Track, "labelKeys" | "labelValues"> {
  if (labels === undefined) return { labelKeys: [], labelValues: ABSENT };
  if (!isObject(labels)) return { labelKeys: null, labelValues: [] };
  const labelKeys: string[] = [];
  const labelValues: unknown[] = [];
  for (const k in labels) {
    const x = labels[k];
    if (x !== null && typeof x === "object") return { labelKeys: null, labelValues: [] };
    labelKeys.push(k);
    labelValues.push(x);
  }
  return { labelKeys, labelValues };
}

function pushSample(track: Track, scrape: number, v: number, count: number): void {
  const n = track.v.length;
  if (n === 0) {
    track.firstScrape = scrape;
    track.at = null;
  } else if (track.at === null && track.firstScrape + n !== scrape)
    track.at = Array.from({ length: n }, (_, j) => track.firstScrape + j);
  track.at?.push(scrape);
  track.v.push(v);
  track.count?.push(count);
}

/** The track's sample times: a view of its endpoint's scrape times, or gathered when it skipped scrapes. */
function timesOf(track: Track, of: "times" | "warmup" = "times"): Float64Array {
  const times = track.scrapes[of];
  if (track.at === null) return times.slice(track.firstScrape, track.firstScrape + track.v.length);
  return Float64Array.from(track.at, (j) => times.get(j));
}

/** The export cut to the window its own lines place (marked phase, else the scrape span). */
export async function readServerMetricsJsonl(
  stream: Readable,
  warnings: WarningLog,
  result: { records: number; skipped: number },
  maxLineBytes: number,
): Promise<MetricSet> {
  return cutScrapes(await readScrapeLog(stream, warnings, result, maxLineBytes), null);
}

export async function readScrapeLog(
  stream: Readable,
  warnings: WarningLog,
  result: { records: number; skipped: number },
  maxLineBytes: number,
): Promise<ScrapeLog> {
  const byUrl = new Map<string, EndpointScrapes>();
  const byEndpoint = new Map<string, EndpointScrapes>();
  /** Every track in order of appearance (the order of the series). */
  const tracks: Track[] = [];
  /** Per endpoint: every scrape's span, and the span of the scrapes marked "profiling". */
  const spans = new Map<string, { first: number; last: number }>();
  const marked = new Map<string, { first: number; last: number }>();
  let sawWarmup = false;
  const lines = { skipped: 0 };
  const parser = new JsonLineParser(warnings, lines);
  for await (const batch of readLineBatches(stream, parser.report, { maxLineBytes })) {
    for (const { lineNo, text } of batch) {
      const value = parser.parse(lineNo, text);
      if (value === PARSE_FAILED) continue;
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
      let ep = byUrl.get(value.endpoint_url);
      if (!ep) {
        const endpoint = normalizeEndpoint(value.endpoint_url);
        ep = byEndpoint.get(endpoint);
        if (!ep) {
          ep = { endpoint, times: new Column(), warmup: new Column(), families: new Map() };
          byEndpoint.set(endpoint, ep);
        }
        byUrl.set(value.endpoint_url, ep);
      }
      const endpoint = ep.endpoint;
      widen(spans, endpoint, t);
      const warmup = typeof value.benchmark_phase === "string" && value.benchmark_phase !== "profiling";
      if (warmup) sawWarmup = true;
      else widen(marked, endpoint, t);
      const scrape = ep.times.length;
      ep.times.push(t);
      ep.warmup.push(warmup ? 1 : 0);
      const metrics = value.metrics;
      for (const rawName in metrics) {
        const samples = metrics[rawName];
        if (!Array.isArray(samples)) continue;
        let family = ep.families.get(rawName);
        for (let i = 0; i < samples.length; i++) {
          const s: unknown = samples[i];
          if (!isObject(s)) continue;
          if (!family) {
            const name = canonicalName(rawName);
            const counterByName = rawName.endsWith("_total") || KNOWN_COUNTERS.has(name);
            family = { name, counterByName, byLabels: new Map(), byPosition: [] };
            ep.families.set(rawName, family);
          }
          const type: MetricType =
            isObject(s.buckets) || isObject(s.histogram)
              ? "histogram"
              : family.counterByName
                ? "counter"
                : "gauge";
          const v = toNumber(type === "histogram" ? s.sum : s.value);
          if (v === null) continue;
          const bad = badSample(family.name, type, v);
          if (bad) {
            // Left out before any delta: a counter that only ever read negative adds nothing.
            warnings.count(badValueWarning(family.name, bad));
            continue;
          }
          // Exporters write one series' labels in a stable order, so the raw text is a cheap key;
          // the series at the same position in the previous scrape is checked first, without it.
          let track = family.byPosition[i];
          if (track === undefined || !sameLabels(track, s.labels)) {
            const key = s.labels === undefined ? "" : JSON.stringify(s.labels);
            track = family.byLabels.get(key);
            if (!track) {
              track = {
                name: family.name,
                type,
                endpoint,
                labels: toLabels(s.labels),
                ...labelShape(s.labels),
                scrapes: ep,
                v: new Column(),
                count: type === "histogram" ? new Column() : null,
                firstScrape: 0,
                at: null,
              };
              family.byLabels.set(key, track);
              tracks.push(track);
            }
            family.byPosition[i] = track;
          }
          pushSample(track, scrape, v, track.count ? (toNumber(s.count) ?? 0) : 0);
        }
      }
    }
  }
  parser.finish();
  result.skipped += lines.skipped;

  return {
    spans,
    marked: sawWarmup ? marked : null,
    tracks: tracks.map((track): ScrapedSeries => ({
      name: track.name,
      type: track.type,
      endpoint: track.endpoint,
      labels: track.labels,
      times: () => timesOf(track),
      warmup: () => (sawWarmup ? timesOf(track, "warmup") : null),
      values: () => track.v.slice(),
      counts: () => track.count?.slice() ?? null,
      release: () => {
        track.v.release();
        track.count?.release();
      },
    })),
  };
}

function widen(spans: Map<string, { first: number; last: number }>, endpoint: string, t: number): void {
  const span = spans.get(endpoint);
  if (!span) spans.set(endpoint, { first: t, last: t });
  else {
    span.first = Math.min(span.first, t);
    span.last = Math.max(span.last, t);
  }
}
