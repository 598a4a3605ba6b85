/**
 * Drill-down over stored aiperf request rows: the slowest (or fastest) requests by one metric,
 * with their untouched x_request_id, so a tail request can be found in the server's logs.
 */
import { z } from "zod";
import type { Db } from "@/lib/store/db";

export const REQUEST_SORTS = ["ttft", "e2e", "itl", "start"] as const;
export const MAX_REQUEST_ROWS = 200;

const SORT_COLUMN = { ttft: "ttft_ms", e2e: "e2e_ms", itl: "itl_ms", start: "start_ms" } as const;

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
      startS: z.number().nullable(),
      ttftMs: z.number().nullable(),
      e2eMs: z.number().nullable(),
      itlMs: z.number().nullable(),
      inputTokens: z.number().nullable(),
      outputTokens: z.number().nullable(),
    }),
  ),
});
export type RequestList = z.infer<typeof requestListSchema>;

/** Profiling-phase successful requests (the population of the statistics), ordered by `sort`. */
export async function listRequests(db: Db, runId: string, q: RequestListQuery): Promise<RequestList> {
  const count = await measuredRows(db, runId)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return { total: Number(count?.n ?? 0), rows: await requestRows(db, runId, q) };
}

function measuredRows(db: Db, runId: string) {
  return db
    .selectFrom("aiperf_requests")
    .where("run_id", "=", runId)
    .where("phase", "=", "profiling")
    .where("ok", "=", 1);
}

/**
 * The rows of `listRequests`, optionally narrowed to candidates known to include the answer:
 * `atLeast` (descending order) drops rows below the limit-th largest value, `startsIn` keeps rows
 * whose start is one of the given values, which the (run_id, start_ms) index finds without
 * reading the run's other rows.
 */
export async function requestRows(
  db: Db,
  runId: string,
  q: RequestListQuery,
  narrow: { atLeast?: number; startsIn?: number[] } = {},
): Promise<RequestList["rows"]> {
  const column = SORT_COLUMN[q.sort];
  let query = measuredRows(db, runId).where(column, "is not", null);
  if (narrow.startsIn) query = query.where("start_ms", "in", narrow.startsIn);
  if (narrow.atLeast !== undefined && q.order === "desc") query = query.where(column, ">=", narrow.atLeast);
  const rows = await query
    .select(["request_id", "start_ms", "ttft_ms", "e2e_ms", "itl_ms", "input_tokens", "output_tokens"])
    .orderBy(column, q.order)
    .orderBy("line", "asc")
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({
    requestId: r.request_id,
    startS: r.start_ms === null ? null : r.start_ms / 1000,
    ttftMs: r.ttft_ms,
    e2eMs: r.e2e_ms,
    itlMs: r.itl_ms,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
  }));
}
