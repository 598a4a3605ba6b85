/**
 * A run's stored TensorRT-LLM time-event rows wherever they are kept: its Parquet file (runs
 * stored since the file) or `trtllm_time_events` rows (runs stored before it).
 */
import { TRTLLM_TIME_EVENTS_FILE } from "@/lib/store/columnar/trtllm-time-events-file";
import type { Db } from "@/lib/store/db";
import { timeEventRowPages } from "@/lib/store/trtllm-time-events";
import { rowsStoredAs } from "./run-column-file-rows";

/** Every time-event row the run keeps (its file's, or its catalog rows), as stored, by seq. */
export async function storedTimeEventRows(db: Db, runId: string) {
  const rows = [];
  for await (const page of timeEventRowPages(db, runId)) rows.push(...page);
  return rows.sort((a, b) => a.seq - b.seq);
}

/**
 * Stores a run as a Runlens before the time-events file did: its file dropped, its rows put in
 * `trtllm_time_events`. Resolves with how many rows were moved.
 */
export async function storeTimeEventsAsRows(db: Db, runId: string): Promise<number> {
  const rows = await storedTimeEventRows(db, runId);
  await db
    .deleteFrom("run_column_files")
    .where("run_id", "=", runId)
    .where("name", "=", TRTLLM_TIME_EVENTS_FILE)
    .execute();
  for (let from = 0; from < rows.length; from += 500)
    await db
      .insertInto("trtllm_time_events")
      .values(rows.slice(from, from + 500).map((r) => ({ ...r, run_id: runId })))
      .execute();
  return rows.length;
}

/** Where the run's time events are: how many catalog rows, and the rows its file holds (null: no file). */
export function timeEventsStoredAs(db: Db, runId: string) {
  return rowsStoredAs(db, runId, "trtllm_time_events", TRTLLM_TIME_EVENTS_FILE);
}
