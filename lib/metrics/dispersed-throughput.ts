/**
 * Output tokens per second over time with each request's tokens spread evenly over its decode
 * window, first token to last (aiperf's "dispersed throughput", the definition of its
 * `dispersed_throughput_over_time` plot). Counting a request's tokens in the bucket where it ends
 * draws a comb: a steady run at concurrency 4 reads 0 → 16,000 → 0 tok/s with 0.2 s buckets,
 * although the server produced a flat ~300 tok/s. See docs/metrics.md §Requests over time.
 */
import { FLAG_ERROR, FLAG_WARMUP, type RequestLog } from "./requests-log";
import { atOnce, type Steps } from "./steps";

/**
 * The decode window of request i in ms since `originMs`: from start + TTFT (from the start when
 * TTFT is absent or not positive, as for a non-streaming request) to the end. Null when the
 * window is empty, so its tokens have no rate to spread.
 */
export function decodeWindowMs(log: RequestLog, i: number, originMs: number): [number, number] | null {
  const c = log.cols;
  const ttft = c.ttftMs[i];
  const from = c.startMs[i] - originMs + (ttft > 0 ? ttft : 0);
  const to = c.endMs[i] - originMs;
  if (!Number.isFinite(from) || !Number.isFinite(to) || !(to > from)) return null;
  return [from, to];
}

/**
 * Tokens per second in each of `k` buckets of `bucketMs`: Σ over successful profiling requests of
 * rate × (overlap of the bucket with the decode window) / bucket width, where rate = output
 * tokens / window. That is the bucket average of aiperf's step function (the sum of the rates of
 * the requests decoding at each instant), so the area under the curve is every token once.
 * Warm-up and failed requests produce no throughput. Full buckets go through a difference array,
 * so a long request costs two additions, not one per bucket.
 */
export function dispersedTokensPerS(
  log: RequestLog,
  originMs: number,
  bucketMs: number,
  k: number,
): Float64Array {
  return atOnce(dispersedTokensPerSInSteps(log, originMs, bucketMs, k, Infinity));
}

/** `dispersedTokensPerS` in steps of `step` requests: the same rates. */
export function* dispersedTokensPerSInSteps(
  log: RequestLog,
  originMs: number,
  bucketMs: number,
  k: number,
  step: number,
): Steps<Float64Array> {
  return yield* spreadPerSInSteps(bucketMs, k, function* (add) {
    for (let i = 0; i < log.length; i++) {
      if (i > 0 && i % step === 0) yield;
      if (log.flags[i] & (FLAG_WARMUP | FLAG_ERROR)) continue;
      const out = log.cols.outputTokens[i];
      if (!(out > 0)) continue;
      const w = decodeWindowMs(log, i, originMs);
      if (w) add(w[0], w[1], out);
    }
  });
}

/**
 * Requests per second with each request spread evenly over its lifetime, start to end (docs/metrics.md
 * §Requests over time): a request in flight for 4 s adds 0.25 req/s to every instant of those 4 s,
 * so the area under the curve is every request once and a steady run at concurrency 1 reads a
 * flat 1 / E2E instead of a comb of completions. `errors`: failed profiling requests instead of
 * successful ones. Warm-up requests count in neither. A request that starts and ends in the same
 * instant counts whole in its bucket.
 */
export function dispersedRequestsPerS(
  log: RequestLog,
  originMs: number,
  bucketMs: number,
  k: number,
  errors = false,
): Float64Array {
  return atOnce(dispersedRequestsPerSInSteps(log, originMs, bucketMs, k, errors, Infinity));
}

/** `dispersedRequestsPerS` in steps of `step` requests: the same rates. */
export function* dispersedRequestsPerSInSteps(
  log: RequestLog,
  originMs: number,
  bucketMs: number,
  k: number,
  errors: boolean,
  step: number,
): Steps<Float64Array> {
  return yield* spreadPerSInSteps(bucketMs, k, function* (add) {
    const c = log.cols;
    for (let i = 0; i < log.length; i++) {
      if (i > 0 && i % step === 0) yield;
      const f = log.flags[i];
      if (f & FLAG_WARMUP || Boolean(f & FLAG_ERROR) !== errors) continue;
      const from = c.startMs[i] - originMs;
      const to = c.endMs[i] - originMs;
      if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) continue;
      add(from, to, 1);
    }
  });
}

/**
 * Per second in each of `k` buckets of `bucketMs`, of amounts each spread evenly over its own
 * window [from, to] (ms); an empty window puts its amount whole in its bucket. The area under the
 * curve is every amount once.
 */
export function spreadPerS(
  bucketMs: number,
  k: number,
  each: (add: (from: number, to: number, amount: number) => void) => void,
): Float64Array {
  return atOnce(
    spreadPerSInSteps(bucketMs, k, function* (add) {
      each(add);
    }),
  );
}

/** `spreadPerS` with the amounts added in steps (`each` yields between them): the same rates. */
export function* spreadPerSInSteps(
  bucketMs: number,
  k: number,
  each: (add: (from: number, to: number, amount: number) => void) => Steps<void>,
): Steps<Float64Array> {
  const tokens = new Float64Array(k);
  const fullRate = new Float64Array(k + 1);
  // How many requests decode through each whole bucket: where none does, the running rate is
  // reset to 0, so the float residue of +rate − rate (−7e-15) never reaches a chart.
  const fullCount = new Int32Array(k + 1);
  const clampB = (t: number) => Math.max(0, Math.min(k - 1, Math.floor(t / bucketMs)));
  yield* each((from, to, out) => {
    const bs = clampB(from);
    const be = clampB(to);
    if (bs === be) {
      tokens[bs] += out;
      return;
    }
    const perMs = out / (to - from);
    tokens[bs] += perMs * ((bs + 1) * bucketMs - from);
    tokens[be] += perMs * (to - be * bucketMs);
    fullRate[bs + 1] += perMs;
    fullRate[be] -= perMs;
    fullCount[bs + 1]++;
    fullCount[be]--;
  });
  const perS = new Float64Array(k);
  let rate = 0;
  let decoding = 0;
  for (let b = 0; b < k; b++) {
    decoding += fullCount[b];
    rate = decoding === 0 ? 0 : rate + fullRate[b];
    perS[b] = ((tokens[b] + rate * bucketMs) * 1000) / bucketMs;
  }
  return perS;
}
