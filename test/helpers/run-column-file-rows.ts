import type { Db } from "@/lib/store/db";

/**
 * Where a run's rows of one kind are: how many rows of `table` the catalog keeps for it, and the
 * rows its columnar file `file` holds (null: no such file).
 */
export async function rowsStoredAs(
  db: Db,
  runId: string,
  table: "aiperf_requests" | "trtllm_requests" | "trtllm_time_events",
  file: string,
): Promise<{ rows: number; fileRows: number | null }> {
  const rows = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("run_id", "=", runId)
    .executeTakeFirst();
  const named = await db
    .selectFrom("run_column_files")
    .select("rows")
    .where("run_id", "=", runId)
    .where("name", "=", file)
    .executeTakeFirst();
  return { rows: Number(rows?.n ?? 0), fileRows: named ? Number(named.rows) : null };
}
