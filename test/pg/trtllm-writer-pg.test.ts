/**
 * TRT-LLM request rows through COPY on PostgreSQL read back exactly as Kysely's multi-row
 * INSERT stores them: NULLs, awkward text in the JSON columns, NaN and large numbers, a short
 * last batch.
 * Skipped unless RUNLENS_TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from "vitest";
import type { TrtllmRequestsTable } from "@/lib/store/tables/trtllm";
import { TrtllmRequestsWriter } from "@/lib/store/trtllm-requests-writer";
import { AWKWARD, insertThroughValues, storedRows } from "../helpers/batch-insert-cases";
import { PG_URL, usePgStore } from "../helpers/pg-schema";

function rows(runId: string, n: number): TrtllmRequestsTable[] {
  return Array.from({ length: n }, (_, i) => ({
    run_id: runId,
    idx: i,
    mode: i % 2 ? "disaggregated" : "aggregated",
    request_id: i % 5 === 0 ? null : AWKWARD[i % AWKWARD.length] + i,
    ctx_request_id: String(i),
    disagg_request_id: null,
    ctx_server: "ctx\tserver",
    gen_server: null,
    ctx_worker: "w\\0",
    gen_worker: "w\n1",
    arrival_ms: 1.762551940061e12 + i * 0.125,
    ttft_ms: i % 3 ? i / 3 : null,
    e2e_ms: i === 7 ? Number.NaN : 1e-9 * i,
    times_json: JSON.stringify({ a: i, s: AWKWARD[i % AWKWARD.length] }),
    segments_json: JSON.stringify([i, null, { excludedMs: 1.5 }]),
    kv_total_blocks: i,
    kv_new_blocks: null,
    kv_reused_blocks: 2 ** 40,
    kv_missed_blocks: 0,
    kv_hit_rate: 0.3,
    kv_transfer_bytes: 2 ** 50,
    kv_transfer_ms: null,
    kv_bandwidth_gbps: 12.25,
    spec_accepted_tokens: null,
    spec_draft_tokens: null,
    first_iter: 1,
    last_iter: 2,
    step_count: 3,
    chunk_count: 1,
    steps_json: "[]",
  }));
}

describe.skipIf(!PG_URL)("TrtllmRequestsWriter on PostgreSQL", () => {
  const h = usePgStore();

  it("stores through COPY what the multi-row INSERT stores", async () => {
    const copy = new TrtllmRequestsWriter(h.db, "postgres");
    for (const r of rows("copy", 1_000)) await copy.push("copy", r);
    await copy.flush();
    expect(copy.inserted).toBe(1_000);
    // The reference: the same rows through Kysely's multi-row VALUES, 250 at a time.
    await insertThroughValues(h.db, "trtllm_requests", rows("insert", 1_000), 250);
    const got = await storedRows(h.db, "trtllm_requests", "copy", "idx");
    const want = await storedRows(h.db, "trtllm_requests", "insert", "idx");
    expect(got).toHaveLength(1_000);
    expect(got).toEqual(want);
    expect(got[1].request_id).toBe(AWKWARD[1] + 1);
    expect(got[7].e2e_ms).toBeNaN();
    expect(got[0].gen_worker).toBe("w\n1");
    expect(got[0].kv_transfer_bytes).toBe(2 ** 50);
  });
});
