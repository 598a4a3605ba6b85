/**
 * The one in-memory shape every server-metrics input is read into (aiperf JSON, CSV, raw JSONL
 * scrapes, plain Prometheus text), so the formulas in this folder never care where a number
 * came from. Stats follow aiperf's window semantics: a counter's `total` is the delta over the
 * profiling window (resets clamped), a gauge's `avg`/`max` are over the in-window samples.
 */
export type MetricType = "gauge" | "counter" | "histogram" | "info";

/**
 * A series' intervals as parallel columns, index i being one interval: a long run has about a
 * million intervals, and one object each (four boxed doubles) cost ~120 bytes against 32 here.
 */
export interface Slices {
  startNs: Float64Array;
  endNs: Float64Array;
  /** The counter delta, the gauge mean or the histogram sum. */
  value: Float64Array;
  /** Gauges: the largest sample in the interval; otherwise (or when the input has none) the value. */
  max: Float64Array;
  /**
   * Histograms only, where the input has it: the observations in the interval, so a mean per
   * interval (Δsum / Δcount, e.g. the router's predicted hit rate) can be read.
   */
  count?: Float64Array;
}

export interface MetricSeries {
  /** Family name with a trailing `_total` removed, so both spellings match (trap T4). */
  name: string;
  type: MetricType;
  /** normalizeEndpoint(endpoint_url), or UNKNOWN_ENDPOINT when the export has none. */
  endpoint: string;
  labels: Record<string, string>;
  /** counter: total (+ rate); gauge: avg, min, max; histogram: count, sum. */
  stats: Record<string, number>;
  slices?: Slices;
}

/**
 * The window an endpoint's counter deltas and rates cover (docs/metrics.md §Server metrics, "The
 * window"): the profiling phase when the inputs place it, else the span of the scrapes.
 */
export interface EndpointWindow {
  durationS: number | null;
  /** What the window is and where it came from, shown beside the numbers. */
  source: string;
}

export interface MetricSet {
  series: MetricSeries[];
  windows: Map<string, EndpointWindow>;
}

/** Key for series whose export carries no `endpoint_url` (hand-written or single-endpoint exports). */
export const UNKNOWN_ENDPOINT = "(unnamed endpoint)";

export function emptyMetricSet(): MetricSet {
  return { series: [], windows: new Map() };
}

/** Counter families lose `_total` in aiperf (prometheus_client strips it) but keep it elsewhere. */
export function canonicalName(raw: string): string {
  return raw.endsWith("_total") ? raw.slice(0, -"_total".length) : raw;
}

export function mergeMetricSets(into: MetricSet, from: MetricSet): void {
  for (const s of from.series) into.series.push(s);
  for (const [ep, w] of from.windows) {
    const prev = into.windows.get(ep);
    if (!prev || (prev.durationS ?? 0) < (w.durationS ?? 0)) into.windows.set(ep, w);
  }
}
