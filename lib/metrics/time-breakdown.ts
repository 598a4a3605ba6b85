/**
 * Time-breakdown segments (docs/metrics.md §Segments): where each request's
 * time goes, from the flat steady-clock timestamps of one request.
 */
import { plural } from "@/lib/format-number";
import type { Seconds } from "@/lib/formats/trtllm-record";
import { computeStatsInSteps } from "./stats";
import { atOnce, type Steps } from "./steps";

export type BreakdownMode = "aggregated" | "disaggregated";

/** Every timestamp a request can carry, flattened from the disagg record and its ctx/gen workers. */
export const TIME_KEYS = [
  "disaggArrival",
  "disaggCtxDispatch",
  "ctxServerArrival",
  "ctxArrival",
  "ctxFirstScheduled",
  "ctxFirstToken",
  "ctxServerFirstToken",
  "ctxLastToken",
  "genServerArrival",
  "genArrival",
  "genKvTransferStart",
  "genKvTransferEnd",
  "genFirstScheduled",
  "genFirstToken",
  "genServerFirstToken",
  "genLastToken",
  "disaggFirstToken",
] as const;

export type TimeKey = (typeof TIME_KEYS)[number];
export type RequestTimes = Record<TimeKey, Seconds>;

/** A literal, not built from TIME_KEYS: it is called several times per request of a run. */
export function emptyTimes(): RequestTimes {
  return {
    disaggArrival: null,
    disaggCtxDispatch: null,
    ctxServerArrival: null,
    ctxArrival: null,
    ctxFirstScheduled: null,
    ctxFirstToken: null,
    ctxServerFirstToken: null,
    ctxLastToken: null,
    genServerArrival: null,
    genArrival: null,
    genKvTransferStart: null,
    genKvTransferEnd: null,
    genFirstScheduled: null,
    genFirstToken: null,
    genServerFirstToken: null,
    genLastToken: null,
    disaggFirstToken: null,
  };
}

export interface SegmentDef {
  /** Upstream span name; the colour variable is `--seg-` + name with `_` → `-`. */
  name: string;
  label: string;
  start: TimeKey;
  end: TimeKey;
  /**
   * Stamps that must all be absent for the segment to be recorded: a segment that stands in for
   * finer ones (`gen_queue` for the three transfer spans) is never counted beside them.
   */
  without?: readonly TimeKey[];
  /** The start stamp when `start` is not recorded (`decode`: the engine's first token). */
  startOr?: TimeKey;
}

const seg = (
  name: string,
  label: string,
  start: TimeKey,
  end: TimeKey,
  without?: readonly TimeKey[],
): SegmentDef => (without ? { name, label, start, end, without } : { name, label, start, end });

/**
 * `decode` runs from the server's first response to the last token, both on the server that
 * produced the tokens: the part of E2E after TTFT (lib/metrics/trtllm-latency.ts requestLatency).
 * Measured from the engine's first token instead, it overlapped the postprocessing segments, and a
 * request's stack ran past its own E2E (1,261.8 ms against 1,257.4 ms).
 */
const decodeSeg = (side: "ctx" | "gen"): SegmentDef => ({
  name: "decode",
  label: "Generate the remaining tokens (first response to last token)",
  start: side === "ctx" ? "ctxServerFirstToken" : "genServerFirstToken",
  end: side === "ctx" ? "ctxLastToken" : "genLastToken",
  startOr: side === "ctx" ? "ctxFirstToken" : "genFirstToken",
});

/** Where a segment starts on its request's clock: its start stamp, else its fallback. */
export function segmentStart(def: SegmentDef, times: Partial<Record<string, Seconds>>): Seconds {
  return times[def.start] ?? (def.startOr ? (times[def.startOr] ?? null) : null);
}

/**
 * Segments that tile the same stretch of a request in two ways: `gen_queue` when the generation
 * record has no KV-transfer stamps, the three transfer spans when it has them. A request has one
 * way or the other, so the way it lacks is not a segment it failed to record.
 */
export const ALTERNATIVE_SEGMENTS: Readonly<Record<string, readonly string[]>> = {
  gen_queue: ["gen_queue_wait", "gen_kv_transfer", "gen_post_transfer"],
  gen_queue_wait: ["gen_queue"],
  gen_kv_transfer: ["gen_queue"],
  gen_post_transfer: ["gen_queue"],
};

/**
 * The context side's four segments span the same timestamps in both modes; only what happens in
 * them is worded differently.
 */
function ctxSegments(preprocessing: string, queue: string, postprocessing: string): SegmentDef[] {
  return [
    seg("ctx_preprocessing", preprocessing, "ctxServerArrival", "ctxArrival"),
    seg("ctx_queue", queue, "ctxArrival", "ctxFirstScheduled"),
    seg(
      "ctx_processing",
      "Prefill forward passes up to the first token",
      "ctxFirstScheduled",
      "ctxFirstToken",
    ),
    seg("ctx_postprocessing", postprocessing, "ctxFirstToken", "ctxServerFirstToken"),
  ];
}

