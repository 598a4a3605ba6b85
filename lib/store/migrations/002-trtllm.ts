import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

export function trtllmMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table }) => {
    // Every read is by (run_id, idx): counts, the strided sample and one request's detail.
    // Secondary indexes on ttft/e2e/arrival were never read and cost a third of the insert time.
    const trtllmRequestsColumns = `
      run_id text!, idx int!, mode text!, request_id text, ctx_request_id text,
      disagg_request_id text, ctx_server text, gen_server text, ctx_worker text, gen_worker text,
      arrival_ms real, ttft_ms real, e2e_ms real, times_json text!, segments_json text!,
      kv_total_blocks bigint, kv_new_blocks bigint, kv_reused_blocks bigint, kv_missed_blocks bigint,
      kv_hit_rate real, kv_transfer_bytes bigint, kv_transfer_ms real, kv_bandwidth_gbps real,
      spec_accepted_tokens bigint, spec_draft_tokens bigint, first_iter bigint, last_iter bigint,
      step_count int!, chunk_count int!, steps_json text!
    `;
    await table("trtllm_requests", trtllmRequestsColumns, ["run_id", "idx"]);
  });
}
