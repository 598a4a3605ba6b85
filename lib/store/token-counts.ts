/**
 * Per-request input and output token counts of a run's successful profiling requests: what the
 * comparability doctor tests two runs' ISL/OSL distributions on (docs/metrics.md §Comparable
 * runs). Every row, no sample; null when the run has no request rows.
 */
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows } from "./columnar/engine";
import type { Db } from "./db";

export interface RunTokenCounts {
  input: Float64Array | null;
  output: Float64Array | null;
}

interface Row {
  input_tokens: number | null;
  output_tokens: number | null;
}

export async function runTokenCounts(db: Db, runId: string): Promise<RunTokenCounts> {
  const src = await aiperfRequestsSource(db, runId);
  const rows: Row[] = src
    ? await queryRows<Row>(
        `select input_tokens, output_tokens from ${src} where phase = 'profiling' and ok = 1`,
      )
    : await db
        .selectFrom("aiperf_requests")
        .select(["input_tokens", "output_tokens"])
        .where("run_id", "=", runId)
        .where("phase", "=", "profiling")
        .where("ok", "=", 1)
        .execute();
  const column = (k: keyof Row) => {
    const v = Float64Array.from(
      rows.flatMap((r) => (r[k] === null || !Number.isFinite(Number(r[k])) ? [] : [Number(r[k])])),
    );
    return v.length > 0 ? v : null;
  };
  return { input: column("input_tokens"), output: column("output_tokens") };
}
