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

const TRTLLM_GOODPUT_COLUMNS = [
  "idx",
  "arrival_ms",
  "ttft_ms",
  "e2e_ms",
  "step_count",
  "spec_accepted_tokens",
  "mode",
  "first_iter",
  "last_iter",
] as const;

/**
 * Every TensorRT-LLM request row of a run, `pageSize` rows a page in idx order, each page one
 * query through the (run_id, idx) key: on SQLite a query runs on the main thread, so one query of
 * 200,000 rows held the server for as long as it took; between pages a caller gives the event
 * loop a turn.
 */
export async function* trtllmGoodputPages(db: Db, runId: string, pageSize: number) {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom("trtllm_requests")
      .select(TRTLLM_GOODPUT_COLUMNS)
      .where("run_id", "=", runId)
      .where("idx", ">", after)
      .orderBy("idx")
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].idx;
  }
}
