/**
 * Reads of the per-request rows the request timeline is built from (shaped in lib/runs). A run's
 * rows are read once, only the columns a bar needs, and handed over one at a time: on SQLite
 * through a raw statement (arrays, no row objects). A million rows take seconds (each is found
 * through the (run_id, start_ms) index), so the read yields to the event loop after a bounded
 * piece of work (`TurnBudget`): the server keeps answering meanwhile.
 */
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows, streamRows } from "./columnar/engine";
import { trtllmRequestsSource } from "./columnar/trtllm-request-file";
import type { Db } from "./db";
import { rawSqlite } from "./raw-sqlite";
import type { AiperfRequestsTable } from "./tables/aiperf";

export type TrtllmTimelineRow = [
  idx: number,
  mode: "aggregated" | "disaggregated",
  ctxWorker: string | null,
  genWorker: string | null,
  arrivalMs: number | null,
  e2eMs: number | null,
  timesJson: string,
  segmentsJson: string,
];

export type AiperfTimelineRow = [
  fileId: string,
  line: number,
  ok: number,
  startMs: number | null,
  endMs: number | null,
  ttftMs: number | null,
  conversationId: string | null,
  workerId: string | null,
];

const TRTLLM_SQL = `select idx, mode, ctx_worker, gen_worker, arrival_ms, e2e_ms, times_json, segments_json
  from trtllm_requests where run_id = ?`;
// Profiling records only: warmup requests are not the benchmark, and the statistics leave them out too.
const AIPERF_SQL = `select file_id, line, ok, start_ms, end_ms, ttft_ms, conversation_id, worker_id
  from aiperf_requests where run_id = ? and phase = 'profiling'`;

/**
 * How much of a read is handed to `fn` between two turns of the event loop: at most `rows` rows,
 * and, when `fn` parses text columns (`text`, their places in the row), no more rows once those
 * columns' text since the last turn reaches `chars`. The work of a row is mostly its parse, so the
 * slice is bounded by work, not by a count of rows of any size.
 */
interface TurnBudget {
  rows: number;
  text?: readonly number[];
  chars?: number;
}

/** aiperf rows: numbers and short strings, nothing parsed. */
const AIPERF_TURN: TurnBudget = { rows: 4_000 };

/**
 * A TensorRT-LLM row's `fn` parses its times and segments (some 750 characters for a
 * disaggregated request): 4,000 rows a turn held the loop 43–86 ms of CPU at load 21 (docs/reliability.md).
 * Now some 500 such rows a turn, fewer when their texts are longer.
 */
export const TRTLLM_TURN: Readonly<Required<TurnBudget>> = { rows: 1_000, text: [6, 7], chars: 384 * 1024 };

/** Counts what a read hands over and says when a turn is due. */
function turnCounter({ rows, text = [], chars = Infinity }: TurnBudget) {
  let n = 0;
  let c = 0;
  return (row: readonly unknown[]): boolean => {
    n++;
    for (const i of text) {
      const v = row[i];
      if (typeof v === "string") c += v.length;
    }
    if (n < rows && c < chars) return false;
    n = 0;
    c = 0;
    return true;
  };
}

