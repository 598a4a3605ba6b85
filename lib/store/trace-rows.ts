/**
 * Reads for the trace export, in pages so a large run streams out without being held in memory:
 * TensorRT-LLM rows by the per-request chart's sample, aiperf rows in start order.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows, streamRowSlices, type Pause } from "./columnar/engine";
import { trtllmRequestsSource } from "./columnar/trtllm-request-file";
import type { Db } from "./db";
import type { TrtllmRequestsTable } from "./tables/trtllm";
import { fileCount, sampledIdx } from "./trtllm-requests";

/**
 * Request numbers (idx) counted per query of trtllmRequestCount. An object so a test can count a
 * smaller run in as many ranges; the server never changes it.
 */
export const COUNT_RANGE = { requests: 8192 };

/**
 * The run's TensorRT-LLM requests, counted a range of COUNT_RANGE request numbers a query
 * through the `(run_id, idx)` key, with a turn of the event loop between two queries: on SQLite
 * a query runs on the main thread, and one count of a 200,000-request run's key walked every
 * entry in one piece. The lowest and highest numbers (look-ups at the key's ends) bound the ranges.
 */
export async function trtllmRequestCount(db: Db, runId: string): Promise<number> {
  // The run's request file: DuckDB counts from the Parquet footer.
  const src = await trtllmRequestsSource(db, runId);
  if (src) return fileCount(src);
  // Each end its own look-up (first and last entry of the key): one query asking both would walk it.
  const end = (order: "asc" | "desc") =>
    db
      .selectFrom("trtllm_requests")
      .select("idx")
      .where("run_id", "=", runId)
      .orderBy("idx", order)
      .limit(1)
      .executeTakeFirst();
  const first = await end("asc");
  const last = await end("desc");
  if (!first || !last) return 0;
  const [low, top] = [Number(first.idx), Number(last.idx)];
  let total = 0;
  for (let from = low; from <= top; from += COUNT_RANGE.requests) {
    if (from > low) await nextTurn();
    const { n } = await db
      .selectFrom("trtllm_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("run_id", "=", runId)
      .where("idx", ">=", from)
      .where("idx", "<", from + COUNT_RANGE.requests)
      .executeTakeFirstOrThrow();
    total += Number(n);
  }
  return total;
}

/** The columns the trace export reads of a TensorRT-LLM request row. */
export const TRTLLM_TRACE_COLUMNS = [
  "idx",
  "mode",
  "request_id",
  "ctx_worker",
  "gen_worker",
  "times_json",
  "segments_json",
  "steps_json",
] as const;
export type TrtllmTraceColumns = Pick<TrtllmRequestsTable, (typeof TRTLLM_TRACE_COLUMNS)[number]>;

/** How the trace's sample is read: rows per page, and what is awaited between two slices of rows. */
export interface TraceReadOptions {
  page?: number;
  /** Awaited between slices (a turn of the event loop; a test counts them) */
  pause?: Pause;
}

/** The sampled rows (the per-request chart's sample of at most `limit`), `page` at a time, by idx. */
export async function* trtllmTracePages(
  db: Db,
  runId: string,
  total: number,
  limit: number,
  { page = 200, pause = nextTurn }: TraceReadOptions = {},
) {
  const wanted = sampledIdx(total, limit);
  const src = await trtllmRequestsSource(db, runId);
  for (let i = 0; i < wanted.length; i += page) {
    const some = wanted.slice(i, i + page);
    const rows = src
      ? // The idx values are integers counted here, written into the text as numbers.
        await queryRows<TrtllmTraceColumns>(
          `select ${TRTLLM_TRACE_COLUMNS.join(", ")} from ${src} where idx in (${some.join(", ")}) order by idx`,
        )
      : await db
          .selectFrom("trtllm_requests")
          .select(TRTLLM_TRACE_COLUMNS)
          .where("run_id", "=", runId)
          .where("idx", "in", some)
          .orderBy("idx")
          .execute();
    yield rows;
    // better-sqlite3 answers synchronously: without a turn of the loop between pages, the whole
    // trace would run as one chain of microtasks and hold every other request until it ends.
    await pause();
  }
}

/** aiperf records that have a place on a time axis: a start and an end. */
function timedAiperf(db: Db, runId: string) {
  return db
    .selectFrom("aiperf_requests")
    .where("run_id", "=", runId)
    .where("start_ms", "is not", null)
    .where("end_ms", "is not", null);
}

const TIMED = "start_ms is not null and end_ms is not null";

export async function aiperfTimedCount(db: Db, runId: string): Promise<number> {
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    const [{ n }] = await queryRows<{ n: number }>(
      `select count(*)::integer as n from ${src} where ${TIMED}`,
    );
    return n;
  }
  const row = await timedAiperf(db, runId)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Every timed aiperf record in start order (then file and line), `page` at a time. Keyset pages,
 * not offsets: an offset re-reads every earlier row, which is quadratic over a million records.
 */
export async function* aiperfTracePages(db: Db, runId: string, page = 2000, pause: Pause = nextTurn) {
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    yield* aiperfFileTracePages(src, page, pause);
    return;
  }
  let after: { start: number; file: string; line: number } | null = null;
  for (;;) {
    const from = after;
    let q = timedAiperf(db, runId).select(TRACE_COLUMNS);
    // `start_ms >= …` first: the (run_id, start_ms) index then starts each page where the last ended.
    if (from)
      q = q
        .where("start_ms", ">=", from.start)
        .where((eb) =>
          eb.or([
            eb("start_ms", ">", from.start),
            eb.and([eb("start_ms", "=", from.start), eb("file_id", ">", from.file)]),
            eb.and([
              eb("start_ms", "=", from.start),
              eb("file_id", "=", from.file),
              eb("line", ">", from.line),
            ]),
          ]),
        );
    const rows = await q.orderBy("start_ms").orderBy("file_id").orderBy("line").limit(page).execute();
    if (rows.length === 0) return;
    yield rows;
    await pause();
    const last = rows[rows.length - 1];
    after = { start: last.start_ms as number, file: last.file_id, line: last.line };
    if (rows.length < page) return;
  }
}

