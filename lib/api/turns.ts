/**
 * The Turns view's payload (docs/metrics.md §Turns), stored at ingest for aiperf runs whose
 * records carry turn indices above 0, and served by /api/runs/{id}/charts/aiperf-turns.
 */
import { z } from "zod";

export const TURNS_CHART = "aiperf-turns";

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
  rows: z.array(turnRowSchema),
});
export type TurnsPayload = z.infer<typeof turnsPayloadSchema>;
