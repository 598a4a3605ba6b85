/**
 * TensorRT-LLM's time events in pieces keyed by the ids they join on (docs/architecture.md
 * §Per-request data in pieces): a row per request and file, read by id for one journey and in
 * order, a request's rows together, for the run's summary. A run's rows are its Parquet file
 * (lib/store/columnar/trtllm-time-events-file.ts, written at ingest); a run stored before the
 * file keeps them in the catalog table `trtllm_time_events` (migration 022), read from there
 * until it is re-ingested.
 */
import type { Db } from "./db";
import { keysetPages } from "./goodput-rows";
import { queryRows, quote, streamRowObjects } from "./columnar/engine";
import { timeEventsSource } from "./columnar/trtllm-time-events-file";
import { TRTLLM_TIME_EVENT_ROW_COLUMNS, type TrtllmTimeEventsTable } from "./tables/trtllm";

/** The same columns read from the run's file (its seq a BIGINT, read as a number). */
const FILE_ROW_COLUMNS = TRTLLM_TIME_EVENT_ROW_COLUMNS.map((c) =>
  c === "seq" ? "seq::double as seq" : c,
).join(", ");

type Role = TrtllmTimeEventsTable["role"];
type Row = Omit<TrtllmTimeEventsTable, "run_id">;

/**
 * Requests read for one id of one role at most: a second request reporting the id makes it no
 * key (the gen-only benchmark's ctx_request_id 1, which every request reports), so two tell.
 */
export const REQUESTS_PER_ID = 2;

/** A request's rows of its first file read a page at a time. */
const REQUEST_PAGE = 64;

export type TimeEventIdColumn = "ctx_request_id" | "request_id" | "disagg_request_id";

export type TimeEventLookup = { role: Role; column: TimeEventIdColumn; id: string };

/**
 * The requests that report one of the given ids (per role and column, at most `REQUESTS_PER_ID`
 * requests each), each as one row, in the order they were stored: its rows of the first file
 * that holds it (a tensor-parallel rank's copy in a later file is not read, as the join takes the
 * first file's: lib/metrics/trtllm-time-event-join.ts `timeEventRequestsOf`), every one of them,
 * folded as they are read a page at a time into the row that file's pieces make: its first
 * row's ids, an id a later row adds where the first had none, each event as first seen.
 */
export async function timeEventRowsOf(
  db: Db,
  runId: string,
  lookups: ReadonlyArray<TimeEventLookup>,
): Promise<Row[]> {
  const src = await timeEventsSource(db, runId);
  const keys = new Map<string, { role: Role; reqKey: string }>();
  const out: Row[] = [];
  for (const l of lookups) {
    const found = src
      ? await queryRows<{ req_key: string }>(
          `select distinct req_key from ${src}
            where role = ${quote(l.role)} and ${l.column} = ${quote(l.id)} limit ${REQUESTS_PER_ID}`,
        )
      : await db
          .selectFrom("trtllm_time_events")
          .select("req_key")
          .distinct()
          .where("run_id", "=", runId)
          .where("role", "=", l.role)
          .where(l.column, "=", l.id)
          .limit(REQUESTS_PER_ID)
          .execute();
    for (const r of found) keys.set(`${l.role}\u0000${r.req_key}`, { role: l.role, reqKey: r.req_key });
  }
  for (const k of keys.values()) {
    const fold = new FirstFileRow();
    if (src) {
      const of = `role = ${quote(k.role)} and req_key = ${quote(k.reqKey)}`;
      for await (const page of streamRowObjects<Row>(
        `select ${FILE_ROW_COLUMNS} from ${src}
          where ${of} and file_no = (select file_no from ${src} where ${of} order by seq limit 1)
          order by seq`,
      ))
        for (const r of page) fold.add(r);
    } else {
      const first = await db
        .selectFrom("trtllm_time_events")
        .select("file_no")
        .where("run_id", "=", runId)
        .where("role", "=", k.role)
        .where("req_key", "=", k.reqKey)
        .orderBy("seq")
        .limit(1)
        .executeTakeFirst();
      if (first)
        for await (const page of keysetPages(
          (after: number | null) => {
            let q = db
              .selectFrom("trtllm_time_events")
              .select(TRTLLM_TIME_EVENT_ROW_COLUMNS)
              .where("run_id", "=", runId)
              .where("role", "=", k.role)
              .where("req_key", "=", k.reqKey)
              .where("file_no", "=", first.file_no);
            if (after !== null) q = q.where("seq", ">", after);
            return q.orderBy("seq").limit(REQUEST_PAGE).execute();
          },
          (last) => last.seq,
          REQUEST_PAGE,
        ))
          for (const r of page) fold.add(r);
    }
    const row = fold.row();
    if (row) out.push(row);
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** One request's rows of one file, in stored order, folded into one row as they are read. */
class FirstFileRow {
  private first: Row | null = null;
  private rows = 0;
  private readonly events: Array<{ event: string; t: number }> = [];
  private readonly seen = new Set<string>();

  add(r: Row): void {
    this.rows++;
    if (!this.first) {
      // One row (a request's lines of one file, the usual case) is returned as read, unparsed.
      this.first = { ...r };
      return;
    }
    if (this.rows === 2) this.merge(this.first.events_json);
    this.first.ctx_request_id ??= r.ctx_request_id;
    this.first.disagg_request_id ??= r.disagg_request_id;
    this.merge(r.events_json);
  }

  private merge(eventsJson: string): void {
    for (const e of JSON.parse(eventsJson) as Array<{ event: string; t: number }>) {
      if (this.seen.has(e.event)) continue;
      this.seen.add(e.event);
      this.events.push(e);
    }
  }

  /** The request's row: its one row as stored, or the rows' fold. */
  row(): Row | null {
    if (!this.first || this.rows === 1) return this.first;
    return { ...this.first, events_json: JSON.stringify(this.events) };
  }
}

/** Per role, the ctx_request_ids reported by more than one request (no key to join by). */
export async function ambiguousCtxIds(db: Db, runId: string): Promise<Array<{ role: Role; id: string }>> {
  const src = await timeEventsSource(db, runId);
  if (src)
    return (
      await queryRows<{ role: Role; id: string }>(
        `select role, ctx_request_id as id from ${src} where ctx_request_id is not null
          group by role, ctx_request_id having count(distinct req_key) > 1`,
      )
    ).map((r) => ({ role: r.role, id: r.id }));
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

/** Rows read a query by the summary from the catalog table. */
const PAGE = 2_000;

/**
 * The run's rows a page at a time, a request's rows together (by role and key, then as stored).
 * The file is written in that order and read in it (DuckDB keeps a plain scan's file order).
 */
export async function* timeEventRowPages(db: Db, runId: string): AsyncGenerator<Row[]> {
  const src = await timeEventsSource(db, runId);
  if (src) {
    yield* streamRowObjects<Row>(
      `select ${FILE_ROW_COLUMNS}
        from ${src}`,
    );
    return;
  }
  yield* keysetPages(
    (after: { role: Role; key: string; seq: number } | null) => {
      let q = db
        .selectFrom("trtllm_time_events")
        .select(TRTLLM_TIME_EVENT_ROW_COLUMNS)
        .where("run_id", "=", runId);
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