const TRACE_COLUMNS = [
  "file_id",
  "line",
  "request_id",
  "phase",
  "ok",
  "error_type",
  "start_ms",
  "end_ms",
  "ttft_ms",
  "worker_id",
] as const;

type TraceRow = {
  file_id: string;
  line: number;
  request_id: string | null;
  phase: "profiling" | "warmup";
  ok: number;
  error_type: string | null;
  start_ms: number | null;
  end_ms: number | null;
  ttft_ms: number | null;
  worker_id: string | null;
};

/**
 * The timed aiperf records at `positions` (0-based, increasing) of the start order (then file and
 * line), in that order, `page` at a time: the trace's sample. From the run's Parquet file DuckDB
 * numbers the records and hands over only those (2,000 of a 200,000-request run; converting every
 * record to JS values to keep 1 in 100 held the server for seconds, most of it garbage
 * collection); from rows, the keyset pages are walked and the rest skipped. From the file, the
 * rows are converted from DuckDB's values a slice at a time (ROW_SLICE, `streamRowSlices`), with
 * `pause` between slices.
 */
export async function* aiperfTraceSample(
  db: Db,
  runId: string,
  positions: readonly number[],
  { page = 2000, pause = nextTurn }: TraceReadOptions = {},
): AsyncGenerator<TraceRow[]> {
  if (positions.length === 0) return;
  for (let i = 0; i < positions.length; i++)
    if (
      !Number.isSafeInteger(positions[i]) ||
      positions[i] < 0 ||
      (i > 0 && positions[i] <= positions[i - 1])
    )
      throw new Error("trace sample positions must be increasing non-negative integers");
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    yield* aiperfFileTracePages(src, page, pause, positions);
    return;
  }
  let at = 0;
  let k = 0;
  for await (const rows of aiperfTracePages(db, runId, page, pause)) {
    const kept: TraceRow[] = [];
    for (const r of rows) {
      if (at++ === positions[k]) {
        kept.push(r as TraceRow);
        k++;
      }
    }
    if (kept.length > 0) yield kept;
    if (k === positions.length) return;
  }
}

/**
 * The same pages from the run's Parquet file: one sorted read, streamed, converted a slice at a
 * time with `pause` between slices, gathered into pages here; with `positions`, only the records
 * at those places of the order.
 */
async function* aiperfFileTracePages(
  src: string,
  page: number,
  pause: Pause,
  positions?: readonly number[],
): AsyncGenerator<TraceRow[]> {
  let rows: TraceRow[] = [];
  const columns = TRACE_COLUMNS.join(", ");
  const order = "start_ms, file_id, line";
  const text = positions
    ? // The positions are checked integers (aiperfTraceSample), written into the text as numbers.
      `select ${columns} from (select ${columns}, row_number() over (order by ${order}) - 1 as pos from ${src} where ${TIMED}) where pos in (${positions.join(", ")}) order by pos`
    : `select ${columns} from ${src} where ${TIMED} order by ${order}`;
  for await (const chunk of streamRowSlices(text, [], { pause })) {
    for (const r of chunk) {
      const row = {} as Record<string, unknown>;
      TRACE_COLUMNS.forEach((c, i) => (row[c] = r[i]));
      rows.push(row as TraceRow);
      if (rows.length === page) {
        yield rows;
        rows = [];
      }
    }
  }
  if (rows.length > 0) yield rows;
}
