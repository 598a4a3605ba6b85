/**
 * The per-request columns goodput (docs/metrics.md §Goodput) and the sweep point read: every row
 * of a run, no sample, a page at a time.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { streamRowObjects } from "./columnar/engine";
import { trtllmRequestsSource } from "./columnar/trtllm-request-file";
import type { Db } from "./db";
import type { TrtllmRequestsTable } from "./tables/trtllm";

/**
 * Every row a keyset read gives, `pageSize` rows a query: `page(after)` reads the rows after the
 * key of the previous page's last row (`after` null for the first page), in key order. On SQLite
 * a query runs on the main thread, so one query of 200,000 rows held the server for as long as
 * it took; each page here is a seek in an index, with a turn of the event loop after it (as
 * DuckDB's chunks, `streamRowObjects`). The key must be unique: rows of a key a page ended on
 * would be skipped.
 */
export async function* keysetPages<R, K>(
  page: (after: K | null) => Promise<R[]>,
  keyOf: (last: R) => K,
  pageSize: number,
): AsyncGenerator<R[]> {
  let after: K | null = null;
  for (;;) {
    const rows = await page(after);
    if (rows.length === 0) return;
    yield rows;
    await nextTurn();
    if (rows.length < pageSize) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

/** `aiperf_requests` rows read a query unless a caller says. */
const AIPERF_PAGE = 4_000;

const AIPERF_PROFILING_COLUMNS = [
  "file_id",
  "line",
  "request_id",
  "start_ms",
  "end_ms",
  "ok",
  "cancelled",
  "ttft_ms",
  "itl_ms",
  "e2e_ms",
  "input_tokens",
  "output_tokens",
] as const;

export interface AiperfProfilingRow {
  file_id: string;
  line: number;
  request_id: string | null;
  start_ms: number | null;
  end_ms: number | null;
  ok: number;
  cancelled: number;
  ttft_ms: number | null;
  itl_ms: number | null;
  e2e_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
}

/**
 * Every profiling-phase aiperf request of a run: from the run's request file a DuckDB chunk
 * (about 2,000 rows) a page, as DuckDB streams it; else `pageSize` rows a page from `aiperf_requests`
 * rows, keyset pages in (file, line) order through the (run_id, file_id, line) index (migration 021).
 */
export async function* aiperfProfilingPages(
  db: Db,
  runId: string,
  pageSize = AIPERF_PAGE,
): AsyncGenerator<AiperfProfilingRow[]> {
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    yield* streamRowObjects<AiperfProfilingRow>(
      `select ${AIPERF_PROFILING_COLUMNS.join(", ")} from ${src} where phase = 'profiling'`,
    );
    return;
  }
  yield* keysetPages(
    (after: { file: string; line: number } | null) => {
      let q = db
        .selectFrom("aiperf_requests")
        .select(AIPERF_PROFILING_COLUMNS)
        .where("run_id", "=", runId)
        .where("phase", "=", "profiling");
      if (after)
        q = q.where((eb) => eb(eb.refTuple("file_id", "line"), ">", eb.tuple(after.file, after.line)));
      return q.orderBy("file_id").orderBy("line").limit(pageSize).execute();
    },
    (last) => ({ file: last.file_id, line: last.line }),
    pageSize,
  );
}

/** The columns goodput reads of a TensorRT-LLM request row. */
export const TRTLLM_GOODPUT_COLUMNS = [
  "idx",
  "arrival_ms",
  "ttft_ms",
  "e2e_ms",
  "step_count",
  "spec_accepted_tokens",
  "mode",
  "first_iter",
  "last_iter",
] as const;
export type TrtllmGoodputColumns = Pick<TrtllmRequestsTable, (typeof TRTLLM_GOODPUT_COLUMNS)[number]>;

/** Every TensorRT-LLM request row of a run, `pageSize` rows a page in idx order, through the (run_id, idx) key. */
export function trtllmGoodputPages(db: Db, runId: string, pageSize: number) {
  return trtllmRowPages(db, runId, TRTLLM_GOODPUT_COLUMNS, pageSize);
}

/**
 * `columns` (idx among them) of every TensorRT-LLM request row of a run, `pageSize` rows a page in
 * idx order: from the run's request file (written in idx order, read in its order) as DuckDB
 * streams it, else through the (run_id, idx) key of a run stored as rows.
 */
export async function* trtllmRowPages<C extends keyof TrtllmRequestsTable & string>(
  db: Db,
  runId: string,
  columns: readonly (C | "idx")[],
  pageSize: number,
): AsyncGenerator<Array<Pick<TrtllmRequestsTable, C | "idx">>> {
  type Row = Pick<TrtllmRequestsTable, C | "idx">;
  const src = await trtllmRequestsSource(db, runId);
  if (src) {
    let page: Row[] = [];
    for await (const chunk of streamRowObjects<Row>(`select ${columns.join(", ")} from ${src}`))
      for (const r of chunk) {
        page.push(r);
        if (page.length === pageSize) {
          yield page;
          page = [];
        }
      }
    if (page.length > 0) yield page;
    return;
  }
  yield* keysetPages(
    (after: number | null) =>
      db
        .selectFrom("trtllm_requests")
        .select(columns as readonly C[])
        .where("run_id", "=", runId)
        .where("idx", ">", after ?? -1)
        .orderBy("idx")
        .limit(pageSize)
        .execute() as unknown as Promise<Array<Pick<TrtllmRequestsTable, C | "idx">>>,
    (last) => last.idx,
    pageSize,
  );
}
