/**
 * The run's profiling phase on the epoch-nanosecond clock the scrapes use (docs/metrics.md
 * §Server metrics, "The window"). Server counters are cumulative and aiperf scrapes a baseline
 * before the run and the warmup too, so a delta over the scrape span counts traffic that is not
 * the benchmark's. The phase comes from two places, each with its own trap:
 * - aiperf's summaries write `start_time` / `end_time` with `datetime.fromtimestamp`: exact to
 *   the microsecond but in the aiperf host's local time, with no zone. The zone is recovered from
 *   the first request (or the scrapes) as a whole number of quarter hours, never assumed to be UTC.
 * - the records' first request start and last request end: true epoch times, but the phase
 *   starts a little before the first request is sent.
 */

import { wallClockNs } from "@/lib/formats/aiperf-wall-clock";

export interface ProfilingWindow {
  startNs: number;
  endNs: number;
  /** Where the window came from, in words the view shows. */
  source: string;
}

const NS_PER_S = 1e9;
/** Every time zone offset in use is a whole number of quarter hours. */
const QUARTER_HOUR_NS = 15 * 60 * NS_PER_S;
/** The summary's start may lead the first request by setup time, never by this much. */
const RECORD_SLACK_NS = 60 * NS_PER_S;

/**
 * Collects what the aiperf files say about the profiling phase while they stream in; the
 * server-metrics analyzer asks for the window once every file is read.
 */
export class ProfilingClock {
  private firstRequestNs = Infinity;
  private lastRequestNs = -Infinity;
  private summary: { startNs: number; endNs: number; zoned: boolean; file: string } | null = null;

  /** A profiling-phase record's request start and end (epoch ns; either may be missing). */
  noteRequest(startNs: number | null, endNs: number | null): void {
    if (startNs !== null && startNs < this.firstRequestNs) this.firstRequestNs = startNs;
    if (endNs !== null && endNs > this.lastRequestNs) this.lastRequestNs = endNs;
    if (startNs !== null && startNs > this.lastRequestNs) this.lastRequestNs = startNs;
  }

  /** A summary's `start_time` / `end_time`; the first readable pair is kept. */
  noteSummary(start: unknown, end: unknown, file: string): void {
    if (this.summary || typeof start !== "string" || typeof end !== "string") return;
    const a = wallClockNs(start);
    const b = wallClockNs(end);
    if (!a || !b || a.zoned !== b.zoned || !(b.ns > a.ns)) return;
    this.summary = { startNs: a.ns, endNs: b.ns, zoned: a.zoned, file };
  }

  /**
   * The window, or null when nothing places it on the epoch clock. `scrapes` (first and last
   * scrape of the run) places a zone-less summary when there are no records: aiperf scrapes from
   * before the phase starts until after it ends, so only one quarter-hour offset can fit unless
   * the run scraped for more than 15 minutes outside the phase.
   */
  resolve(scrapes: { firstNs: number; lastNs: number } | null = null): ProfilingWindow | null {
    const s = this.summary;
    const records = Number.isFinite(this.firstRequestNs);
    if (s) {
      const fromSummary = `profiling phase, ${s.file} start_time → end_time`;
      if (s.zoned) return { startNs: s.startNs, endNs: s.endNs, source: fromSummary };
      if (records) {
        const offset = Math.round((s.startNs - this.firstRequestNs) / QUARTER_HOUR_NS) * QUARTER_HOUR_NS;
        const lead = this.firstRequestNs - (s.startNs - offset);
        if (lead >= -RECORD_SLACK_NS && lead <= RECORD_SLACK_NS)
          return { startNs: s.startNs - offset, endNs: s.endNs - offset, source: fromSummary };
      } else if (scrapes) {
        const fits: number[] = [];
        const lo = Math.ceil((s.startNs - scrapes.lastNs) / QUARTER_HOUR_NS);
        const hi = Math.floor((s.startNs - scrapes.firstNs) / QUARTER_HOUR_NS);
        for (let k = lo; k <= hi && fits.length < 2; k++) {
          const offset = k * QUARTER_HOUR_NS;
          if (s.endNs - offset <= scrapes.lastNs + RECORD_SLACK_NS) fits.push(offset);
        }
        if (fits.length === 1)
          return { startNs: s.startNs - fits[0], endNs: s.endNs - fits[0], source: fromSummary };
      }
    }
    if (records && this.lastRequestNs > this.firstRequestNs)
      return {
        startNs: this.firstRequestNs,
        endNs: this.lastRequestNs,
        source: "profiling phase, first request start → last request end (profile_export.jsonl)",
      };
    return null;
  }
}
