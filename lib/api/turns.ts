/**
 * The Turns view's payload (docs/metrics.md §Turns), stored at ingest for aiperf runs whose
 * records carry turn indices above 0, and served by /api/runs/{id}/charts/aiperf-turns.
 */
import { z } from "zod";
import type { UpgradeResult } from "./chart-upgrade";

/** p50, p90 and mean of one metric over a turn's successful requests that recorded it. */
export const turnBandSchema = z.object({
  count: z.number(),
  p50: z.number(),
  p90: z.number(),
  mean: z.number(),
});
export type TurnBand = z.infer<typeof turnBandSchema>;

/**
 * Prompt tokens of a turn, split so the parts add up to the prompt: served from cache, reusable
 * (an earlier turn of the conversation held them) but recomputed, and new to the conversation.
 * Sums over the turn's successful requests with prompt, cached and possible tokens all known.
 */
export const turnReuseSchema = z.object({
  requests: z.number(),
  promptTokens: z.number(),
  cachedTokens: z.number(),
  recomputedReusableTokens: z.number(),
  newTokens: z.number(),
  /** The ceiling: prompt tokens an earlier turn of the same conversation made reusable */
  possibleTokens: z.number(),
});
export type TurnReuse = z.infer<typeof turnReuseSchema>;

export const turnRowSchema = z.object({
  /** Turn index, 0 for a conversation's first request */
  turn: z.number(),
  /** True on the last row when it pools every turn from `turn` on */
  pooled: z.boolean(),
  /** Profiling requests of the turn: successful, failed and cancelled */
  requests: z.number(),
  /** Failed requests that were not cancellations */
  errors: z.number(),
  /** Cancelled requests (aiperf's was_cancelled, error 499) */
  cancelled: z.number(),
  ttftMs: turnBandSchema.nullable(),
  e2eMs: turnBandSchema.nullable(),
  inputTokens: turnBandSchema.nullable(),
  outputTokens: turnBandSchema.nullable(),
  /** Σ cached / Σ prompt over successful requests with both known; null when none */
  hitRate: z.number().nullable(),
  /** Σ possible / Σ prompt over successful requests with both known; null when none */
  possibleRate: z.number().nullable(),
  /** Null when no request of the turn has prompt, cached and possible tokens known */
  reuse: turnReuseSchema.nullable(),
});
export type TurnRow = z.infer<typeof turnRowSchema>;

export const turnsPayloadSchema = z.object({
  /** Conversations among the profiling requests */
  conversations: z.number(),
  /** Profiling requests with no turn index (not in any row) */
  withoutTurn: z.number(),
  /** Whether any request carried the server's cached prompt tokens */
  cachedKnown: z.boolean(),
  /** aiperf's run-level theoretical prefix-cache hit rate (0..1), when the summary gives it */
  theoreticalHitRate: z.number().nullable(),
  /**
   * How the possible reuse was counted: from the records (previous turn's prompt + answer) or
   * estimated from inputs.json's text scaled by ISL.
   */
  possibleSource: z.enum(["records", "inputs"]),
  /**
   * With inputs.json: profiling requests whose possible reuse is its estimate (the others keep
   * the records' count), and those among them whose payload had image, audio or video parts,
   * which the estimate does not count. Absent without inputs.json.
   */
  inputsRequests: z.number().optional(),
  inputsNonText: z.number().optional(),
  rows: z.array(turnRowSchema),
});
export type TurnsPayload = z.infer<typeof turnsPayloadSchema>;

/**
 * A Turns payload of version 1: one stored before it said how its possible reuse was counted was
 * counted from the records (the estimate from inputs.json came with the word for it).
 */
export function upgradeTurnsPayload(stored: Record<string, unknown>): UpgradeResult {
  return { payload: { ...stored, possibleSource: stored.possibleSource ?? "records" } };
}

/** How a Turns payload's possible reuse was counted, in the words of a chart's method line. */
export function possibleReuseMethod(p: Pick<TurnsPayload, "possibleSource">): string {
  return p.possibleSource === "inputs"
    ? "inputs.json's text shared with earlier turns, scaled by the request's ISL (the records' previous prompt + answer where inputs.json lacks the turn)"
    : "the previous turn's prompt + answer";
}

/** The reuse stack per server-metrics interval (docs/metrics.md §Reuse per interval). */
/**
 * One scrape interval: the engines' prompt tokens split so the parts add up to them (served from
 * GPU cache, from a host/CPU/external tier, reusable but recomputed, new), and the possible reuse
 * of the requests whose prefill fell in the interval, drawn as the ceiling.
 */
export const reuseIntervalSchema = z.object({
  /** Seconds from the first interval's start */
  t: z.number(),
  durationS: z.number().nullable(),
  /** The engines' prompt tokens of the interval (their cache lookups' denominator); null: not counted */
  promptTokens: z.number().nullable(),
  gpuTokens: z.number().nullable(),
  /** Null when no counter of the run names a host, CPU or external tier */
  externalTokens: z.number().nullable(),
  recomputedReusableTokens: z.number().nullable(),
  newTokens: z.number().nullable(),
  /** Σ possible reuse of the interval's requests that have it; null when none has */
  possibleTokens: z.number().nullable(),
  /** Σ prompt tokens (ISL) of the same requests, as aiperf counted them */
  clientPromptTokens: z.number(),
  requests: z.number(),
});
export type ReuseInterval = z.infer<typeof reuseIntervalSchema>;

/**
 * One endpoint's parts of an interval, on the run's intervals. The possible reuse is the
 * records', and they do not say which endpoint prefilled a request, so an endpoint has no ceiling
 * and its recomputed-reusable and new tokens are one part: what it computed.
 */
export const endpointReuseIntervalSchema = z.object({
  t: z.number(),
  durationS: z.number().nullable(),
  promptTokens: z.number().nullable(),
  gpuTokens: z.number().nullable(),
  /** Null when this endpoint's counters name no host, CPU or external tier */
  externalTokens: z.number().nullable(),
  /** prompt − GPU − host/external: prefilled by this endpoint, reusable or new */
  computedTokens: z.number().nullable(),
});
export type EndpointReuseInterval = z.infer<typeof endpointReuseIntervalSchema>;

export const endpointReuseSchema = z.object({
  endpoint: z.string(),
  points: z.array(endpointReuseIntervalSchema),
});
export type EndpointReuse = z.infer<typeof endpointReuseSchema>;

export const reuseIntervalsPayloadSchema = z.object({
  /** Epoch ms of the first interval's start */
  startEpochMs: z.number().nullable(),
  /** Which counters gave the GPU and the external parts, in words */
  servedSource: z.string(),
  externalSource: z.string().nullable(),
  /** How the possible reuse was counted */
  possibleSource: z.enum(["records", "inputs"]),
  /** Profiling requests whose prefill fell outside every interval (not in any point) */
  requestsOutside: z.number(),
  points: z.array(reuseIntervalSchema),
  /** The prefill-side endpoints' own stacks when there are several (stored from aggregator version 11 on) */
  endpoints: z.array(endpointReuseSchema).default([]),
});
export type ReuseIntervalsPayload = z.infer<typeof reuseIntervalsPayloadSchema>;