/** An aggregated server is treated as the "ctx" side, exactly like the upstream parser. */
export const AGGREGATED_SEGMENTS: readonly SegmentDef[] = [
  ...ctxSegments(
    "Tokenise, validate and hand the request to the executor",
    "Wait in the scheduler queue and allocate KV blocks",
    "Detokenise and send the first token out of the server",
  ),
  decodeSeg("ctx"),
];

export const DISAGGREGATED_SEGMENTS: readonly SegmentDef[] = [
  seg(
    "disagg_preprocessing",
    "Disagg server routes the request to a context server",
    "disaggArrival",
    "ctxServerArrival",
  ),
  ...ctxSegments(
    "Context server tokenises and hands off to its executor",
    "Wait in the context scheduler queue",
    "Context server builds and returns its response",
  ),
  seg(
    "disagg_relay",
    "Disagg server relays the request to a generation server",
    "ctxServerFirstToken",
    "genServerArrival",
  ),
  seg(
    "gen_preprocessing",
    "Generation server parses and hands off to its executor",
    "genServerArrival",
    "genArrival",
  ),
  // Without transfer stamps (no gen worker file, or no transfer) the three spans below are
  // unknown: arrival to first scheduling is then one queue span, as TensorRT-LLM reports it.
  seg(
    "gen_queue",
    "Wait in the generation queue (no KV-transfer stamps recorded)",
    "genArrival",
    "genFirstScheduled",
    ["genKvTransferStart", "genKvTransferEnd"],
  ),
  seg("gen_queue_wait", "Wait before the KV-cache transfer begins", "genArrival", "genKvTransferStart"),
  seg(
    "gen_kv_transfer",
    "KV cache moves GPU to GPU from context to generation",
    "genKvTransferStart",
    "genKvTransferEnd",
  ),
  seg(
    "gen_post_transfer",
    "Wait from transfer end to first scheduling",
    "genKvTransferEnd",
    "genFirstScheduled",
  ),
  seg(
    "gen_postprocessing",
    "First generation step and its response",
    "genFirstScheduled",
    "genServerFirstToken",
  ),
  seg(
    "disagg_postprocessing",
    "Disagg server relays the first token to the client",
    "genServerFirstToken",
    "disaggFirstToken",
  ),
  decodeSeg("gen"),
];

export function segmentsFor(mode: BreakdownMode): readonly SegmentDef[] {
  return mode === "aggregated" ? AGGREGATED_SEGMENTS : DISAGGREGATED_SEGMENTS;
}

/** Cross-server clocks are aligned to a few ms (upstream tests allow 5 ms): smaller negatives are skew. */
export const SKEW_TOLERANCE_MS = 5;

/**
 * One segment of one request: milliseconds, `null` when an end is not recorded (never 0 — a
 * missing end must not drag the statistics down), or `{excludedMs}` when it is more negative
 * than clock skew explains.
 */
export type SegmentValue = number | null | { excludedMs: number };

export function segmentDurationMs(start: Seconds, end: Seconds): SegmentValue {
  if (start === null || end === null) return null;
  const ms = (end - start) * 1000;
  if (ms >= 0) return ms;
  if (isSkew(ms)) return 0;
  return { excludedMs: ms };
}

/** A negative duration small enough to be clock skew, which is clamped to 0. */
function isSkew(ms: number): boolean {
  // Seconds-based stamps carry float noise (10.005 − 10 s is −5.0000000000008 ms): a nanosecond
  // of slack keeps exactly −5 ms on the clamped side of the rule.
  return ms < 0 && ms >= -SKEW_TOLERANCE_MS - 1e-6;
}

/**
 * One request's segments (docs/metrics.md §Segments), fitted to the request's own TTFT and E2E so
 * its stack never runs past them: the segments before the first token are cut where their running
 * sum reaches TTFT (clock skew clamped to 0 can leave a few ms too many), and `decode` is E2E −
 * TTFT, never below 0 (a response not streamed sent its first response after its last token).
 */
export function requestSegments(times: RequestTimes, mode: BreakdownMode): SegmentValue[] {
  const ttft = spanMs(requestStart(times), requestFirstToken(times));
  let sum = 0;
  return segmentsFor(mode).map((s) => {
    if (s.without?.some((k) => times[k] !== null)) return null;
    const start = segmentStart(s, times);
    if (s.name === "decode") {
      if (start === null || times[s.end] === null) return null;
      return Math.max(0, (times[s.end]! - start) * 1000);
    }
    const v = segmentDurationMs(start, times[s.end]);
    if (typeof v !== "number" || ttft === null) return v;
    const fitted = Math.min(v, Math.max(0, ttft - sum));
    sum += fitted;
    return fitted;
  });
}

