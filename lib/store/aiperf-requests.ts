/**
 * Reads of the stored aiperf request rows for the drill-down route. The latency view's default
 * lists are stored with the run at ingest: asked of the rows, they count and sort every request
 * of the run (~0.7 s for a million on SQLite, no index serves the sort), and the single-threaded
 * server answers nothing else meanwhile; stored, the route answers them from one small payload.
 */
import {
  slowestPayloadSchema,
  type RequestList,
  type RequestListQuery,
  type SlowestPayload,
} from "@/lib/api/aiperf-requests";
import { aiperfRequestId } from "@/lib/api/timeline";
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows } from "./columnar/engine";
import { trtllmRequestsSource } from "./columnar/trtllm-request-file";
import type { Db } from "./db";
import { aiperfProfilingPages, type AiperfProfilingRow } from "./goodput-rows";
import { getChartText } from "./chart-payloads";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { getFiles } from "./runs-repo";
import { AIPERF_REQUEST_MEASURES, type AiperfRequestsTable } from "./tables/aiperf";

const SORT_COLUMN = { ttft: "ttft_ms", e2e: "e2e_ms", itl: "itl_ms", start: "start_ms" } as const;

/**
 * Ingest writes start and end times relative to the first timestamp it saw; once the run's first
 * request is known, they are shifted to count from it (rows of importers; a run's aiperf request
 * file is written already shifted).
 */
export async function reanchorRequests(db: Db, runId: string, originMs: number): Promise<void> {
  await db
    .updateTable("aiperf_requests")
    .set((eb) => ({ start_ms: eb("start_ms", "-", originMs), end_ms: eb("end_ms", "-", originMs) }))
    .where("run_id", "=", runId)
    .execute();
}

/** Profiling-phase successful requests (the population of the statistics), ordered by `sort`. */
export async function listRequests(db: Db, runId: string, q: RequestListQuery): Promise<RequestList> {
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    const [{ n }] = await queryRows<{ n: number }>(
      `select count(*)::integer as n from ${src} where phase = 'profiling' and ok = 1`,
    );
    return { total: n, rows: await requestRows(db, runId, q), reingestToOpen: false };
  }
  return pagedRequestList(db, runId, q);
}

/** How a stored row finds the id the run's request detail opens it by (`rid` of a request list). */
type RidOf = (r: ListColumns) => number | null;

/**
 * The drill-down id of the run's rows, as the timeline gives it (lib/ingest/timeline-columns.ts):
 * the file's place in the run's file list and the line, for a row with a start and an end (the
 * timeline leaves the others out). A run with TensorRT-LLM requests has their timeline, whose ids
 * are theirs: its aiperf rows get none.
 */
async function ridsOf(db: Db, runId: string): Promise<RidOf> {
  const trtllm =
    (await trtllmRequestsSource(db, runId)) !== null ||
    (await db
      .selectFrom("trtllm_requests")
      .select("idx")
      .where("run_id", "=", runId)
      .limit(1)
      .executeTakeFirst()) !== undefined;
  if (trtllm) return () => null;
  const fileIndex = new Map((await getFiles(db, runId)).map((f, i) => [f.id, i]));
  return (r) => {
    const f = fileIndex.get(r.file_id);
    return f === undefined || r.start_ms === null || r.end_ms === null ? null : aiperfRequestId(f, r.line);
  };
}

/**
 * `listRequests` over `aiperf_requests` rows, read in the shared pages (./goodput-rows.ts, a turn
 * of the event loop after each): on SQLite the count and the sort of every row of a run were one
 * query each on the main thread. The list is kept as the best `limit` rows so far, in the order
 * of `fileRequestRows` (value, then line, then file).
 */
