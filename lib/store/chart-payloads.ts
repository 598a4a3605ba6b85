/** Several stored chart payloads of one run at once, for the exports that draw every view. */
import type { Db } from "./db";

/** The payloads stored under the given keys (those the run has), as stored text. */
export async function chartPayloads(
  db: Db,
  runId: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom("chart_data")
    .select(["key", "data"])
    .where("run_id", "=", runId)
    .where("key", "in", [...keys])
    .execute();
  return new Map(rows.map((r) => [r.key, r.data]));
}
