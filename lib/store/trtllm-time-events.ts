/**
 * TensorRT-LLM's time events in pieces keyed by the ids they join on (`trtllm_time_events`,
 * migration 022; docs/architecture.md §Per-request data in pieces): written a batch at a time
 * as ingest finishes each request, read by id for one journey and a page at a time for the run's
 * summary.
 */
import { BatchInserter } from "./batch-insert";
import type { Db } from "./db";
import { keysetPages } from "./goodput-rows";
import { TRTLLM_TIME_EVENT_COLUMNS, type TrtllmTimeEventsTable } from "./tables/trtllm";

type Role = TrtllmTimeEventsTable["role"];

/** The rows of the run's time events, written in batches. */
export class TimeEventRowsWriter {
  private readonly rows: BatchInserter<"trtllm_time_events">;
  private seq = 0;

  constructor(
    db: Db,
    private readonly runId: string,
  ) {
    this.rows = new BatchInserter(db, "trtllm_time_events", TRTLLM_TIME_EVENT_COLUMNS, 2000);
  }

  get written(): number {
    return this.seq;
  }

  async add(row: Omit<TrtllmTimeEventsTable, "run_id" | "seq">): Promise<void> {
    await this.rows.add({ ...row, run_id: this.runId, seq: this.seq++ });
  }

  async flush(): Promise<void> {
    await this.rows.flush();
  }
}

/**
 * Rows read for one id of one role at most: a request has a row per file it is in (tensor-parallel
 * ranks), and an id more than one request reports (the gen-only benchmark's ctx_request_id 1)
 * shows itself within the first rows.
 */
export const ROWS_PER_ID = 64;

export type TimeEventIdColumn = "ctx_request_id" | "request_id" | "disagg_request_id";

/**
 * The rows of the requests that report one of the given ids (per role and column, at most
 * `ROWS_PER_ID` each), and every other row of those requests, in the order they were stored.
 */
export async function timeEventRowsOf(
  db: Db,
  runId: string,
  lookups: ReadonlyArray<{ role: Role; column: TimeEventIdColumn; id: string }>,
): Promise<TrtllmTimeEventsTable[]> {
  const keys = new Map<string, { role: Role; reqKey: string }>();
  for (const l of lookups) {
    const rows = await db
      .selectFrom("trtllm_time_events")
      .select(["role", "req_key"])
      .where("run_id", "=", runId)
      .where("role", "=", l.role)
      .where(l.column, "=", l.id)
      .limit(ROWS_PER_ID)
      .execute();
    for (const r of rows) keys.set(`${r.role}\u0000${r.req_key}`, { role: r.role, reqKey: r.req_key });
  }
  const out: TrtllmTimeEventsTable[] = [];
  for (const k of keys.values()) {
    const rows = await db
      .selectFrom("trtllm_time_events")
      .selectAll()
      .where("run_id", "=", runId)
      .where("role", "=", k.role)
      .where("req_key", "=", k.reqKey)
      .orderBy("seq")
      .limit(ROWS_PER_ID)
      .execute();
    for (const r of rows) out.push(r);
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** Per role, the ctx_request_ids reported by more than one request (no key to join by). */
export async function ambiguousCtxIds(db: Db, runId: string): Promise<Array<{ role: Role; id: string }>> {
  const rows = await db
    .selectFrom("trtllm_time_events")
    .select(["role", "ctx_request_id"])
    .where("run_id", "=", runId)
    .where("ctx_request_id", "is not", null)
    .groupBy(["role", "ctx_request_id"])
    .having((eb) => eb.fn.count("req_key").distinct(), ">", 1)
    .execute();
  return rows.map((r) => ({ role: r.role, id: r.ctx_request_id! }));
}

/** Rows read a query by the summary. */
const PAGE = 2_000;

/** The run's rows a page at a time, a request's rows together (by role and key, then as stored). */
export function timeEventRowPages(db: Db, runId: string): AsyncGenerator<TrtllmTimeEventsTable[]> {
  return keysetPages(
    (after: { role: Role; key: string; seq: number } | null) => {
      let q = db.selectFrom("trtllm_time_events").selectAll().where("run_id", "=", runId);
      if (after)
        q = q.where((eb) =>
          eb(eb.refTuple("role", "req_key", "seq"), ">", eb.tuple(after.role, after.key, after.seq)),
        );
      return q.orderBy("role").orderBy("req_key").orderBy("seq").limit(PAGE).execute();
    },
    (last) => ({ role: last.role, key: last.req_key, seq: last.seq }),
    PAGE,
  );
}
