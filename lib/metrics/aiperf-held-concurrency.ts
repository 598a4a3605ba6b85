/**
 * The concurrency an aiperf run actually held, read from its per-request records (docs/metrics.md
 * §Comparable runs, "Held concurrency"): aiperf's `effective_concurrency` average, which aiperf
 * only summarizes from 0.8 on; 0.6 and 0.7 records carry the stamps it is computed from.
 *
 * aiperf's definition (src/aiperf/analysis/sweepline.py `concurrency_sweep_line`,
 * src/aiperf/analysis/sweepline_stats.py `compute_time_weighted_stats`,
 * src/aiperf/metrics/accumulator.py `_inject_sweep_metrics`): every profiling record with both
 * `request_start_ns` and `request_end_ns` (as float64) adds +1 at its start and −1 at its end;
 * the step function's time-weighted average over the window from the first event to the last is
 * the figure. Its integral is Σ(end − start) over those records, so the average is that sum over
 * (last event − first event). At today's epoch each float64 stamp is a multiple of 256 ns, so the
 * sum is exact in any order and equals aiperf's own to the last digit.
 */

import { RECORDS_CONCURRENCY_WORDS } from "@/lib/api/source-words";

/**
 * The source named beside the figure read from records, in words (lib/api/source-words.ts keeps
 * the field names, and maps the text runs stored before to these words)
 */
export const RECORDS_CONCURRENCY_SOURCE = RECORDS_CONCURRENCY_WORDS;

/** The source named beside aiperf's own figure */
export const SUMMARY_CONCURRENCY_SOURCE = "aiperf summary: effective concurrency";

interface Span {
  first: number;
  last: number;
  inFlightNs: number;
  records: number;
}

/**
 * Accumulates each profiling record's span per trial folder. Warm-up records are left out as
 * aiperf leaves them out of its profiling summary; errored and cancelled records count, as aiperf's
 * column store holds them. Records whose start or end is not a stamp of their own (aiperf 0.1
 * wrote one `timestamp_ns` and no end) are counted as missing, never guessed.
 */
export class HeldConcurrency {
  private spans = new Map<string, Span>();
  private current = "";
  /** Profiling records without both `request_start_ns` and `request_end_ns` */
  missing = 0;

  /** The trial folder the next records belong to (pooled trials ran at different times). */
  trial(dir: string): void {
    this.current = dir;
  }

  add(startNs: bigint | null, endNs: bigint | null, stamped: boolean, warmup: boolean): void {
    if (warmup) return;
    if (!stamped || startNs === null || endNs === null) {
      this.missing++;
      return;
    }
    // float64, as aiperf's column store holds each stamp
    const s = Number(startNs);
    const e = Number(endNs);
    let span = this.spans.get(this.current);
    if (!span) this.spans.set(this.current, (span = { first: s, last: e, inFlightNs: 0, records: 0 }));
    span.first = Math.min(span.first, s, e);
    span.last = Math.max(span.last, s, e);
    span.inFlightNs += e - s;
    span.records++;
  }

  /** Run info entries (`effectiveConcurrency…`), or {} when no record was read. */
  info(): Record<string, number | string> {
    return heldConcurrencyInfo([...this.spans.values()], this.missing);
  }
}

/**
 * The held concurrency of one run from its trials' spans: Σ in-flight time over Σ window (one
 * trial: aiperf's figure; pooled trials: each over its own window, the time between them left
 * out), how many records it is over and how many lacked the stamps.
 */
export function heldConcurrencyInfo(
  spans: readonly Span[],
  missing: number,
): Record<string, number | string> {
  let inFlight = 0;
  let window = 0;
  let records = 0;
  for (const s of spans) {
    inFlight += s.inFlightNs;
    window += s.last - s.first;
    records += s.records;
  }
  const out: Record<string, number | string> = {};
  if (records > 0 && window > 0) {
    out.effectiveConcurrency = inFlight / window;
    out.effectiveConcurrencySource = RECORDS_CONCURRENCY_SOURCE;
    out.effectiveConcurrencyCount = records;
  }
  if (missing > 0) out.effectiveConcurrencyMissing = missing;
  return out;
}
