/**
 * Each profiling aiperf record's x_request_id and client times (ms from the run's first request),
 * wherever the run keeps them: its request file, or rows. For the client-to-engine join
 * (docs/metrics.md §Client to engine).
 */
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows } from "./columnar/engine";
import type { Db } from "./db";

export interface AiperfClientTimes {
  request_id: string | null;
  file_id: string;
  start_ms: number | null;
  ttft_ms: number | null;
  e2e_ms: number | null;
}

export async function aiperfClientTimes(db: Db, runId: string): Promise<AiperfClientTimes[]> {
  const src = await aiperfRequestsSource(db, runId);
  if (src)
    return queryRows<AiperfClientTimes>(
      `select request_id, file_id, start_ms, ttft_ms, e2e_ms from ${src} where phase = 'profiling'`,
    );
  return db
    .selectFrom("aiperf_requests")
    .select(["request_id", "file_id", "start_ms", "ttft_ms", "e2e_ms"])
    .where("run_id", "=", runId)
    .where("phase", "=", "profiling")
    .execute();
}
