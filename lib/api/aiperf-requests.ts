/**
 * The aiperf drill-down contract: the slowest (or fastest) requests by one metric, with their
 * untouched x_request_id, so a tail request can be found in the server's logs.
 */
import { z } from "zod";
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
      ...nullableNumbers("startS", "ttftMs", "e2eMs", "itlMs", "inputTokens", "outputTokens"),
    }),
  ),
});
export type RequestList = z.infer<typeof requestListSchema>;

/** The sorts the latency view offers, slowest first; the route's default limit per list. */
export const SLOWEST_SORTS = ["ttft", "e2e", "itl"] as const;
export const SLOWEST_LIMIT = 20;

export const slowestPayloadSchema = z.object({
  total: z.number(),
  limit: z.number(),
  lists: z.object({
    ttft: requestListSchema.shape.rows,
    e2e: requestListSchema.shape.rows,
    itl: requestListSchema.shape.rows,
  }),
});
export type SlowestPayload = z.infer<typeof slowestPayloadSchema>;
