/**
 * The latency view's "slowest requests" lists, stored with the run at ingest. Asked of the rows,
 * they count and sort every request of the run (~0.7 s for a million on SQLite, no index serves
 * the sort), and the single-threaded server answers nothing else meanwhile; stored, the route
 * answers its default queries from one small payload.
 */
import { z } from "zod";
import type { Db } from "@/lib/store/db";
import { getChartData } from "@/lib/store/runs-repo";
import { FLAG_ERROR, FLAG_WARMUP, type RequestColumn, type RequestLog } from "./requests-log";
import {
  listRequests,
  requestListSchema,
  requestRows,
  type RequestList,
  type RequestListQuery,
} from "./requests-query";

export const AIPERF_SLOWEST_CHART = "aiperf-slowest";

/** The sorts the latency view offers, slowest first; the route's default limit per list. */
export const SLOWEST_SORTS = ["ttft", "e2e", "itl"] as const;
export const SLOWEST_LIMIT = 20;

const LOG_COLUMN: Record<(typeof SLOWEST_SORTS)[number], RequestColumn> = {
  ttft: "ttftMs",
  e2e: "e2eMs",
  itl: "itlMs",
};

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

/**
 * The `limit` largest values of `col` over profiling requests without an error (the population
 * of `listRequests`), smallest last; fewer when fewer requests recorded the value.
 */
export function largestMeasured(log: RequestLog, col: Float64Array, limit: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < log.length; i++) {
    if (log.flags[i] & (FLAG_WARMUP | FLAG_ERROR)) continue;
    const v = col[i];
    if (Number.isNaN(v) || (top.length === limit && v <= top[limit - 1])) continue;
    let j = top.length < limit ? top.length : limit - 1;
    while (j > 0 && top[j - 1] < v) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = v;
  }
  return top;
}

/**
 * Computed after the rows are written and re-anchored: the in-memory columns give the count and
 * each list's cut-off value, the rows give the request ids. The rows are read with the route's
 * own query (same order and tie-break by line), bounded below by the cut-off so the database
 * sorts only the candidates.
 */
export async function slowestRequestsPayload(
  db: Db,
  runId: string,
  log: RequestLog,
): Promise<SlowestPayload> {
  let total = 0;
  for (let i = 0; i < log.length; i++) if ((log.flags[i] & (FLAG_WARMUP | FLAG_ERROR)) === 0) total++;
  const lists = {} as SlowestPayload["lists"];
  for (const sort of SLOWEST_SORTS) {
    const top = largestMeasured(log, log.column(LOG_COLUMN[sort]), SLOWEST_LIMIT);
    const atLeast = top.length === SLOWEST_LIMIT ? top[SLOWEST_LIMIT - 1] : undefined;
    lists[sort] = await requestRows(db, runId, { sort, order: "desc", limit: SLOWEST_LIMIT }, atLeast);
  }
  return { total, limit: SLOWEST_LIMIT, lists };
}

/** The stored answer to `q`, or null when the payload does not cover it (ask the rows). */
export function slowestFromPayload(payload: SlowestPayload, q: RequestListQuery): RequestList | null {
  if (q.order !== "desc" || q.sort === "start" || q.limit > payload.limit) return null;
  return { total: payload.total, rows: payload.lists[q.sort].slice(0, q.limit) };
}

/**
 * A request-list query answered from the stored payload when it covers the query, else from the
 * rows (other sorts, ascending order, larger limits, runs ingested before the payload existed).
 */
export async function slowestRequests(db: Db, runId: string, q: RequestListQuery): Promise<RequestList> {
  if (q.order === "desc" && q.sort !== "start") {
    const stored = await getChartData(db, runId, AIPERF_SLOWEST_CHART);
    const payload = stored === undefined ? null : slowestPayloadSchema.safeParse(JSON.parse(stored));
    const answer = payload?.success ? slowestFromPayload(payload.data, q) : null;
    if (answer) return answer;
  }
  return listRequests(db, runId, q);
}
