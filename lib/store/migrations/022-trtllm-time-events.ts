import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * TensorRT-LLM's time events in pieces keyed by the ids they join on (docs/architecture.md
 * §Per-request data in pieces): a row per request and file. Only runs stored before the run's
 * time-events Parquet file (lib/store/columnar/trtllm-time-events-file.ts) have rows here; ingest
 * writes none. The key orders a request's rows
 * together (the run's summary pages through them by it); the three id indexes find one
 * request's rows for its journey.
 */
export function trtllmTimeEventsMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table, index }) => {
    await table(
      "trtllm_time_events",
      `run_id text!, role text!, req_key text!, seq int!, request_id text!, ctx_request_id text,
       disagg_request_id text, file_no int!, events_json text!`,
      ["run_id", "role", "req_key", "seq"],
    );
    for (const column of ["ctx_request_id", "request_id", "disagg_request_id"])
      await index(`trtllm_time_events_${column}`, "trtllm_time_events", ["run_id", "role", column]);
  });
}
