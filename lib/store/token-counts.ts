/**
 * Per-request input and output token counts of a run's successful profiling requests: what the
 * comparability doctor tests two runs' ISL/OSL distributions on (docs/metrics.md §Comparable
 * runs). Every row, no sample; null when the run has no request rows.
 */
import type { Db } from "./db";
import { aiperfProfilingPages } from "./goodput-rows";

export interface RunTokenCounts {
  input: Float64Array | null;
  output: Float64Array | null;
}

/**
 * The columns a page at a time (./goodput-rows.ts, a turn of the event loop after each): one query
 * of every row, or one pass over them, held the server on a large run.
 */
export async function runTokenCounts(db: Db, runId: string): Promise<RunTokenCounts> {
  const input: number[] = [];
  const output: number[] = [];
  const add = (to: number[], v: number | null) => {
    if (v !== null && Number.isFinite(Number(v))) to.push(Number(v));
  };
  for await (const page of aiperfProfilingPages(db, runId))
    for (const r of page) {
      if (r.ok !== 1) continue;
      add(input, r.input_tokens);
      add(output, r.output_tokens);
    }
  const column = (v: number[]) => (v.length > 0 ? Float64Array.from(v) : null);
  return { input: column(input), output: column(output) };
}
