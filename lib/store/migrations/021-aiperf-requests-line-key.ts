import type { Kysely, Migration } from "kysely";

/**
 * An index on each stored aiperf request's place in its run (its file and line), which is unique
 * within a run: the reads of every row of a run (goodput, lib/store/goodput-rows.ts) take them a
 * page at a time by keyset, each page a seek in this index. The (run_id, start_ms) index cannot
 * serve them: starts repeat, and importers' rows may have none.
 */
export function aiperfRequestsLineKeyMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex("aiperf_requests_run_line")
        .on("aiperf_requests")
        .columns(["run_id", "file_id", "line"])
        .execute();
    },
  };
}
