import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

export function aiperfMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table, index }) => {
    const aiperfRequestsColumns = `
      run_id text!, file_id text!, line int!, request_id text, phase text!, ok int!, cancelled int!,
      error_type text, start_ms real, end_ms real, ttft_ms real, e2e_ms real, itl_ms real,
      input_tokens real, output_tokens real
    `;
    await table("aiperf_requests", aiperfRequestsColumns);
    await index("aiperf_requests_run_start", "aiperf_requests", ["run_id", "start_ms"]);
    // No index on request_id: random UUID keys doubled the insert cost of a million-row ingest,
    // and drill-down sorts by metric within a run, which (run_id, …) scans serve.
  });
}
