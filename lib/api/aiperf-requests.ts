/**
 * The aiperf drill-down contract: the slowest (or fastest) requests by one metric, with their
 * untouched x_request_id, so a tail request can be found in the server's logs.
 */
import { z } from "zod";
import type { UpgradeResult } from "./chart-upgrade";
import { nullableNumbers } from "./fields";

export const REQUEST_SORTS = ["ttft", "e2e", "itl", "start"] as const;
export const MAX_REQUEST_ROWS = 200;

export const requestListQuerySchema = z.object({
  sort: z.enum(REQUEST_SORTS).default("e2e"),
  order: z.enum(["asc", "desc"]).default("desc"),
  limit: z.coerce.number().int().min(1).max(MAX_REQUEST_ROWS).default(20),
});
export type RequestListQuery = z.infer<typeof requestListQuerySchema>;

export const requestListSchema = z.object({
  total: z.number(),
  rows: z.array(
    z.object({
      requestId: z.string().nullable(),
      /**
       * The id the run's request detail opens this request by (the timeline's drill-down id,
       * lib/api/timeline.ts `aiperfRequestId`); null when the detail cannot open it: no start or
       * end recorded (not on the timeline), or a run whose timeline is TensorRT-LLM's requests.
       */
      rid: z.number().int().nullable(),
      ...nullableNumbers("startS", "ttftMs", "e2eMs", "itlMs", "inputTokens", "outputTokens"),
    }),
  ),
  /**
   * True when the list was stored before its rows carried their ids (every `rid` is null):
   * re-ingesting the run makes its rows open.
   */
  reingestToOpen: z.boolean(),
});
export type RequestList = z.infer<typeof requestListSchema>;

/** The sorts the latency view offers, slowest first; the route's default limit per list. */
export const SLOWEST_SORTS = ["ttft", "e2e", "itl"] as const;
export const SLOWEST_LIMIT = 20;

export const slowestPayloadSchema = z.object({
  total: z.number(),
  limit: z.number(),
  reingestToOpen: z.boolean(),
  lists: z.object({
    ttft: requestListSchema.shape.rows,
    e2e: requestListSchema.shape.rows,
    itl: requestListSchema.shape.rows,
  }),
});
export type SlowestPayload = z.infer<typeof slowestPayloadSchema>;

/**
 * Version 1 stored no row ids: its rows stay listed, none opens, and the list says that a
 * re-ingest makes them open (the ids come from the run's stored rows, which the payload lacks).
 */
export function upgradeSlowestPayload(stored: Record<string, unknown>): UpgradeResult {
  const lists = (stored.lists ?? {}) as Record<string, unknown>;
  const withoutIds = (rows: unknown) =>
    Array.isArray(rows) ? rows.map((r: Record<string, unknown>) => ({ ...r, rid: null })) : rows;
  return {
    payload: {
      ...stored,
      reingestToOpen: true,
      lists: Object.fromEntries(SLOWEST_SORTS.map((k) => [k, withoutIds(lists[k])])),
    },
  };
}
