/**
 * A run's stored aiperf request rows wherever they are kept: its Parquet request file (runs
 * stored since the columnar store) or `aiperf_requests` rows (imported tools, older runs).
 */
import { BatchInserter } from "@/lib/store/batch-insert";
import {
  AIPERF_REQUESTS_FILE,
  aiperfRequestsSource,
  stagedAiperfRows,
} from "@/lib/store/columnar/aiperf-request-file";
import { queryRows } from "@/lib/store/columnar/engine";
import type { Db } from "@/lib/store/db";
import { AIPERF_REQUEST_COLUMNS, type AiperfRequestsTable } from "@/lib/store/tables/aiperf";
import { rowsStoredAs } from "./run-column-file-rows";

export async function storedAiperfRows(db: Db, runId: string): Promise<AiperfRequestsTable[]> {
  const src = await aiperfRequestsSource(db, runId);
  if (!src) return db.selectFrom("aiperf_requests").selectAll().where("run_id", "=", runId).execute();
  const rows = await queryRows<Omit<AiperfRequestsTable, "run_id">>(`select * from ${src}`);
  return rows.map((r) => ({ run_id: runId, ...r }));
}

/** Where the run's request rows are: how many catalog rows, and the rows its file holds (null: no file). */
export function aiperfRequestsStoredAs(db: Db, runId: string) {
  return rowsStoredAs(db, runId, "aiperf_requests", AIPERF_REQUESTS_FILE);
}

/** Rows of every run: stored as rows, in request files, and staged by ingests under way. */
export async function aiperfRowCount(db: Db): Promise<number> {
  const rows = await db
    .selectFrom("aiperf_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  const files = await db
    .selectFrom("run_column_files")
    .select((eb) => eb.fn.sum<number>("rows").as("n"))
    .where("name", "=", "aiperf-requests")
    .executeTakeFirst();
  return Number(rows?.n ?? 0) + Number(files?.n ?? 0) + stagedAiperfRows();
}

/**
 * Stores a run as an older Runlens did: its request rows in `aiperf_requests`, no request file.
 * Resolves with how many rows were moved.
 */
export async function storeRunAsRows(db: Db, runId: string): Promise<number> {
  const rows = await storedAiperfRows(db, runId);
  const inserter = new BatchInserter(db, "aiperf_requests", AIPERF_REQUEST_COLUMNS);
  for (const r of rows) if (inserter.push(r)) await inserter.flush();
  await inserter.flush();
  await db.deleteFrom("run_column_files").where("run_id", "=", runId).execute();
  return rows.length;
}
