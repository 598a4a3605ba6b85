import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";
import { createTable } from "./create-table";

export function aiperfMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      const aiperfRequestsColumns = `
        run_id text!, file_id text!, line int!, request_id text, phase text!, ok int!, cancelled int!,
        error_type text, start_ms real, end_ms real, ttft_ms real, e2e_ms real, itl_ms real,
        input_tokens real, output_tokens real
      `;
      await createTable(db, t, "aiperf_requests", aiperfRequestsColumns);
      await db.schema
        .createIndex("aiperf_requests_run_start")
        .on("aiperf_requests")
        .columns(["run_id", "start_ms"])
        .execute();
      // No index on request_id: random UUID keys doubled the insert cost of a million-row ingest,
      // and drill-down sorts by metric within a run, which (run_id, …) scans serve.
    },
  };
}
