/**
 * Series queries (docs/metrics.md §Regressions): the series names, a series' runs in series
 * order (the uploader's order key, else upload time), a run's series fields, and the per-request latency values a verdict resamples.
 */
import { sql } from "kysely";
import { sortSeriesRuns } from "@/lib/api/series-order";
import type { Db } from "./db";
import { readMetricValues } from "./metric-values";
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { streamRows } from "./columnar/engine";
import { trtllmRequestsSource } from "./columnar/trtllm-request-file";
import { rawSqlite } from "./raw-sqlite";
import type { RunRow } from "./runs-repo";

export interface SeriesFields {
  series?: string | null;
  commit?: string | null;
  branch?: string | null;
  order?: string | null;
}

export async function setRunSeries(db: Db, id: string, f: SeriesFields): Promise<void> {
  const set: Partial<RunRow> = {};
  if (f.series !== undefined) set.series = f.series;
  if (f.commit !== undefined) set.commit_ref = f.commit;
  if (f.branch !== undefined) set.branch = f.branch;
  if (f.order !== undefined) set.series_order = f.order;
  if (Object.keys(set).length === 0) return;
  await db
    .updateTable("runs")
    .set({ ...set, updated_at: Date.now() })
    .where("id", "=", id)
    .execute();
}

export interface SeriesListItem {
  name: string;
  runCount: number;
  firstAt: number;
  lastAt: number;
}

export async function listSeries(db: Db): Promise<SeriesListItem[]> {
  const rows = await db
    .selectFrom("runs")
    .select((eb) => [
      "series",
      eb.fn.countAll<number>().as("n"),
      eb.fn.min("created_at").as("first"),
      eb.fn.max("created_at").as("last"),
    ])
    .where("series", "is not", null)
    .where("status", "=", "ready")
    .groupBy("series")
    .orderBy("series")
    .execute();
  return rows.map((r) => ({
    name: r.series!,
    runCount: Number(r.n),
    firstAt: Number(r.first),
    lastAt: Number(r.last),
  }));
}

/**
 * The ready runs of a series, first first: by order key, else upload time (ties by upload time,
 * then id, so the order is stable). Sorted here, not in SQL: versions and numbers do not sort as text.
 */
export async function seriesRuns(db: Db, name: string): Promise<RunRow[]> {
  const rows = await db
    .selectFrom("runs")
    .selectAll()
    .where("series", "=", name)
    .where("status", "=", "ready")
    .execute();
  return sortSeriesRuns(rows, (r) => ({ order: r.series_order ?? null, createdAt: r.created_at, id: r.id }));
}

/** The ids of a series' ready runs in series order: where a run sits, without reading the runs. */
export async function seriesRunIds(db: Db, name: string): Promise<string[]> {
  const rows = await db
    .selectFrom("runs")
    .select(["id", "series_order", "created_at"])
    .where("series", "=", name)
    .where("status", "=", "ready")
    .execute();
  return sortSeriesRuns(rows, (r) => ({
    order: r.series_order ?? null,
    createdAt: r.created_at,
    id: r.id,
  })).map((r) => r.id);
}

export type RequestField = "ttft" | "itl" | "e2e" | "server_ttft" | "server_e2e";

/** Where each field's per-request values are stored; aiperf rows count profiling successes only. */
const SOURCES: Record<RequestField, { table: string; column: string; where: string }> = {
  ttft: { table: "aiperf_requests", column: "ttft_ms", where: "phase = 'profiling' and ok = 1" },
  itl: { table: "aiperf_requests", column: "itl_ms", where: "phase = 'profiling' and ok = 1" },
  e2e: { table: "aiperf_requests", column: "e2e_ms", where: "phase = 'profiling' and ok = 1" },
  server_ttft: { table: "trtllm_requests", column: "ttft_ms", where: "1 = 1" },
  server_e2e: { table: "trtllm_requests", column: "e2e_ms", where: "1 = 1" },
};

/**
 * The field's recorded values of each given run, ascending, in typed arrays (8 bytes a request: a
 * million-request run is 8 MB, not a million row objects), in the order of `runIds`; the runs
 * layer pools them (`mergeSortedRuns`, docs/metrics.md §Regressions). Each run's values come from its stored blob
 * (./metric-values.ts); an aiperf run with a request file stores none for its client fields and
 * is read from the file; a run ingested before blobs were stored is read from its request rows,
 * until a re-ingest stores its blob. What is read is sorted by `sort`, into the order a blob is
 * stored in (the runs layer sorts in steps, a turn of the event loop between them:
 * lib/runs/in-turns.ts `sortValuesInTurns`).
 */
export async function requestValuesByRun(
  db: Db,
  runIds: string[],
  field: RequestField,
  sort: (values: Float64Array) => Float64Array | Promise<Float64Array> = (v) => v.sort(),
): Promise<Float64Array[]> {
  const { table, column, where } = SOURCES[field];
  const stored = await readMetricValues(db, runIds, field);
  const parts: Float64Array[] = [];
  for (const id of runIds)
    parts.push(stored.get(id) ?? (await sort(await oneRunValues(db, id, table, column, where))));
  return parts;
}

async function oneRunValues(db: Db, id: string, table: string, column: string, where: string) {
  // A run whose aiperf requests are a Parquet file is read from it (same column, same filter).
  // Likewise a TensorRT-LLM run whose requests are a Parquet file.
  const src =
    table === "aiperf_requests" ? await aiperfRequestsSource(db, id) : await trtllmRequestsSource(db, id);
  if (src) return fileValues(`select ${column} from ${src} where ${where} and ${column} is not null`);
  // Identifiers come from the fixed map above, never from the request.
  const text = `select ${column} from ${table} where run_id = ? and ${where} and ${column} is not null`;
  const sqlite = rawSqlite(db);
  if (sqlite) {
    // A plucked statement returns bare numbers, no row object a request: the fastest read
    // better-sqlite3 has (twice its row iterator).
    return db.connection().execute(async () => {
      const values = sqlite.prepare(text).pluck().all(id) as number[];
      return Float64Array.from(values.filter(Number.isFinite));
    });
  }
  const rows = await sql<{
    v: number;
  }>`select ${sql.ref(column)} as v from ${sql.table(table)} where run_id = ${id} and ${sql.raw(where)} and ${sql.ref(column)} is not null`.execute(
    db,
  );
  return Float64Array.from(rows.rows.map((r) => Number(r.v)).filter(Number.isFinite));
}

/**
 * The finite values of a one-column DuckDB query, into a typed array a chunk (about 2,000 rows)
 * at a time, a turn of the event loop after each (`streamRows`).
 */
async function fileValues(text: string): Promise<Float64Array> {
  let out = new Float64Array(4096);
  let n = 0;
  for await (const chunk of streamRows(text))
    for (const r of chunk) {
      const v = Number(r[0]);
      if (!Number.isFinite(v)) continue;
      if (n === out.length) {
        const next = new Float64Array(n * 2);
        next.set(out);
        out = next;
      }
      out[n++] = v;
    }
  return out.slice(0, n);
}
