/**
 * Per-request TTFT, E2E and TPOT of a TensorRT-LLM run (docs/metrics.md §Request latency from
 * perf metrics): the summary's statistics and the latency view's distribution and over-time
 * payloads. Values are kept in three typed columns (NaN = not recorded) while the summary walks
 * the requests once; each column is sorted once, for its statistics and its distribution alike.
 */
import type { Distribution } from "@/lib/api/aiperf-charts";
import type { TimeBreakdownBlock } from "@/lib/api/schemas";
import type { TrtllmLatencyOverTimePayload } from "@/lib/api/trtllm-charts";
import type { Seconds, TrtllmSpeculative, TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { distributionOfSortedInSteps } from "./aiperf-distribution";
import { tokPerUserStatsOfSortedInSteps } from "./per-user-throughput";
import { PASS_STEP, SORT_STEP, sortedFiniteInSteps, statsOfSortedInSteps } from "./stats";
import { atOnce, mergeRunsInSteps, type Steps } from "./steps";
import { requestFirstToken, requestStart, spanMs, type RequestTimes } from "./time-breakdown";

/** The scatter's point cap, the same as the aiperf over-time chart's. */
export const MAX_OVER_TIME_POINTS = 2000;

/**
 * Output tokens of a request, from its generation record: the context phase emits the first
 * token and each generation step one more, plus the draft tokens a step accepted under
 * speculative decoding. The record has no token count of its own, so without generation steps
 * (step metrics off, or a disagg server's header copy) the count is unknown: null, never 1.
 */
export function outputTokensOf(
  generationSteps: number,
  speculative: TrtllmSpeculative | null,
): number | null {
  if (generationSteps <= 0) return null;
  return 1 + generationSteps + (speculative?.acceptedDraftTokens ?? 0);
}

/**
 * Generation steps of a request: its step_metrics entries, else (step metrics off) the
 * generation record's iterations, `last_iter − first_iter + 1`. A disaggregated generation
 * worker runs no prefill, so each of its iterations emits one token (plus accepted drafts); an
 * aggregated record's iterations include its prefill chunks, which the iteration span cannot
 * tell apart, so it counts by steps only.
 */
export function generationStepsOf(
  stepCount: number,
  rec: Pick<TrtllmWorkerRecord, "firstIter" | "lastIter"> | null,
  disaggregated: boolean,
): number {
  if (stepCount > 0 || !disaggregated || !rec) return stepCount;
  const { firstIter, lastIter } = rec;
  if (firstIter === null || lastIter === null || lastIter < firstIter) return 0;
  return lastIter - firstIter + 1;
}

export interface RequestLatency {
  ttftMs: number | null;
  e2eMs: number | null;
  /**
   * The first response left after the last token (a response not streamed): the client got
   * every token at once, so E2E = TTFT and there is no time per output token.
   */
  oneResponse: boolean;
}

/**
 * TTFT and E2E of one request on one clock and to one end point (docs/metrics.md §Request
 * latency from perf metrics). TTFT runs from the outermost server's arrival to the first token it
 * sent back. E2E is TTFT plus the tokens that came after that first response: the last token
 * minus the first response of the server that produced it (gen `last_token_time −
 * server_first_token_time`, both the generation server's own stamps), never below 0. Ending E2E
 * at the generation engine's last token instead, as a span from the disagg server's arrival,
 * mixes two end points: on short or unstreamed requests the engine finishes before the disagg
 * server relays the first token, and E2E came out shorter than TTFT. TensorRT-LLM's
 * time-breakdown tool (tensorrt_llm/serve/scripts/time_breakdown/time_breakdown.py) likewise
 * measures each span between two stamps of one server and clamps it at 0.
 */
export function requestLatency(t: RequestTimes): RequestLatency {
  const start = requestStart(t);
  const ttft = spanMs(start, requestFirstToken(t));
  const gen = t.genLastToken !== null;
  const last = gen ? t.genLastToken : t.ctxLastToken;
  const firstOut: Seconds = gen
    ? (t.genServerFirstToken ?? t.genFirstToken)
    : (t.ctxServerFirstToken ?? t.ctxFirstToken);
  if (ttft === null || last === null || firstOut === null)
    return { ttftMs: ttft, e2eMs: ttft === null ? spanMs(start, last) : null, oneResponse: false };
  const tailMs = (last - firstOut) * 1000;
  return { ttftMs: ttft, e2eMs: ttft + Math.max(0, tailMs), oneResponse: tailMs < 0 };
}

/**
 * TPOT = (E2E − TTFT) / (output tokens − 1): the decode time per token after the first. A request
 * of one token has no such time, so it has no TPOT rather than a division by zero.
 */
export function tpotMs(
  ttftMs: number | null,
  e2eMs: number | null,
  outputTokens: number | null,
): number | null {
  if (ttftMs === null || e2eMs === null || outputTokens === null || outputTokens <= 1) return null;
  return (e2eMs - ttftMs) / (outputTokens - 1);
}

const nanIfNull = (v: number | null) => (v === null ? NaN : v);

const LATENCY_KEYS = ["ttftMs", "e2eMs", "tpotMs"] as const;
type LatencyKey = (typeof LATENCY_KEYS)[number];

export class TrtllmLatencyColumns {
  readonly ttftMs: Float64Array;
  readonly e2eMs: Float64Array;
  readonly tpotMs: Float64Array;
  private tokensKnown = 0;

  constructor(readonly size: number) {
    this.ttftMs = new Float64Array(size).fill(NaN);
    this.e2eMs = new Float64Array(size).fill(NaN);
    this.tpotMs = new Float64Array(size).fill(NaN);
  }

  /** Requests whose first response carried every token (RequestLatency.oneResponse). */
  oneResponse = 0;
  /** Requests whose token count came from first_iter/last_iter. */
  tokensFromIterations = 0;

  set(
    idx: number,
    ttft: number | null,
    e2e: number | null,
    outputTokens: number | null,
    oneResponse = false,
  ): void {
    this.ttftMs[idx] = nanIfNull(ttft);
    this.e2eMs[idx] = nanIfNull(e2e);
    this.tpotMs[idx] = oneResponse ? NaN : nanIfNull(tpotMs(ttft, e2e, outputTokens));
    if (outputTokens !== null) this.tokensKnown++;
    if (oneResponse) this.oneResponse++;
  }

  /** The summary block. */
  summarize(): { block: NonNullable<TimeBreakdownBlock["latency"]> } {
    return atOnce(this.summarizeInSteps());
  }

  /**
   * `summarize` in steps: each column's finite values gathered, sorted and summed in steps of
   * at most PASS_STEP values read or SORT_STEP values sorted (the same answer, bit for
   * bit: the sort in steps leaves what one typed-array sort leaves, and the tok/s per user of the
   * sorted TPOTs what `tokPerUserStats` finds in the unsorted ones).
   */
  *summarizeInSteps(): Steps<{ block: NonNullable<TimeBreakdownBlock["latency"]> }> {
    const block: NonNullable<TimeBreakdownBlock["latency"]> = {
      ttftMs: null,
      e2eMs: null,
      tpotMs: null,
      tokPerUser: null,
      tokensKnown: this.tokensKnown,
      tokensFromIterations: this.tokensFromIterations,
      oneResponse: this.oneResponse,
    };
    for (const key of LATENCY_KEYS) {
      yield;
      const sorted = yield* this.sortedInSteps(key);
      yield;
      block[key] = yield* statsOfSortedInSteps(sorted);
      if (key === "tpotMs") {
        yield;
        block.tokPerUser = yield* tokPerUserStatsOfSortedInSteps(sorted);
      }
    }
    return { block };
  }

  /**
   * The latency distribution chart's payload (`TRTLLM_CHARTS.latencyDistribution`): each column's
   * histogram and CDF over its sorted finite values, sorted once for the summary and the chart
   * (lib/metrics/trtllm-column-charts.ts), in steps as `summarizeInSteps`.
   */
  *distributionInSteps(): Steps<LatencyDistributions> {
    const metrics: Record<string, Distribution | null> = {};
    for (const key of LATENCY_KEYS) {
      yield;
      const sorted = yield* this.sortedInSteps(key);
      yield;
      metrics[key] = yield* distributionOfSortedInSteps(sorted);
    }
    return { metrics };
  }

  private readonly sorted: Partial<Record<LatencyKey, Float64Array>> = {};

  /** A column's finite values in ascending order, sorted on the first ask. */
  private *sortedInSteps(key: LatencyKey): Steps<Float64Array> {
    return (this.sorted[key] ??= yield* sortedFiniteInSteps(this[key]));
  }

  /** `overTimeInSteps` at once. */
  overTime(arrivalsMs: Float64Array, max = MAX_OVER_TIME_POINTS): TrtllmLatencyOverTimePayload {
    return atOnce(this.overTimeInSteps(arrivalsMs, max));
  }

  /**
   * Requests by arrival, every k-th when there are more than the cap. A request without a finite
   * arrival has no place on the time axis; one with no latency recorded draws nothing. In steps:
   * the requests gathered PASS_STEP a step, ordered by arrival in runs of SORT_STEP sorted one a
   * step and then merged SORT_STEP requests a step (stable, as the one sort it replaces: requests
   * of one arrival stay in their order).
   */
  *overTimeInSteps(
    arrivalsMs: Float64Array,
    max = MAX_OVER_TIME_POINTS,
  ): Steps<TrtllmLatencyOverTimePayload> {
    let n = 0;
    const order = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) {
      if (i > 0 && i % PASS_STEP === 0) yield;
      const recorded = !(isNaN(this.ttftMs[i]) && isNaN(this.e2eMs[i]));
      if (recorded && Number.isFinite(arrivalsMs[i])) order[n++] = i;
    }
    const byArrival = (a: number, b: number) => arrivalsMs[a] - arrivalsMs[b];
    let placed = order.subarray(0, n);
    for (let lo = 0; lo < n; lo += SORT_STEP) {
      yield;
      placed.subarray(lo, Math.min(n, lo + SORT_STEP)).sort(byArrival);
    }
    if (n > SORT_STEP) {
      yield;
      // On a tie the left run's request goes first: the order of one stable sort.
      placed = yield* mergeRunsInSteps(placed, SORT_STEP, (a, b) => arrivalsMs[a] < arrivalsMs[b], SORT_STEP);
    }
    const step = n > max ? n / max : 1;
    const points: TrtllmLatencyOverTimePayload["points"] = [];
    for (let k = 0; k < Math.min(n, max); k++) {
      const i = placed[Math.floor(k * step)];
      points.push({
        tS: arrivalsMs[i] / 1000,
        ttftMs: finiteOrNull(this.ttftMs[i]),
        e2eMs: finiteOrNull(this.e2eMs[i]),
        tpotMs: finiteOrNull(this.tpotMs[i]),
      });
    }
    return { total: n, points };
  }
}

export interface LatencyDistributions {
  metrics: Record<string, Distribution | null>;
}

const finiteOrNull = (v: number) => (Number.isFinite(v) ? v : null);
