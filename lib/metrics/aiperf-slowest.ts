/**
 * The latency view's "slowest requests" lists, stored with the run at ingest. Asked of the rows,
 * they count and sort every request of the run (~0.7 s for a million on SQLite, no index serves
 * the sort), and the single-threaded server answers nothing else meanwhile; stored, the route
 * answers its default queries from one small payload.
 */
import { z } from "zod";
import type { Db } from "@/lib/store/db";
import { getChartData } from "@/lib/store/runs-repo";
import { runOriginMs } from "./aiperf-run-result";
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

/** Beyond this many tied candidates the list is read by the cut-off alone (a scan of the run's rows). */
const MAX_CANDIDATES = 1000;

/**
 * Computed after the rows are written and re-anchored. The in-memory columns give the count, each
 * list's cut-off value and its candidates (every measured request at or above it); the rows give
 * their request ids, read with the route's own query (same order, same tie-break by line) narrowed
 * to the candidates' start times, which the (run_id, start_ms) index serves: scanning a million
 * rows per list would add seconds to the ingest. Should a candidate not be found by its start
 * (a start not recorded), the list is read by the cut-off alone.
 */
export async function slowestRequestsPayload(
  db: Db,
  runId: string,
  log: RequestLog,
): Promise<SlowestPayload> {
  let total = 0;
  for (let i = 0; i < log.length; i++) if ((log.flags[i] & (FLAG_WARMUP | FLAG_ERROR)) === 0) total++;
  // Stored starts are relative to the run's first request (the analyzer re-anchors them in finish).
  const originMs = runOriginMs(log);
  const lists = {} as SlowestPayload["lists"];
  for (const sort of SLOWEST_SORTS) lists[sort] = await slowestList(db, runId, log, sort, originMs);
  return { total, limit: SLOWEST_LIMIT, lists };
}

async function slowestList(
  db: Db,
  runId: string,
  log: RequestLog,
  sort: (typeof SLOWEST_SORTS)[number],
  originMs: number,
): Promise<RequestList["rows"]> {
  const col = log.column(LOG_COLUMN[sort]);
  const top = largestMeasured(log, col, SLOWEST_LIMIT);
  if (top.length === 0) return [];
  const atLeast = top[top.length - 1];
  const query: RequestListQuery = { sort, order: "desc", limit: SLOWEST_LIMIT };
  const starts = new Set<number>();
  let candidates = 0;
  for (let i = 0; i < log.length; i++) {
    if (log.flags[i] & (FLAG_WARMUP | FLAG_ERROR) || !(col[i] >= atLeast)) continue;
    const start = log.cols.startMs[i] - originMs;
    if (++candidates > MAX_CANDIDATES || !Number.isFinite(start))
      return requestRows(db, runId, query, { atLeast });
    starts.add(start);
  }
  const rows = await requestRows(
    db,
    runId,
    { ...query, limit: candidates },
    { atLeast, startsIn: [...starts] },
  );
  if (rows.length === candidates) return rows.slice(0, SLOWEST_LIMIT);
  return requestRows(db, runId, query, { atLeast });
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