async function pagedRequestList(db: Db, runId: string, q: RequestListQuery): Promise<RequestList> {
  const column = SORT_COLUMN[q.sort];
  const sign = q.order === "desc" ? -1 : 1;
  const cmp = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
  const before = (a: AiperfProfilingRow, b: AiperfProfilingRow) =>
    sign * cmp(a[column] as number, b[column] as number) ||
    cmp(a.line, b.line) ||
    (a.file_id < b.file_id ? -1 : a.file_id > b.file_id ? 1 : 0);
  const rid = await ridsOf(db, runId);
  let total = 0;
  let best: AiperfProfilingRow[] = [];
  for await (const page of aiperfProfilingPages(db, runId)) {
    const measured = page.filter((r) => r.ok === 1);
    total += measured.length;
    best = best
      .concat(measured.filter((r) => r[column] !== null))
      .sort(before)
      .slice(0, q.limit);
  }
  return { total, rows: best.map((r) => listRow(r, rid)), reingestToOpen: false };
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
  const src = await aiperfRequestsSource(db, runId);
  const rid = await ridsOf(db, runId);
  if (src) return fileRequestRows(src, column, q, narrow, rid);
  let query = measuredRows(db, runId).where(column, "is not", null);
  if (narrow.startsIn) query = query.where("start_ms", "in", narrow.startsIn);
  if (narrow.atLeast !== undefined && q.order === "desc") query = query.where(column, ">=", narrow.atLeast);
  const rows = await query
    .select(LIST_COLUMNS)
    .orderBy(column, q.order)
    .orderBy("line", "asc")
    .limit(q.limit)
    .execute();
  return rows.map((r) => listRow(r, rid));
}

const LIST_COLUMNS = ["file_id", "line", "request_id", ...AIPERF_REQUEST_MEASURES] as const;

/** The stored columns a request list reads, from rows or the request file alike. */
type ListColumns = Pick<AiperfRequestsTable, (typeof LIST_COLUMNS)[number]>;

/** One stored request as the request list shows it (starts in seconds). */
function listRow(r: ListColumns, rid: RidOf): RequestList["rows"][number] {
  return {
    requestId: r.request_id,
    rid: rid(r),
    startS: r.start_ms === null ? null : r.start_ms / 1000,
    ttftMs: r.ttft_ms,
    e2eMs: r.e2e_ms,
    itlMs: r.itl_ms,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
  };
}

/**
 * `requestRows` over the run's Parquet file: the same filters and order (ties by line, then
 * file). `startsIn` is not applied: it only narrows a row read to an index's entries, and a
 * top-N over the file's column needs no index (nor thousands of bound values on many ties).
 * Identifiers come from SORT_COLUMN, values are bound.
 */
async function fileRequestRows(
  src: string,
  column: (typeof SORT_COLUMN)[keyof typeof SORT_COLUMN],
  q: RequestListQuery,
  narrow: { atLeast?: number },
  rid: RidOf,
): Promise<RequestList["rows"]> {
  const where = ["phase = 'profiling'", "ok = 1", `${column} is not null`];
  const values: Array<number | string> = [];
  // Bound as text and cast: DuckDB's binding takes a whole JS number (-1e308 is one) as a BIGINT
  // and throws past its range; the text of a number casts back to the same double.
  if (narrow.atLeast !== undefined && q.order === "desc")
    where.push(`${column} >= $${values.push(String(narrow.atLeast))}::double`);
  const limit = `$${values.push(q.limit)}::integer`;
  const rows = await queryRows<ListColumns>(
    `select ${LIST_COLUMNS.join(", ")} from ${src}
      where ${where.join(" and ")}
      order by ${column} ${q.order === "desc" ? "desc" : "asc"}, line asc, file_id asc limit ${limit}`,
    values,
  );
  return rows.map((r) => listRow(r, rid));
}

/** The stored answer to `q`, or null when the payload does not cover it (ask the rows). */
export function slowestFromPayload(payload: SlowestPayload, q: RequestListQuery): RequestList | null {
  if (q.order !== "desc" || q.sort === "start" || q.limit > payload.limit) return null;
  return {
    total: payload.total,
    rows: payload.lists[q.sort].slice(0, q.limit),
    reingestToOpen: payload.reingestToOpen,
  };
}

/**
 * A request-list query answered from the stored payload when it covers the query, else from the
 * rows (other sorts, ascending order, larger limits, runs ingested before the payload existed).
 */
export async function slowestRequests(db: Db, runId: string, q: RequestListQuery): Promise<RequestList> {
  if (q.order === "desc" && q.sort !== "start") {
    const stored = await getChartText(db, runId, AIPERF_CHARTS.slowest.key);
    const payload = stored === undefined ? null : slowestPayloadSchema.safeParse(JSON.parse(stored));
    const answer = payload?.success ? slowestFromPayload(payload.data, q) : null;
    if (answer) return answer;
  }
  return listRequests(db, runId, q);
}
