/**
 * A run's stored TensorRT-LLM request rows wherever they are kept: its Parquet request file (runs
 * stored since the file) or `trtllm_requests` rows (runs stored before it).
 */
import { queryRows } from "@/lib/store/columnar/engine";
import {
  TRTLLM_REQUEST_ROW_COLUMNS,
  TRTLLM_REQUESTS_FILE,
  trtllmRequestsSource,
} from "@/lib/store/columnar/trtllm-request-file";
import type { Db } from "@/lib/store/db";
import { rawSqlite } from "@/lib/store/raw-sqlite";
import type { TrtllmRequestsTable } from "@/lib/store/tables/trtllm";
import { TrtllmRequestsWriter } from "@/lib/store/trtllm-requests-writer";
import { rowsStoredAs } from "./run-column-file-rows";

/** Every request row the run keeps (its file's, or its catalog rows), as stored, by idx. */
export async function storedTrtllmRows(db: Db, runId: string): Promise<TrtllmRequestsTable[]> {
  const src = await trtllmRequestsSource(db, runId);
  if (!src)
    return db.selectFrom("trtllm_requests").selectAll().where("run_id", "=", runId).orderBy("idx").execute();
  const rows = await queryRows<Omit<TrtllmRequestsTable, "run_id">>(
    `select ${TRTLLM_REQUEST_ROW_COLUMNS.join(", ")} from ${src} order by idx`,
  );
  return rows.map((r) => ({ run_id: runId, ...r }));
}

/**
 * Stores a run as a Runlens before the request file did: its file dropped, its rows put in
 * `trtllm_requests` through the bulk writer that stored them then. Resolves with how many rows
 * were moved.
 */
export async function storeTrtllmRequestsAsRows(db: Db, runId: string): Promise<number> {
  const rows = await storedTrtllmRows(db, runId);
  const writer = new TrtllmRequestsWriter(db, rawSqlite(db) ? "sqlite" : "postgres");
  for (const r of rows) await writer.push(runId, r);
  await writer.flush();
  await db
    .deleteFrom("run_column_files")
    .where("run_id", "=", runId)
    .where("name", "=", TRTLLM_REQUESTS_FILE)
    .execute();
  return rows.length;
}

/** Where the run's requests are: how many catalog rows, and the rows its file holds (null: no file). */
export function trtllmRequestsStoredAs(db: Db, runId: string) {
  return rowsStoredAs(db, runId, "trtllm_requests", TRTLLM_REQUESTS_FILE);
}
