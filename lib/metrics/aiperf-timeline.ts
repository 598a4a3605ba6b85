/**
 * Run-over-time charts from per-request records: a sampled scatter of latencies, TTFT against
 * input length, and bucketed throughput / in-flight concurrency. Times are seconds from the
 * run's first request (`originMs` in the log's own ms base). Every series stays ≤ 2,000 points.
 */
import { z } from "zod";
import type {
  overTimePayloadSchema,
  timelinePayloadSchema,
  ttftVsInputPayloadSchema,
} from "@/lib/api/aiperf-charts";
import { dispersedRequestsPerSInSteps, dispersedTokensPerSInSteps } from "./dispersed-throughput";
import type { RequestLog } from "./requests-log";
import { sortInSteps } from "./stats";
import { atOnce, type Steps } from "./steps";

export const MAX_POINTS = 2000;
const TARGET_BUCKETS = 300;

/**
 * Requests one step of the over-time payloads (`overTimePayloadInSteps`, `timelinePayloadInSteps`)
 * takes in a pass over the log; sorts go in steps too (./stats.ts `sortInSteps`), and a step ends
 * between passes. A server computing them for a 200,000-request upload gives other requests a
 * turn between the steps (lib/ingest/in-turns.ts).
 */
export const TIMELINE_STEP = 8192;

const finiteOrNull = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * Successful profiling records ordered by start, then every k-th so at most `max` remain. A
 * record without a start time has no place on a time axis, so it is left out.
 */
function* sampledOkInSteps(log: RequestLog, max: number): Steps<{ total: number; idx: number[] }> {
  const start = log.cols.startMs;
  const measured = log.measuredIndices();
  const ok = new Uint32Array(measured.length);
  let n = 0;
  for (let j = 0; j < measured.length; j++) {
    if (Number.isFinite(start[measured[j]])) ok[n++] = measured[j];
    if ((j + 1) % TIMELINE_STEP === 0) yield;
  }
  yield;
  if (n <= max) {
    const all = Array.from(ok.subarray(0, n));
    all.sort((a, b) => start[a] - start[b]);
    return { total: n, idx: all };
  }
  return { total: n, idx: yield* stableRanksByStartInSteps(start, ok.subarray(0, n), max) };
}

/**
 * Every (n / max)-th record of `ok` (ascending indices) in a stable sort by start, the same records
 * as sorting them all with a comparator and taking those ranks, without sorting the indices: the
 * starts alone are sorted natively (+0 for -0, which the comparator ties with 0), and each rank's
 * record is the one with that start whose place among the equal starts, in index order, is the
 * rank's distance from the first rank holding that start.
 */
export function stableRanksByStart(start: Float64Array, ok: Uint32Array, max: number): number[] {
  return atOnce(stableRanksByStartInSteps(start, ok, max));
}

/** `stableRanksByStart` in steps of TIMELINE_STEP records (the sort in `sortInSteps`): the same records. */
export function* stableRanksByStartInSteps(
  start: Float64Array,
  ok: Uint32Array,
  max: number,
): Steps<number[]> {
  const n = ok.length;
  const keys = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    keys[j] = start[ok[j]] + 0;
    if ((j + 1) % TIMELINE_STEP === 0) yield;
  }
  yield;
  // Finite starts with -0 made +0: sorted in steps, the same array as `keys.sort()`.
  yield* sortInSteps(keys);
  const step = n / max;
  /** Per start wanted: the places among its equal starts wanted (ascending), and the records found */
  const wanted = new Map<number, { places: number[]; found: number[]; seen: number }>();
  const refs: Array<{ w: { found: number[] }; at: number }> = [];
  for (let s = 0; s < max; s++) {
    const r = Math.floor(s * step);
    const v = keys[r];
    let lo = 0;
    let hi = r;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    let w = wanted.get(v);
    if (!w) wanted.set(v, (w = { places: [], found: [], seen: 0 }));
    refs.push({ w, at: w.places.length });
    w.places.push(r - lo);
  }
  yield;
  for (let j = 0; j < n; j++) {
    if ((j + 1) % TIMELINE_STEP === 0) yield;
    const w = wanted.get(start[ok[j]] + 0);
    if (!w) continue;
    const place = w.seen++;
    if (w.found.length < w.places.length && w.places[w.found.length] === place) w.found.push(ok[j]);
  }
  return refs.map(({ w, at }) => w.found[at]);
}

