import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

export function aiperfMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("aiperf_requests")
        .addColumn("run_id", t.text, (c) => c.notNull())
        .addColumn("file_id", t.text, (c) => c.notNull())
        .addColumn("line", t.int, (c) => c.notNull())
        .addColumn("request_id", t.text)
        .addColumn("phase", t.text, (c) => c.notNull())
        .addColumn("ok", t.int, (c) => c.notNull())
        .addColumn("cancelled", t.int, (c) => c.notNull())
        .addColumn("error_type", t.text)
        .addColumn("start_ms", t.real)
        .addColumn("end_ms", t.real)
        .addColumn("ttft_ms", t.real)
        .addColumn("e2e_ms", t.real)
        .addColumn("itl_ms", t.real)
        .addColumn("input_tokens", t.real)
        .addColumn("output_tokens", t.real)
        .execute();
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
