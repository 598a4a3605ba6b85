/** The per-request columns a sweep point is computed from: every measured aiperf request of a run. */
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows, streamRows } from "./columnar/engine";
import type { Db } from "./db";
import { aiperfProfilingPages } from "./goodput-rows";

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
  // Importers' rows (and runs stored before the request file): a page a query, a turn of the
  // event loop after each (./goodput-rows.ts); one query of every row held the server on SQLite.
  const cols: number[][] = [[], [], [], [], []];
  const value = (v: number | null) => (v === null ? NaN : Number(v));
  for await (const page of aiperfProfilingPages(db, runId))
    for (const r of page) {
      if (r.ok !== 1) continue;
      cols[0].push(value(r.ttft_ms));
      cols[1].push(value(r.e2e_ms));
      cols[2].push(value(r.itl_ms));
      cols[3].push(value(r.input_tokens));
      cols[4].push(value(r.output_tokens));
    }
  const [ttftMs, e2eMs, tpotMs, inputTokens, outputTokens] = cols.map((c) => Float64Array.from(c));
  return { ttftMs, e2eMs, tpotMs, inputTokens, outputTokens };
}
