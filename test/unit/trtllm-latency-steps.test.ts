/**
 * Issue 31, health within 100 ms during an ingest: a TensorRT-LLM run's latency summary and its
 * over-time payload, computed at the end of the ingest, take a bounded piece of the requests a
 * step. Before, each latency column was gathered and sorted in one step (and the tok/s per user
 * computed from the whole TPOT column before the first), and the over-time payload gathered every
 * request and sorted them by arrival with one comparator sort (60,000 requests: a 95 ms slice of
 * the upload's main thread at load 23–41, docs/reliability.md).
 *
 * Counted, never timed, per step: values read from the latency columns and the arrivals, and
 * elements sorted natively (typed-array sorts). And the answer is the one-piece answer.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { distributionOfSorted } from "@/lib/metrics/aiperf-distribution";
import { tokPerUserStats } from "@/lib/metrics/per-user-throughput";
import { percentile, sortedFinite, statsOfSorted } from "@/lib/metrics/stats";
import type { Steps } from "@/lib/metrics/steps";
import { estimateClockOffset, estimateClockOffsetInSteps } from "@/lib/metrics/trtllm-clock-offset";
import { TrtllmLatencyColumns } from "@/lib/metrics/trtllm-latency";
import { prng } from "../generators/prng.mjs";

const N = 60_000;

/** Columns of N requests: some not recorded, arrivals with many ties, a few not finite. */
function columns(seed: number): { latency: TrtllmLatencyColumns; arrivals: Float64Array } {
  const rand = prng(seed);
  const latency = new TrtllmLatencyColumns(N);
  const arrivals = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const r = rand();
    const ttft = r < 0.05 ? null : Math.round(rand() * 5000) / 10;
    const e2e = r < 0.08 ? null : (ttft ?? 0) + Math.round(rand() * 200_000) / 10;
    const tokens = r < 0.1 ? null : 1 + Math.floor(rand() * 500);
    latency.set(i, ttft, e2e, tokens, r > 0.99);
    arrivals[i] = r < 0.01 ? NaN : Math.floor(rand() * 20_000) * 5;
  }
  return { latency, arrivals };
}

let reads = 0;

