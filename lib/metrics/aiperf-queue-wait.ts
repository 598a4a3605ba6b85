/**
 * Client-side queueing of an aiperf run read from its per-request records (docs/metrics.md
 * §Comparable runs, "Client-side queueing"): each profiling record's wait from the credit being
 * issued to the request being sent, aiperf's `credit_to_start_latency`
 * (src/aiperf/metrics/derived_latency.py), which aiperf only summarizes from 0.8 on; 0.6 and 0.7
 * records carry both stamps. The doctor's saturation reason reads what this yields.
 */
import { RECORDS_QUEUE_WAIT_WORDS } from "@/lib/api/source-words";
import { ChunkedColumn } from "./chunked-column";
import { QUEUE_WAIT_FLOOR_MS, QUEUE_WAIT_SHARE } from "./run-differences";
import { percentileSorted, sortedFinite } from "./stats";

/**
 * The source named beside the figures read from records, in words (lib/api/source-words.ts keeps
 * the field names, and maps the text runs stored before to these words)
 */
export const RECORDS_QUEUE_WAIT_SOURCE = RECORDS_QUEUE_WAIT_WORDS;

/**
 * Each profiling record's queue wait and its own TTFT (request latency where it has none), as
 * the records are read; warm-up records are aiperf's warm-up phase, left out as aiperf leaves
 * them out of its profiling summary. Errored and cancelled records count: aiperf's column store
 * holds them and its figure includes them.
 */
export class QueueWaits {
  /** Chunked as the read fills them (docs/performance.md §Ingest memory of an aiperf upload) */
  private waits = new ChunkedColumn(Float64Array);
  private refs = new ChunkedColumn(Float64Array);
  /** Profiling records without `credit_issued_ns` (or without `request_start_ns`) */
  missing = 0;

  add(waitMs: number | null, warmup: boolean, ttftMs: number | null, e2eMs: number | null): void {
    if (warmup) return;
    if (waitMs === null || !Number.isFinite(waitMs)) {
      this.missing++;
      return;
    }
    this.waits.push(waitMs);
    this.refs.push(ttftMs ?? e2eMs ?? NaN);
  }

  get count(): number {
    return this.waits.length;
  }

  /** Forgets the waits once the run's info is made (`missing` is kept). */
  release(): void {
    this.waits.release();
    this.refs.release();
  }

  /** Run info entries (`queueWait…`), or {} when no profiling record carries the stamps. */
  info(): Record<string, number | string> {
    return queueWaitFromRecords(this.waits.array(), this.refs.array(), this.missing);
  }
}

/**
 * The run's queue wait from its records: p50, p90, p99 and max over every profiling record with
 * both stamps (numpy's linear percentiles, as aiperf's `_array_to_metric_result`), how many
 * records that is, and how many **waited**: a wait of at least QUEUE_WAIT_FLOOR_MS and at least
 * QUEUE_WAIT_SHARE of the record's own TTFT (request latency where it has none), judged over the
 * records that have one of the two. An error with neither (a 500 before any token) is in the
 * percentiles but not judged. `missing` profiling records without the stamps are counted, never
 * read as a wait of 0.
 */
export function queueWaitFromRecords(
  waits: ArrayLike<number>,
  refs: ArrayLike<number>,
  missing = 0,
): Record<string, number | string> {
  if (waits.length === 0) return missing > 0 ? { queueWaitMissing: missing } : {};
  const sorted = sortedFinite(waits);
  let judged = 0;
  let waited = 0;
  for (let i = 0; i < waits.length; i++) {
    const ref = refs[i];
    if (!Number.isFinite(ref)) continue;
    judged++;
    if (waits[i] >= QUEUE_WAIT_FLOOR_MS && waits[i] >= QUEUE_WAIT_SHARE * ref) waited++;
  }
  const out: Record<string, number | string> = {
    queueWaitP50Ms: percentileSorted(sorted, 50),
    queueWaitP90Ms: percentileSorted(sorted, 90),
    queueWaitP99Ms: percentileSorted(sorted, 99),
    queueWaitMaxMs: sorted[sorted.length - 1],
    queueWaitCount: sorted.length,
    queueWaitSource: RECORDS_QUEUE_WAIT_SOURCE,
  };
  if (judged > 0) {
    out.queueWaitJudged = judged;
    out.queueWaited = waited;
  }
  if (missing > 0) out.queueWaitMissing = missing;
  return out;
}
