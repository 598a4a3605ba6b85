/**
 * Raw scrapes (aiperf's JSONL export) cut to one window, the way aiperf's server-metrics
 * accumulator cuts them for its JSON export (docs/metrics.md §Server metrics, "The window"):
 * - samples at or after the window start are in it (aiperf ends the window at the later of the
 *   phase end and the last scrape, so nothing after the start is left out);
 * - a counter's delta starts from the last sample before the start (the reference), so the
 *   traffic between that scrape and the first one inside is counted, and none before it;
 * - gauges are averaged over the samples inside.
 * Every endpoint is cut on one time grid that starts at the window start, so the intervals of
 * "All endpoints" line up even though each endpoint's first scrape differs by tens of ms.
 */
import { counterSlices, counterTotal, gaugeSlices, gaugeStats, sliceDurationNs } from "./scrape-window";
import { emptyMetricSet, type MetricSet, type MetricType, type Slices } from "./types";

/** The profiling phase on the scrapes' epoch-ns clock, and where it came from. */
export interface PhaseWindow {
  startNs: number;
  endNs: number;
  source: string;
}

/** One series' samples, read out one series at a time (a long run's columns are large). */
export interface ScrapedSeries {
  name: string;
  type: MetricType;
  endpoint: string;
  labels: Record<string, string>;
  times(): Float64Array;
  /** 1 per sample whose line is marked as warmup; null when no line of the export is. */
  warmup(): Float64Array | null;
  values(): Float64Array;
  /** Histograms: the running `_count` beside the `_sum` in `values`. */
  counts(): Float64Array | null;
  release(): void;
}

export interface ScrapeLog {
  /** Per endpoint: first and last scrape. */
  spans: Map<string, { first: number; last: number }>;
  /** Per endpoint: first and last scrape not marked as warmup, when some lines are (`benchmark_phase`). */
  marked: Map<string, { first: number; last: number }> | null;
  tracks: ScrapedSeries[];
}

/** The run's first and last scrape over every endpoint, or null without scrapes. */
export function scrapeSpan(log: ScrapeLog): { firstNs: number; lastNs: number } | null {
  let firstNs = Infinity;
  let lastNs = -Infinity;
  for (const s of log.spans.values()) {
    firstNs = Math.min(firstNs, s.first);
    lastNs = Math.max(lastNs, s.last);
  }
  return Number.isFinite(firstNs) ? { firstNs, lastNs } : null;
}

/** How every window that is not the profiling phase is named (JSON, JSONL and CSV readers alike). */
export const SCRAPE_SPAN_PREFIX = "scrape span";
const SCRAPE_SPAN =
  "scrape span, baseline and warmup included (upload profile_export_aiperf.json or profile_export.jsonl for the profiling phase)";
const MARKED = "profiling phase, scrapes not marked as warmup (benchmark_phase)";

/** Indexes of the samples from the first one not marked as warmup on, warmup ones left out. */
function profilingSamples(marks: Float64Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < marks.length; i++) if (marks[i] === 0) out.push(i);
  return out;
}

/** The interval the window ends in ends with it (a partial interval, as aiperf's last timeslice). */
function clipLast(slices: Slices, endNs: number): Slices {
  const n = slices.endNs.length;
  if (n > 0 && slices.endNs[n - 1] > endNs && endNs > slices.startNs[n - 1]) slices.endNs[n - 1] = endNs;
  return slices;
}

/** Index of the first of `t` (ascending) at or after `x`. */
function firstAtOrAfter(t: Float64Array, x: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Cuts every series to the window: the given phase; else, per endpoint, its scrapes not marked
 * as warmup; else the whole scrape span, which counts the baseline and warmup and says so. The
 * intervals start at the earliest window start of the run, for all endpoints alike.
 */
export function cutScrapes(log: ScrapeLog, phase: PhaseWindow | null): MetricSet {
  const set = emptyMetricSet();
  const own = phase ? log.spans : (log.marked ?? log.spans);
  const source = phase ? phase.source : log.marked ? MARKED : SCRAPE_SPAN;
  /** Per endpoint: where its window starts and its last scrape (the rate's end, as in aiperf). */
  const cut = new Map<string, { startNs: number; lastNs: number }>();
  let gridStart = Infinity;
  let gridEnd = phase ? phase.endNs : -Infinity;
  for (const [ep, span] of own) {
    const last = log.spans.get(ep)?.last ?? span.last;
    const startNs = phase ? phase.startNs : span.first;
    cut.set(ep, { startNs, lastNs: phase ? last : span.last });
    gridStart = Math.min(gridStart, startNs);
    gridEnd = Math.max(gridEnd, phase ? last : span.last);
    const durationS = phase ? (phase.endNs - phase.startNs) / 1e9 : (span.last - span.first) / 1e9;
    set.windows.set(ep, { durationS, source });
  }
  if (!Number.isFinite(gridStart)) return set;
  const step = sliceDurationNs(gridEnd - gridStart);
  for (const track of log.tracks) {
    const window = cut.get(track.endpoint);
    let t = track.times();
    let fp = window ? firstAtOrAfter(t, window.startNs) : t.length;
    if (!window || fp === t.length) {
      track.release();
      continue;
    }
    let v = track.values();
    let counts = track.counts();
    let ref = Math.max(0, fp - 1);
    const marks = phase ? null : track.warmup();
    if (marks) {
      // Marked lines decide, not times: the last warmup sample before the first profiling one is
      // the reference, and a warmup sample after it is left out.
      const keep = profilingSamples(marks);
      if (keep.length === 0) {
        track.release();
        continue;
      }
      const from = keep[0] > 0 ? keep[0] - 1 : 0;
      const pick = from < keep[0] ? [from, ...keep] : keep;
      const take = (x: Float64Array) => Float64Array.from(pick, (i) => x[i]);
      t = take(t);
      v = take(v);
      counts = counts && take(counts);
      fp = from < keep[0] ? 1 : 0;
      ref = 0;
    }
    const base = { name: track.name, type: track.type, endpoint: track.endpoint, labels: track.labels };
    if (track.type === "gauge") {
      const inside = { t: t.subarray(fp), v: v.subarray(fp) };
      const slices = clipLast(gaugeSlices(inside, gridStart, step), gridEnd);
      set.series.push({ ...base, stats: gaugeStats(inside), slices });
    } else {
      // From the reference sample (the last one before the window) on, as aiperf's deltas.
      const counted = { t: t.subarray(ref), v: v.subarray(ref) };
      const total = counterTotal(counted);
      // aiperf's rate: the delta over the time from the reference to the endpoint's last scrape.
      const rateS = (window.lastNs - (fp > 0 ? t[ref] : window.startNs)) / 1e9;
      const stats: Record<string, number> =
        track.type === "histogram"
          ? { sum: total, count: counts ? counterTotal({ t: counted.t, v: counts.subarray(ref) }) : 0 }
          : rateS > 0
            ? { total, rate: total / rateS }
            : { total };
      const slices = clipLast(counterSlices(counted, gridStart, step), gridEnd);
      // The same sample times, so the count intervals line up one for one with the sum ones.
      if (track.type === "histogram" && counts)
        slices.count = counterSlices({ t: counted.t, v: counts.subarray(ref) }, gridStart, step).value;
      set.series.push({ ...base, stats, slices });
    }
    // The samples are folded into the series: let them go before the next track's slices are built.
    track.release();
  }
  return set;
}
