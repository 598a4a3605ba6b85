/**
 * Columns of a run's aiperf request file read back as typed arrays, for the charts computed on
 * read (docs/architecture.md §How a chart is computed): each asked-for number column as a
 * Float64Array (NaN where the file holds null), and each request's warm-up, error and cancelled
 * marks, in the file's order (the upload's). One DuckDB query, converted a data chunk (2,048
 * rows) at a time, a turn of the event loop after each.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Db } from "../db";
import { AIPERF_REQUEST_MEASURES } from "../tables/aiperf";
import { AIPERF_REQUESTS_FILE } from "./aiperf-request-file";
import { copyDoubles, openConnection, quote } from "./engine";
import { runFile } from "./run-files";

/** The request file's number columns a chart may read: a request's measures, as its table names them. */
export const AIPERF_NUMBER_COLUMNS = AIPERF_REQUEST_MEASURES;
export type AiperfNumberColumn = (typeof AIPERF_NUMBER_COLUMNS)[number];

export interface AiperfRequestColumns {
  /** The file read: its content hash (`run_column_files.sha256`) */
  sha256: string;
  length: number;
  numbers: Partial<Record<AiperfNumberColumn, Float64Array>>;
  /** 1 for a warm-up request */
  warmup: Uint8Array;
  /** 1 for a request that failed (`ok` 0) */
  failed: Uint8Array;
  cancelled: Uint8Array;
}

/** Reads of request files by `readAiperfRequestColumns`, counted for tests. */
const COUNTS = Symbol.for("runlens.aiperfColumnReads");
export const aiperfColumnReads: { count: number } = ((globalThis as { [COUNTS]?: { count: number } })[
  COUNTS
] ??= { count: 0 });

/** The run's request file's `columns`, with each request's marks; null: the run has no request file. */
export async function readAiperfRequestColumns(
  db: Db,
  runId: string,
  columns: readonly AiperfNumberColumn[],
): Promise<AiperfRequestColumns | null> {
  const file = await runFile(db, runId, AIPERF_REQUESTS_FILE);
  if (!file) return null;
  aiperfColumnReads.count++;
  const n = file.rows;
  const numbers: Partial<Record<AiperfNumberColumn, Float64Array>> = {};
  const arrays = columns.map((c) => (numbers[c] = new Float64Array(n)));
  const warmup = new Uint8Array(n);
  const failed = new Uint8Array(n);
  const cancelled = new Uint8Array(n);
  const marks = [warmup, failed, cancelled];
  const select = [
    ...columns.map((c) => `${c}::double`),
    "(phase = 'warmup')::utinyint",
    "(ok = 0)::utinyint",
    "(cancelled <> 0)::utinyint",
  ];
  const conn = await openConnection();
  let at = 0;
  try {
    const result = await conn.stream(`select ${select.join(", ")} from read_parquet(${quote(file.path)})`);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const count = chunk.rowCount;
      if (at + count > n)
        throw new Error(`aiperf request file of run ${runId}: more rows than the ${n} named`);
      arrays.forEach((a, i) => copyDoubles(chunk.getColumnVector(i), a, at, count));
      marks.forEach((m, i) => {
        const v = chunk.getColumnVector(arrays.length + i);
        for (let j = 0; j < count; j++) m[at + j] = v.getItem(j) === 1 ? 1 : 0;
      });
      at += count;
      await nextTurn();
    }
  } finally {
    conn.closeSync();
  }
  if (at !== n) throw new Error(`aiperf request file of run ${runId}: ${at} rows, not the ${n} named`);
  return { sha256: file.sha256, length: n, numbers, warmup, failed, cancelled };
}
