import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * The aiperf worker that sent each request (`metadata.worker_id` of a record), so the trace can
 * lay requests out worker by worker. Null for records that name none (older aiperf, imported
 * tools).
 */
export function aiperfWorkerMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, addColumn }) => {
    await addColumn("aiperf_requests", "worker_id", t.text);
  });
}
