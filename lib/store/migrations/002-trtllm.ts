import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

export function trtllmMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("trtllm_requests")
        .addColumn("run_id", t.text, (c) => c.notNull())
        .addColumn("idx", t.int, (c) => c.notNull())
        .addColumn("mode", t.text, (c) => c.notNull())
        .addColumn("request_id", t.text)
        .addColumn("ctx_request_id", t.text)
        .addColumn("disagg_request_id", t.text)
        .addColumn("ctx_server", t.text)
        .addColumn("gen_server", t.text)
        .addColumn("ctx_worker", t.text)
        .addColumn("gen_worker", t.text)
        .addColumn("arrival_ms", t.real)
        .addColumn("ttft_ms", t.real)
        .addColumn("e2e_ms", t.real)
        .addColumn("times_json", t.text, (c) => c.notNull())
        .addColumn("segments_json", t.text, (c) => c.notNull())
        .addColumn("kv_total_blocks", t.bigint)
        .addColumn("kv_new_blocks", t.bigint)
        .addColumn("kv_reused_blocks", t.bigint)
        .addColumn("kv_missed_blocks", t.bigint)
        .addColumn("kv_hit_rate", t.real)
        .addColumn("kv_transfer_bytes", t.bigint)
        .addColumn("kv_transfer_ms", t.real)
        .addColumn("kv_bandwidth_gbps", t.real)
        .addColumn("spec_accepted_tokens", t.bigint)
        .addColumn("spec_draft_tokens", t.bigint)
        .addColumn("first_iter", t.bigint)
        .addColumn("last_iter", t.bigint)
        .addColumn("step_count", t.int, (c) => c.notNull())
        .addColumn("chunk_count", t.int, (c) => c.notNull())
        .addColumn("steps_json", t.text, (c) => c.notNull())
        // Every read is by (run_id, idx): counts, the strided sample and one request's detail.
        // Secondary indexes on ttft/e2e/arrival were never read and cost a third of the insert time.
        .addPrimaryKeyConstraint("trtllm_requests_pk", ["run_id", "idx"])
        .execute();
    },
  };
}
