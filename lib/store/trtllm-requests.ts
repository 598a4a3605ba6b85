/** Reads of the TensorRT-LLM per-request rows for the drill-down routes (shaped in lib/runs). */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { SampleSort } from "@/lib/api/trtllm-charts";
import { queryRows } from "./columnar/engine";
import { TRTLLM_REQUEST_ROW_COLUMNS, trtllmRequestsSource } from "./columnar/trtllm-request-file";
import type { Db } from "./db";
import { trtllmRowPages } from "./goodput-rows";
import { TRTLLM_REQUEST_ID_COLUMNS, type TrtllmRequestsTable } from "./tables/trtllm";

/**
 * Sampled rows read a query (each holds its segments' JSON), a turn of the event loop between. An
 * object so a test can page a smaller run as many times; the server never changes it.
 */
export const SAMPLE_PAGE = { rows: 250 };

const SORT_COLUMN = { ttft: "ttft_ms", e2e: "e2e_ms", arrival: "arrival_ms" } as const;

const SAMPLE_COLUMNS = [
  "idx",
  "mode",
  "request_id",
  "disagg_request_id",
  "arrival_ms",
  "ttft_ms",
  "e2e_ms",
  "segments_json",
] as const;
type SampleRow = Pick<TrtllmRequestsTable, (typeof SAMPLE_COLUMNS)[number]>;

/** How many requests the run's request file holds. */
export async function fileCount(src: string): Promise<number> {
  const [{ n }] = await queryRows<{ n: number }>(`select count(*)::integer as n from ${src}`);
  return n;
}

/** How many `trtllm_requests` rows a run stored before the request file holds. */
async function rowCount(db: Db, runId: string): Promise<number> {
  const { total } = await db
    .selectFrom("trtllm_requests")
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .where("run_id", "=", runId)
    .executeTakeFirstOrThrow();
  return Number(total);
}

/**
 * The rows of an evenly strided sample of at most `limit` requests (every k-th by arrival order),
 * sorted, missing values last whatever the order; null when the run has none. Read
 * `SAMPLE_PAGE` rows a query, with a turn of the event loop between them.
 */
export async function sampleRequestRows(
  db: Db,
  runId: string,
  sort: SampleSort,
  order: "asc" | "desc",
  limit: number,
) {
  const src = await trtllmRequestsSource(db, runId);
  const n = src ? await fileCount(src) : await rowCount(db, runId);
  if (n === 0) return null;
  const wanted = sampledIdx(n, limit);
  const rows: SampleRow[] = [];
  for (let i = 0; i < wanted.length; i += SAMPLE_PAGE.rows) {
    if (i > 0) await nextTurn();
    const some = wanted.slice(i, i + SAMPLE_PAGE.rows);
    const page = src
      ? // The idx values are integers counted here, written into the text as numbers.
        await queryRows<SampleRow>(
          `select ${SAMPLE_COLUMNS.join(", ")} from ${src} where idx in (${some.join(", ")})`,
        )
      : await db
          .selectFrom("trtllm_requests")
          .select(SAMPLE_COLUMNS)
          .where("run_id", "=", runId)
          .where("idx", "in", some)
          .execute();
    for (const r of page) rows.push(r);
  }
  const col = SORT_COLUMN[sort];
  const sign = order === "asc" ? 1 : -1;
  rows.sort((a, b) => {
    const x = a[col];
    const y = b[col];
    if (x === null || y === null) return x === y ? a.idx - b.idx : x === null ? 1 : -1;
    return (x - y) * sign || a.idx - b.idx;
  });
  return { total: n, rows };
}

/**
 * The idx values of the per-request sample: every k-th request by arrival order, k the smallest
 * stride that keeps at most `limit`. Rows are numbered 0…n-1, so naming the sampled idx values
 * reads them through the primary key, where `idx % stride = 0` scanned every row of the run
 * (seconds at a million requests).
 */
export function sampledIdx(n: number, limit: number): number[] {
  const stride = Math.max(1, Math.ceil(n / limit));
  const wanted: number[] = [];
  for (let idx = 0; idx < n; idx += stride) wanted.push(idx);
  return wanted;
}

export async function requestRow(
  db: Db,
  runId: string,
  idx: number,
): Promise<TrtllmRequestsTable | undefined> {
  const src = await trtllmRequestsSource(db, runId);
  if (src) {
    const rows = await queryRows<Omit<TrtllmRequestsTable, "run_id">>(
      `select ${TRTLLM_REQUEST_ROW_COLUMNS.join(", ")} from ${src} where idx = $1::integer limit 1`,
      [idx],
    );
    return rows.length === 0 ? undefined : { run_id: runId, ...rows[0] };
  }
  return db
    .selectFrom("trtllm_requests")
    .selectAll()
    .where((eb) => eb.and({ run_id: runId, idx }))
    .executeTakeFirst();
}

/**
 * The TensorRT-LLM request of the run whose own id equals `id`, in the order the journey's join
 * tries the ids (`disagg_request_id`, then `request_id`, then `ctx_request_id`; the first request
 * by idx within one), and how many requests the run holds (0: no TensorRT-LLM records), for the
 * request journey (docs/metrics.md §Client to engine).
 */
export async function requestRowBySharedId(db: Db, runId: string, id: string) {
  const src = await trtllmRequestsSource(db, runId);
  const total = src ? await fileCount(src) : await rowCount(db, runId);
  if (total === 0) return { total: 0, row: undefined };
  const rows = src
    ? await queryRows<Pick<TrtllmRequestsTable, (typeof SHARED_ID_ROW_COLUMNS)[number]>>(
        `select ${SHARED_ID_ROW_COLUMNS.join(", ")} from ${src}
          where disagg_request_id = $1 or request_id = $1 or ctx_request_id = $1 order by idx`,
        [id],
      )
    : await db
        .selectFrom("trtllm_requests")
        .select(SHARED_ID_ROW_COLUMNS)
        .where("run_id", "=", runId)
        .where((eb) =>
          eb.or([eb("disagg_request_id", "=", id), eb("request_id", "=", id), eb("ctx_request_id", "=", id)]),
        )
        .orderBy("idx")
        .execute();
  const rank = (r: (typeof rows)[number]) => (r.disagg_request_id === id ? 0 : r.request_id === id ? 1 : 2);
  let row: (typeof rows)[number] | undefined;
  for (const r of rows) if (!row || rank(r) < rank(row)) row = r;
  return { total, row };
}

/** The columns of a TensorRT-LLM request the journey draws (its ids, stamps and latency). */
export const SHARED_ID_ROW_COLUMNS = [
  "idx",
  ...TRTLLM_REQUEST_ID_COLUMNS,
  "times_json",
  "ttft_ms",
  "e2e_ms",
  "kv_transfer_ms",
] as const;

/** One page of a run's TensorRT-LLM requests: their own ids and their stored TTFT and E2E. */
export interface SharedIdRow {
  idx: number;
  request_id: string | null;
  ctx_request_id: string | null;
  disagg_request_id: string | null;
  ttft_ms: number | null;
  e2e_ms: number | null;
}

/**
 * Every TensorRT-LLM request of a run, `pageSize` a page in idx order through the (run_id, idx)
 * key, with a turn of the event loop after each (keysetPages): the ids the run's client↔server
 * gap joins on and the latency it subtracts.
 */
export function sharedIdPages(db: Db, runId: string, pageSize = 4_000): AsyncGenerator<SharedIdRow[]> {
  const columns = ["idx", "request_id", "ctx_request_id", "disagg_request_id", "ttft_ms", "e2e_ms"] as const;
  return trtllmRowPages(db, runId, columns, pageSize);
}