/** When the client saw the request start: the outermost server's arrival that was recorded. */
export function requestStart(t: RequestTimes): Seconds {
  return t.disaggArrival ?? t.ctxServerArrival ?? t.ctxArrival ?? t.genServerArrival ?? t.genArrival;
}

/** First token as the client saw it, from the outermost stamp recorded. */
export function requestFirstToken(t: RequestTimes): Seconds {
  return (
    t.disaggFirstToken ?? t.genServerFirstToken ?? t.genFirstToken ?? t.ctxServerFirstToken ?? t.ctxFirstToken
  );
}

export function spanMs(start: Seconds, end: Seconds): number | null {
  if (start === null || end === null || end < start) return null;
  return (end - start) * 1000;
}

export interface SegmentStat {
  name: string;
  label: string;
  count: number;
  meanMs: number | null;
  p50Ms: number | null;
  p75Ms: number | null;
  p95Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
}

export interface SegmentStatsResult {
  segments: SegmentStat[];
  /** Per segment: requests whose value was excluded as too negative. */
  excluded: number[];
  /** Per segment: requests whose small negative value (clock skew) was clamped to 0. */
  clamped: number[];
  warnings: string[];
}

/**
 * One column per segment, one value per request: ms, NaN when not recorded or excluded (a
 * Float64Array per segment instead of an array of values per request, so a million requests
 * take 8 bytes per value). Exclusions are counted as they are added.
 */
export class SegmentColumns {
  readonly columns: Float64Array[];
  readonly excluded: number[];
  readonly clamped: number[];
  readonly worstMs: number[];

  constructor(
    readonly mode: BreakdownMode,
    requestCount: number,
  ) {
    const n = segmentsFor(mode).length;
    this.columns = Array.from({ length: n }, () => new Float64Array(requestCount).fill(NaN));
    this.excluded = new Array<number>(n).fill(0);
    this.clamped = new Array<number>(n).fill(0);
    this.worstMs = new Array<number>(n).fill(0);
  }

  /** `times`, the stamps `values` came from, tells a clamped 0 from a true one. */
  set(request: number, values: readonly SegmentValue[], times?: RequestTimes): void {
    const defs = times ? segmentsFor(this.mode) : null;
    values.forEach((v, i) => {
      if (typeof v === "number") {
        this.columns[i][request] = v;
        if (v === 0 && defs && times && defs[i].name !== "decode") {
          const start = segmentStart(defs[i], times);
          const end = times[defs[i].end];
          if (start !== null && end !== null && isSkew((end - start) * 1000)) this.clamped[i]++;
        }
      } else if (v !== null) {
        this.excluded[i]++;
        this.worstMs[i] = Math.min(this.worstMs[i], v.excludedMs);
      }
    });
  }
}

/** Statistics per segment over the requests where it was recorded (docs/metrics.md §Time breakdown). */
export function segmentStats(mode: BreakdownMode, perRequest: readonly SegmentValue[][]): SegmentStatsResult {
  const columns = new SegmentColumns(mode, perRequest.length);
  perRequest.forEach((r, i) => columns.set(i, r));
  return segmentColumnStats(columns);
}

export function segmentColumnStats(columns: SegmentColumns): SegmentStatsResult {
  return atOnce(segmentColumnStatsInSteps(columns));
}

/** `segmentColumnStats` in steps, one segment's sort at a time: the same statistics. */
export function* segmentColumnStatsInSteps(columns: SegmentColumns): Steps<SegmentStatsResult> {
  const defs = segmentsFor(columns.mode);
  const warnings: string[] = [];
  const excluded: number[] = [];
  const segments: SegmentStatsResult["segments"] = [];
  for (let i = 0; i < defs.length; i++) {
    const def = defs[i];
    const dropped = columns.excluded[i];
    const worst = columns.worstMs[i];
    excluded.push(dropped);
    if (dropped > 0)
      warnings.push(
        `${def.name}: ${plural(dropped, "request")} had an end more than ${SKEW_TOLERANCE_MS} ms before the start (worst ${worst.toFixed(1)} ms) and were left out`,
      );
    // Not recorded and excluded values are NaN, which computeStats drops.
    const s = yield* computeStatsInSteps(columns.columns[i]);
    segments.push({
      name: def.name,
      label: def.label,
      count: s?.count ?? 0,
      meanMs: s?.mean ?? null,
      p50Ms: s?.p50 ?? null,
      p75Ms: s?.p75 ?? null,
      p95Ms: s?.p95 ?? null,
      p90Ms: s?.p90 ?? null,
      p99Ms: s?.p99 ?? null,
    });
  }
  return { segments, excluded, clamped: [...columns.clamped], warnings };
}