export function overTimePayload(log: RequestLog, originMs: number): z.infer<typeof overTimePayloadSchema> {
  return atOnce(overTimePayloadInSteps(log, originMs));
}

/** `overTimePayload` in steps (TIMELINE_STEP): the same payload. */
export function* overTimePayloadInSteps(
  log: RequestLog,
  originMs: number,
): Steps<z.infer<typeof overTimePayloadSchema>> {
  const { total, idx } = yield* sampledOkInSteps(log, MAX_POINTS);
  const c = log.cols;
  return {
    total,
    points: idx.map((i) => ({
      tS: (c.startMs[i] - originMs) / 1000,
      ttftMs: finiteOrNull(c.ttftMs[i]),
      e2eMs: finiteOrNull(c.e2eMs[i]),
      itlMs: finiteOrNull(c.itlMs[i]),
    })),
  };
}

export function ttftVsInputPayload(log: RequestLog): z.infer<typeof ttftVsInputPayloadSchema> {
  const c = log.cols;
  const measured = log.measuredIndices();
  const both = new Uint32Array(measured.length);
  let n = 0;
  for (let j = 0; j < measured.length; j++) {
    const i = measured[j];
    if (Number.isFinite(c.ttftMs[i]) && Number.isFinite(c.inputTokens[i])) both[n++] = i;
  }
  const step = Math.max(1, n / MAX_POINTS);
  const points: Array<{ inputTokens: number; ttftMs: number }> = [];
  for (let k = 0; k < n && points.length < MAX_POINTS; k += step) {
    const i = both[Math.floor(k)];
    points.push({ inputTokens: c.inputTokens[i], ttftMs: c.ttftMs[i] });
  }
  return { total: n, points };
}

/**
 * Per bucket: output tokens per second spread over each request's decode window
 * (`dispersedTokensPerS`), requests and errors per second each spread over its lifetime
 * (`dispersedRequestsPerS`), and in-flight requests. In-flight average is
 * time-weighted (Σ overlap / bucket width), so a bucket with one 10 ms request reads 0.01, not 1;
 * the maximum is exact, from a sweep over start/end events. Warmup requests count as in flight
 * (they load the server) but not as throughput.
 */
export function timelinePayload(log: RequestLog, originMs: number): z.infer<typeof timelinePayloadSchema> {
  return atOnce(timelinePayloadInSteps(log, originMs));
}

/**
 * `timelinePayload` in steps: each pass over the requests (the span, the in-flight areas, the
 * three spread rates, the sweep of starts and ends) TIMELINE_STEP requests a step, the starts and
 * ends sorted in steps. The same payload.
 */
