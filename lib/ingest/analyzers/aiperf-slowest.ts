/**
 * The latency view's "slowest requests" lists, computed after the rows are written and
 * re-anchored. The in-memory columns give the count, each list's cut-off and its candidates; the
 * rows give their request ids, read with the route's own query (same order, same tie-break by
 * line) narrowed to the candidates' start times, which the (run_id, start_ms) index serves:
 * scanning a million rows per list would add seconds to the ingest. Should a candidate not be
 * found by its start (a start not recorded), the list is read by the cut-off alone. The passes
 * over the in-memory columns come in turns of the event loop (`slowestCandidatesInSteps`).
 */
import {
  SLOWEST_LIMIT,
  SLOWEST_SORTS,
  type RequestList,
  type RequestListQuery,
  type SlowestPayload,
} from "@/lib/api/aiperf-requests";
import { runOriginMs } from "@/lib/metrics/aiperf-run-result";
import { measuredCountInSteps, slowestCandidatesInSteps } from "@/lib/metrics/aiperf-slowest";
import type { RequestLog } from "@/lib/metrics/requests-log";
import { requestRows } from "@/lib/store/aiperf-requests";
import type { Db } from "@/lib/store/db";
import { inTurns } from "../in-turns";

export async function slowestRequestsPayload(
  db: Db,
  runId: string,
  log: RequestLog,
): Promise<SlowestPayload> {
  // Stored starts are relative to the run's first request (the analyzer re-anchors them in finish).
  const originMs = runOriginMs(log);
  const lists = {} as SlowestPayload["lists"];
  for (const sort of SLOWEST_SORTS) lists[sort] = await slowestList(db, runId, log, sort, originMs);
  const total = await inTurns(measuredCountInSteps(log));
  return { total, limit: SLOWEST_LIMIT, reingestToOpen: false, lists };
}

async function slowestList(
  db: Db,
  runId: string,
  log: RequestLog,
  sort: (typeof SLOWEST_SORTS)[number],
  originMs: number,
): Promise<RequestList["rows"]> {
  // Each list's passes over the requests in turns of the event loop (a 200,000-request upload's
  // took 31–92 ms in one).
  const found = await inTurns(slowestCandidatesInSteps(log, sort, originMs));
  if (!found) return [];
  const { atLeast, count, starts } = found;
  const query: RequestListQuery = { sort, order: "desc", limit: SLOWEST_LIMIT };
  if (!starts) return requestRows(db, runId, query, { atLeast });
  const rows = await requestRows(db, runId, { ...query, limit: count }, { atLeast, startsIn: starts });
  if (rows.length === count) return rows.slice(0, SLOWEST_LIMIT);
  return requestRows(db, runId, query, { atLeast });
}
