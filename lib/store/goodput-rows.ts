/** The per-request columns goodput reads (docs/metrics.md §Goodput): every row of a run, no sample. */
import type { Db } from "./db";

export async function aiperfGoodputRows(db: Db, runId: string) {
  return db
    .selectFrom("aiperf_requests")
    .select(["ok", "cancelled", "ttft_ms", "itl_ms", "e2e_ms", "output_tokens"])
    .where("run_id", "=", runId)
    .where("phase", "=", "profiling")
    .execute();
}

export async function trtllmGoodputRows(db: Db, runId: string) {
  return db
    .selectFrom("trtllm_requests")
    .select([
      "arrival_ms",
      "ttft_ms",
      "e2e_ms",
      "step_count",
      "spec_accepted_tokens",
      "mode",
      "first_iter",
      "last_iter",
    ])
    .where("run_id", "=", runId)
    .execute();
}