/** A view of `a` that counts the elements read through it (its methods run on `a` itself). */
function counting(a: Float64Array): Float64Array {
  return new Proxy(a, {
    get(target, key) {
      if (typeof key === "string" && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) {
        reads++;
        return target[Number(key)];
      }
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** Runs `steps` to its end; the most values read and the most elements sorted natively in one step. */
function perStep<T>(steps: Steps<T>): { value: T; reads: number; sorted: number; count: number } {
  let sorted = 0;
  const typed = Object.getPrototypeOf(Int32Array.prototype) as { sort(this: ArrayLike<number>): unknown };
  const sort = typed.sort;
  vi.spyOn(typed, "sort").mockImplementation(function (this: ArrayLike<number>, ...a: unknown[]) {
    sorted += this.length;
    return (sort as (...x: unknown[]) => unknown).apply(this, a);
  });
  const most = { reads: 0, sorted: 0, count: 0 };
  reads = 0;
  for (;;) {
    const r = steps.next();
    most.reads = Math.max(most.reads, reads);
    most.sorted = Math.max(most.sorted, sorted);
    most.count++;
    reads = sorted = 0;
    if (r.done) {
      vi.restoreAllMocks();
      return { value: r.value, ...most };
    }
  }
}

/** The latency columns read through counting views. */
function countColumns(latency: TrtllmLatencyColumns): void {
  for (const key of ["ttftMs", "e2eMs", "tpotMs"] as const)
    Object.defineProperty(latency, key, { value: counting(latency[key]) });
}

describe("TensorRT-LLM latency summary and over-time payload in steps", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reads and sorts at most 16,384 values a step of the summary, with the one-piece answer", () => {
    const { latency } = columns(3);
    const want = {
      ttftMs: sortedFinite(latency.ttftMs),
      e2eMs: sortedFinite(latency.e2eMs),
      tpotMs: sortedFinite(latency.tpotMs),
    };
    const tokPerUser = tokPerUserStats(latency.tpotMs);
    countColumns(latency);
    const { value, ...most } = perStep(latency.summarizeInSteps());
    const distribution = perStep(latency.distributionInSteps());
    console.log(
      `summary of ${N} requests: ${most.count} steps, at most ${most.reads} column values read and ${most.sorted} sorted natively in one`,
    );
    // PASS_STEP and SORT_STEP (lib/metrics/stats.ts); before, a whole column (60,000) a step.
    expect(most.reads).toBeLessThanOrEqual(16_384);
    expect(most.sorted).toBeLessThanOrEqual(16_384);
    expect(distribution.reads).toBeLessThanOrEqual(16_384);
    expect(distribution.sorted).toBeLessThanOrEqual(16_384);
    expect(value.block.tokPerUser).toEqual(tokPerUser);
    for (const key of ["ttftMs", "e2eMs", "tpotMs"] as const) {
      expect(value.block[key]).toEqual(statsOfSorted(want[key]));
      expect(distribution.value.metrics[key]).toEqual(distributionOfSorted(want[key]));
    }
    expect(value.block.tokensKnown).toBeGreaterThan(0);
  });

  it("orders the requests by arrival in steps of at most 16,384, as one stable sort orders them", () => {
    const { latency, arrivals } = columns(5);
    // The one-piece answer: every recorded request with a finite arrival, a stable sort by it.
    const order: number[] = [];
    for (let i = 0; i < N; i++)
      if (!(isNaN(latency.ttftMs[i]) && isNaN(latency.e2eMs[i])) && Number.isFinite(arrivals[i]))
        order.push(i);
    order.sort((a, b) => arrivals[a] - arrivals[b]);
    countColumns(latency);
    const { value, ...most } = perStep(latency.overTimeInSteps(counting(arrivals), N));
    console.log(
      `over time of ${N} requests: ${most.count} steps, at most ${most.reads} values read and ${most.sorted} sorted natively in one`,
    );
    // Before, the gathering pass and one comparator sort of every request in one piece (60,000
    // sorted, 120,000 column values and their arrivals read).
    expect(most.sorted).toBeLessThanOrEqual(16_384);
    // A step's own reads: a gathering pass of 16,384 requests (three values each), or a merge of
    // 16,384 (two arrivals a comparison); a run's native sort reads arrivals too, some 2 × 14 a
    // request: bounded by the run, not the run's size.
    expect(most.reads).toBeLessThanOrEqual(16_384 * 32);
    expect(value.total).toBe(order.length);
    expect(value.points.length).toBe(order.length);
    value.points.forEach((p, k) => {
      const i = order[k];
      if (p.tS !== arrivals[i] / 1000 || p.ttftMs !== (isNaN(latency.ttftMs[i]) ? null : latency.ttftMs[i]))
        expect([k, p]).toEqual([k, { tS: arrivals[i] / 1000, ttftMs: latency.ttftMs[i] }]);
    });
    // The capped payload takes every k-th of the same order.
    const capped = latency.overTime(arrivals);
    expect(capped.points.length).toBe(2_000);
    expect(capped.points[1999].tS).toBe(arrivals[order[Math.floor(1999 * (order.length / 2000))]] / 1000);
  });
});

describe("a TensorRT-LLM worker's clock offset in steps", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sorts at most 16,384 of a worker's samples a step, with the one-piece median", () => {
    const rand = prng(9);
    const samples = Array.from({ length: N }, () => 86_400 + Math.round(rand() * 1e6) / 1e6);
    const want = percentile(samples, 50);
    const { value, ...most } = perStep(estimateClockOffsetInSteps(samples));
    console.log(
      `clock offset of ${N} samples: ${most.count} steps, at most ${most.sorted} sorted natively in one`,
    );
    // Before, the worker's samples sorted in one piece (60,000).
    expect(most.sorted).toBeLessThanOrEqual(16_384);
    expect(value).toBe(want);
    expect(estimateClockOffset(samples)).toBe(want);
  });
});
