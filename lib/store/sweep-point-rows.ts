/** The per-request columns a sweep point is computed from: every measured aiperf request of a run. */
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryArrays } from "./columnar/engine";
import type { Db } from "./db";

export interface MeasuredRows {
  ttftMs: Float64Array;
  e2eMs: Float64Array;
  tpotMs: Float64Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
}

/** Profiling-phase successful requests (the statistics' population); a missing value reads NaN. */
export async function aiperfMeasuredRows(db: Db, runId: string): Promise<MeasuredRows> {
  const src = await aiperfRequestsSource(db, runId);
  if (src) {
    const rows = await queryArrays(
      `select ttft_ms, e2e_ms, itl_ms, input_tokens, output_tokens from ${src}
        where phase = 'profiling' and ok = 1`,
    );
    const at = (i: number) => Float64Array.from(rows, (r) => (r[i] === null ? NaN : Number(r[i])));
    return { ttftMs: at(0), e2eMs: at(1), tpotMs: at(2), inputTokens: at(3), outputTokens: at(4) };
  }
  const rows = await db
    .selectFrom("aiperf_requests")
    .select(["ttft_ms", "e2e_ms", "itl_ms", "input_tokens", "output_tokens"])
    .where("run_id", "=", runId)
    .where("phase", "=", "profiling")
    .where("ok", "=", 1)
    .execute();
  const col = (pick: (r: (typeof rows)[number]) => number | null) =>
    Float64Array.from(rows, (r) => {
      const v = pick(r);
      return v === null ? NaN : Number(v);
    });
  return {
    ttftMs: col((r) => r.ttft_ms),
    e2eMs: col((r) => r.e2e_ms),
    tpotMs: col((r) => r.itl_ms),
    inputTokens: col((r) => r.input_tokens),
    outputTokens: col((r) => r.output_tokens),
  };
}
