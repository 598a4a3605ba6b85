/** The per-request columns a sweep point is computed from: every measured aiperf request of a run. */
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows, streamRows } from "./columnar/engine";
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
    // Straight into typed columns a chunk at a time (streamRows yields between chunks): no
    // array per row is kept, and the server answers others while a large run is read.
    const [{ n }] = await queryRows<{ n: number }>(
      `select count(*)::integer as n from ${src} where phase = 'profiling' and ok = 1`,
    );
    const cols = Array.from({ length: 5 }, () => new Float64Array(n));
    let i = 0;
    for await (const chunk of streamRows(
      `select ttft_ms, e2e_ms, itl_ms, input_tokens, output_tokens from ${src}
        where phase = 'profiling' and ok = 1`,
    ))
      for (const r of chunk) {
        if (i >= n) break;
        for (let c = 0; c < 5; c++) cols[c][i] = r[c] === null ? NaN : Number(r[c]);
        i++;
      }
    const [ttftMs, e2eMs, tpotMs, inputTokens, outputTokens] = cols.map((c) => c.subarray(0, i));
    return { ttftMs, e2eMs, tpotMs, inputTokens, outputTokens };
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