export function* timelinePayloadInSteps(
  log: RequestLog,
  originMs: number,
): Steps<z.infer<typeof timelinePayloadSchema>> {
  const c = log.cols;
  let lastMs = -Infinity;
  for (let i = 0; i < log.length; i++) {
    if (c.endMs[i] > lastMs) lastMs = c.endMs[i];
    if ((i + 1) % TIMELINE_STEP === 0) yield;
  }
  yield;
  const spanMs = lastMs - originMs;
  // Record times are ms from the log's first epoch timestamp (baseNs).
  const originEpochMs = log.baseNs !== null ? Number(log.baseNs) / 1e6 + originMs : null;
  if (!Number.isFinite(spanMs) || spanMs <= 0) return { bucketS: 0, originEpochMs, points: [] };
  const bucketMs = niceBucketMs(spanMs / TARGET_BUCKETS);
  const k = Math.min(MAX_POINTS, Math.floor(spanMs / bucketMs) + 1);
  const area = new Float64Array(k);
  const diff = new Float64Array(k + 1);
  const clampB = (t: number) => Math.max(0, Math.min(k - 1, Math.floor(t / bucketMs)));
  // Typed from the start: no boxed array a request, and sorted natively below.
  const starts = new Float64Array(log.length);
  const ends = new Float64Array(log.length);
  let n = 0;
  for (let i = 0; i < log.length; i++) {
    if (i > 0 && i % TIMELINE_STEP === 0) yield;
    const s = c.startMs[i] - originMs;
    const e = c.endMs[i] - originMs;
    if (!Number.isFinite(s) || !Number.isFinite(e) || e < s) continue;
    const be = clampB(e);
    starts[n] = s;
    ends[n++] = e;
    const bs = clampB(s);
    if (bs === be) area[bs] += e - s;
    else {
      area[bs] += (bs + 1) * bucketMs - s;
      area[be] += e - be * bucketMs;
      diff[bs + 1] += 1;
      diff[be] -= 1;
    }
  }
  yield;
  const startsSorted = yield* sortInSteps(starts.subarray(0, n));
  yield;
  const endsSorted = yield* sortInSteps(ends.subarray(0, n));
  yield;
  const maxIn = yield* inFlightMaxInSteps(startsSorted, endsSorted, bucketMs, k);
  yield;
  const tokensPerS = yield* dispersedTokensPerSInSteps(log, originMs, bucketMs, k, TIMELINE_STEP);
  yield;
  const requestsPerS = yield* dispersedRequestsPerSInSteps(log, originMs, bucketMs, k, false, TIMELINE_STEP);
  yield;
  const errorsPerS = yield* dispersedRequestsPerSInSteps(log, originMs, bucketMs, k, true, TIMELINE_STEP);
  yield;
  const points = [];
  let full = 0;
  for (let b = 0; b < k; b++) {
    full += diff[b];
    points.push({
      tS: (b * bucketMs) / 1000,
      requestsPerS: requestsPerS[b],
      outputTokensPerS: tokensPerS[b],
      inFlightAvg: (area[b] + full * bucketMs) / bucketMs,
      inFlightMax: maxIn[b],
      errorsPerS: errorsPerS[b],
    });
  }
  return {
    bucketS: bucketMs / 1000,
    originEpochMs,
    points,
  };
}

/** Largest number of overlapping requests inside each bucket; an end at t comes before a start at t. */
export function inFlightMax(
  starts: Float64Array,
  ends: Float64Array,
  bucketMs: number,
  k: number,
): Float64Array {
  return atOnce(inFlightMaxInSteps(starts, ends, bucketMs, k));
}

/** `inFlightMax` in steps of TIMELINE_STEP start and end events: the same maxima. */
export function* inFlightMaxInSteps(
  starts: Float64Array,
  ends: Float64Array,
  bucketMs: number,
  k: number,
): Steps<Float64Array> {
  const max = new Float64Array(k);
  let events = 0;
  let cur = 0;
  let i = 0;
  let j = 0;
  let bucket = 0;
  while (i < starts.length || j < ends.length) {
    if (++events % TIMELINE_STEP === 0) yield;
    const isEnd = j < ends.length && (i >= starts.length || ends[j] <= starts[i]);
    const t = isEnd ? ends[j] : starts[i];
    const b = Math.max(0, Math.min(k - 1, Math.floor(t / bucketMs)));
    // Buckets passed without events carry the current count.
    while (bucket < b) {
      bucket++;
      if (cur > max[bucket]) max[bucket] = cur;
    }
    if (isEnd) {
      cur--;
      j++;
    } else {
      cur++;
      i++;
      if (cur > max[b]) max[b] = cur;
    }
  }
  return max;
}

/** 1, 2 or 5 × 10^n milliseconds, at least 1 ms. */
export function niceBucketMs(raw: number): number {
  if (!(raw > 1)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}
