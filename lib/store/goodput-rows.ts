/** The per-request columns goodput reads (docs/metrics.md §Goodput): every row of a run, no sample. */
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows } from "./columnar/engine";
import type { Db } from "./db";

interface AiperfGoodputRow {
  ok: number;
  cancelled: number;
  ttft_ms: number | null;
  itl_ms: number | null;
  e2e_ms: number | null;
  output_tokens: number | null;
}

export async function aiperfGoodputRows(db: Db, runId: string): Promise<AiperfGoodputRow[]> {
  const src = await aiperfRequestsSource(db, runId);
  if (src)
    return queryRows<AiperfGoodputRow>(
      `select ok, cancelled, ttft_ms, itl_ms, e2e_ms, output_tokens from ${src} where phase = 'profiling'`,
    );
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