async function eachRow<R extends unknown[]>(
  db: Db,
  text: string,
  runId: string,
  fallback: () => Promise<Record<string, unknown>[]>,
  columns: readonly string[],
  budget: TurnBudget,
  fn: (row: R) => void,
): Promise<void> {
  const sqlite = rawSqlite(db);
  if (sqlite) {
    await db.connection().execute(async () => {
      const due = turnCounter(budget);
      for (const row of sqlite.prepare(text).raw().iterate(runId)) {
        fn(row as R);
        if (due(row as R)) await new Promise((resolve) => setImmediate(resolve));
      }
    });
    return;
  }
  // PostgreSQL: the rows arrive in one answer, parsed as they come; handed on in the same turns.
  const due = turnCounter(budget);
  for (const r of await fallback()) {
    const row = columns.map((c) => r[c]) as R;
    fn(row);
    if (due(row)) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The columns a timeline bar reads of a TensorRT-LLM request row. */
export const TRTLLM_TIMELINE_COLUMNS = [
  "idx",
  "mode",
  "ctx_worker",
  "gen_worker",
  "arrival_ms",
  "e2e_ms",
  "times_json",
  "segments_json",
] as const;
const AIPERF_COLUMNS = [
  "file_id",
  "line",
  "ok",
  "start_ms",
  "end_ms",
  "ttft_ms",
  "conversation_id",
  "worker_id",
] as const;

/**
 * Every TensorRT-LLM request's timeline columns in idx order: from the run's request file (in its
 * order) a DuckDB chunk at a time, handed on in the same turns as rows; else from its rows.
 */
export async function eachTrtllmTimelineRow(db: Db, runId: string, fn: (r: TrtllmTimelineRow) => void) {
  const src = await trtllmRequestsSource(db, runId);
  if (src) {
    const due = turnCounter(TRTLLM_TURN);
    for await (const chunk of streamRows(`select ${TRTLLM_TIMELINE_COLUMNS.join(", ")} from ${src}`))
      for (const row of chunk) {
        fn(row as TrtllmTimelineRow);
        if (due(row)) await new Promise((resolve) => setImmediate(resolve));
      }
    return;
  }
  const all = () =>
    db.selectFrom("trtllm_requests").select(TRTLLM_TIMELINE_COLUMNS).where("run_id", "=", runId).execute();
  return eachRow(db, TRTLLM_SQL, runId, all, TRTLLM_TIMELINE_COLUMNS, TRTLLM_TURN, fn);
}

/**
 * The profiling rows of an aiperf run; resolves true when they came in the file's order (the
 * run's request file), not by start: sorted by start in DuckDB, a 600,000-request run held about
 * 230 MB of DuckDB's memory for the sort (docs/performance.md §Ingest memory), and the timeline
 * sorts them by start anyway (TimelineBuilder.finish, `lanesInStartOrder`).
 */
export async function eachAiperfTimelineRow(
  db: Db,
  runId: string,
  fn: (r: AiperfTimelineRow) => void,
): Promise<boolean> {
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    for await (const chunk of streamRows(
      `select ${AIPERF_COLUMNS.join(", ")} from ${src} where phase = 'profiling'`,
    ))
      for (const r of chunk) fn(r as AiperfTimelineRow);
    return true;
  }
  const all = () =>
    db
      .selectFrom("aiperf_requests")
      .select(AIPERF_COLUMNS)
      .where("run_id", "=", runId)
      .where("phase", "=", "profiling")
      .execute();
  await eachRow(db, AIPERF_SQL, runId, all, AIPERF_COLUMNS, AIPERF_TURN, fn);
  return false;
}

/** The run's aiperf request file as DuckDB reads it (`read_parquet(…)`); null for a run stored as rows. */
export function aiperfTimelineFile(db: Db, runId: string): Promise<string | null> {
  return aiperfRequestsSource(db, runId);
}

/**
 * The profiling rows of a run's request file (`aiperfTimelineFile`) in the file's order, the same
 * order every time it is read (DuckDB keeps a read's order). `bounds`: only the columns a bar's
 * place and parts need (file, line, ok, start, end, TTFT), the conversation and worker left out.
 */
export async function eachAiperfFileTimelineRow(
  src: string,
  fn: (r: AiperfTimelineRow) => void,
  { bounds = false }: { bounds?: boolean } = {},
): Promise<void> {
  const columns = bounds ? AIPERF_COLUMNS.slice(0, 6) : AIPERF_COLUMNS;
  for await (const chunk of streamRows(`select ${columns.join(", ")} from ${src} where phase = 'profiling'`))
    for (const r of chunk) fn(r as AiperfTimelineRow);
}

/** One aiperf record by its file and line; its start narrows the read to one entry of the (run_id, start_ms) index. */
export async function aiperfRequestAt(db: Db, runId: string, fileId: string, line: number, startMs: number) {
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    const rows = await queryRows<Omit<AiperfRequestsTable, "run_id">>(
      `select * from ${src} where start_ms = $1::double and file_id = $2 and line = $3::integer limit 1`,
      [startMs, fileId, line],
    );
    return rows.length === 0 ? undefined : { run_id: runId, ...rows[0] };
  }
  return db
    .selectFrom("aiperf_requests")
    .selectAll()
    .where("run_id", "=", runId)
    .where("start_ms", "=", startMs)
    .where("file_id", "=", fileId)
    .where("line", "=", line)
    .executeTakeFirst();
}

/** What the journey reads of the aiperf record a TensorRT-LLM request shares an id with. */
export interface AiperfSharedIdRow {
  file_id: string;
  line: number;
  request_id: string | null;
  start_ms: number | null;
  ttft_ms: number | null;
  e2e_ms: number | null;
}

/**
 * The run's profiling aiperf records whose x_request_id (`request_id` here) is one of `ids`, in
 * file and line order: the client's side of a TensorRT-LLM request (docs/metrics.md §Client to
 * engine). No index serves the match: the request file's column is scanned (some ms at 200,000
 * requests), the rows of a run stored before it likewise.
 */
export async function aiperfRecordsByRequestId(
  db: Db,
  runId: string,
  ids: string[],
): Promise<AiperfSharedIdRow[]> {
  if (ids.length === 0) return [];
  const columns = ["file_id", "line", "request_id", "start_ms", "ttft_ms", "e2e_ms"] as const;
  const src = await aiperfRequestsSource(db, runId);
  if (src)
    return queryRows<AiperfSharedIdRow>(
      `select ${columns.join(", ")} from ${src} where phase = 'profiling' and request_id in (${ids
        .map((_, i) => `$${i + 1}`)
        .join(", ")}) order by file_id, line`,
      ids,
    );
  return db
    .selectFrom("aiperf_requests")
    .select(columns)
    .where("run_id", "=", runId)
    .where("phase", "=", "profiling")
    .where("request_id", "in", ids)
    .orderBy("file_id")
    .orderBy("line")
    .execute();
}
