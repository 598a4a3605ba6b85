/**
 * Issue 31, "No read blocks the server" (health within 100 ms throughout, an ingest included): an
 * aiperf upload's run-over-time charts (sampled latencies over time; throughput and in-flight
 * requests per bucket) are computed in steps, a turn of the event loop between two
 * (`aiperfRunResultInSteps`). Before, each was one synchronous step over every request: at
 * 200,000 records 77–151 ms of main-thread CPU in one slice (docs/reliability.md).
 *
 * Counted, never timed: the requests' start and end times read, and the values sorted natively,
 * between two steps of the summary's computation.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  aiperfRunResultInSteps,
  runOriginMs,
  type AiperfRunResult,
  type AiperfRunState,
} from "@/lib/metrics/aiperf-run-result";
import { GpuTelemetry } from "@/lib/metrics/gpu-telemetry";
import { ErrorTally } from "@/lib/metrics/requests-errors";
import { FLAG_ERROR, FLAG_WARMUP, RequestLog } from "@/lib/metrics/requests-log";

/**
 * Past SORT_STEP (16,384) values a sort, so each sort of the starts or the ends goes in steps, and
 * past 16,384 requests, so a pass over every request in one step (two times each) reads more than
 * the bound of 4 × TIMELINE_STEP. Planted at this size: a pass in one step (TIMELINE_STEP unbounded) reads 40,000
 * times in one step; a sort in one step (SORT_STEP unbounded) sorts 20,000 values in one.
 */
const RECORDS = 20_000;

/** Requests back to back on 32 workers, a few warm-up ones first, every 50th failed. */
function runLog(): RequestLog {
  const log = new RequestLog();
  const free = new Array<number>(32).fill(0);
  for (let i = 0; i < RECORDS; i++) {
    const w = i % 32;
    const ttftMs = 20 + ((i * 37) % 100);
    const outputTokens = 50 + ((i * 13) % 500);
    const e2eMs = ttftMs + 10 * (outputTokens - 1);
    const startMs = free[w] + 0.5;
    free[w] = startMs + e2eMs;
    const flags = i < 10 ? FLAG_WARMUP : i % 50 === 0 ? FLAG_ERROR : 0;
    log.add(
      {
        startNs: 1_762_551_940_000_000_000n + BigInt(Math.round(startMs * 1e6)),
        endNs: 1_762_551_940_000_000_000n + BigInt(Math.round(free[w] * 1e6)),
        ttftMs,
        e2eMs,
        itlMs: 10,
        inputTokens: 100 + ((i * 7) % 2000),
        outputTokens,
      },
      flags,
    );
  }
  return log;
}

/** The log's start and end columns behind a count of the values read from them. */
function countingTimes(log: RequestLog): { reads: number } {
  const seen = { reads: 0 };
  const cols = { ...log.cols };
  for (const k of ["startMs", "endMs"] as const) {
    const target = cols[k];
    cols[k] = new Proxy(target, {
      get(t, key) {
        if (typeof key === "string" && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) {
          seen.reads++;
          return t[Number(key)];
        }
        const v = Reflect.get(t, key, t) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
  }
  Object.defineProperty(log, "cols", { get: () => cols });
  return seen;
}

describe("an aiperf run's over-time charts in steps", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reads at most some thousands of requests' times, and sorts at most some thousands of values, a step", () => {
    const log = runLog();
    const originMs = runOriginMs(log);
    const state: AiperfRunState = {
      log,
      recordDirs: [{ dir: "", from: 0, to: RECORDS }],
      errors: new ErrorTally(),
      gpu: new GpuTelemetry(),
      summaries: [],
      notes: [],
      timeslices: [],
    };
    const times = countingTimes(log);
    let sorted = 0;
    const typed = Object.getPrototypeOf(Float64Array.prototype) as { sort(this: ArrayLike<number>): unknown };
    const sort = typed.sort;
    vi.spyOn(typed, "sort").mockImplementation(function (this: ArrayLike<number>, ...a: unknown[]) {
      if (this instanceof Float64Array) sorted += this.length;
      return (sort as (...x: unknown[]) => unknown).apply(this, a);
    });
    const steps = aiperfRunResultInSteps(state, originMs);
    let most = { reads: 0, sorted: 0 };
    let total = 0;
    let result: AiperfRunResult;
    for (;;) {
      times.reads = 0;
      sorted = 0;
      const r = steps.next();
      total += times.reads;
      most = { reads: Math.max(most.reads, times.reads), sorted: Math.max(most.sorted, sorted) };
      if (r.done) {
        result = r.value;
        break;
      }
    }
    console.log(
      `${RECORDS} requests: at most ${most.reads} start/end times read (of ${total}) and ${most.sorted} values sorted natively in one step`,
    );
    expect(result.charts?.["aiperf-timeline"]).toBeDefined();
    expect(result.charts?.["aiperf-over-time"]).toBeDefined();
    // The summary reads every request's times in some nine passes (the requests block's span, the
    // two charts'); before, the timeline's passes came in one step (280,672 times read at 40,000
    // requests), now TIMELINE_STEP (8,192) requests, two times each, a step, and a step may end one
    // pass and begin the next.
    expect(total).toBeGreaterThan(6 * RECORDS);
    expect(most.reads).toBeLessThanOrEqual(4 * 8192);
    // Before, the timeline sorted every start and every end in one step (2 × RECORDS values); now in
    // runs of 16,384 sorted one a step, then merged in steps (./stats.ts `sortInSteps`).
    expect(most.sorted).toBeLessThanOrEqual(16_384);
  });
});
