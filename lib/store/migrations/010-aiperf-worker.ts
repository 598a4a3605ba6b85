import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * The aiperf worker that sent each request (`metadata.worker_id` of a record), so the trace can
 * lay requests out worker by worker. Null for records that name none (older aiperf, imported
 * tools).
 */
export function aiperfWorkerMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("aiperf_requests").addColumn("worker_id", t.text).execute();
    },
  };
}
