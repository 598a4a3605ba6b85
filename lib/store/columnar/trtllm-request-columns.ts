/**
 * Columns of a run's TensorRT-LLM request file read back as arrays, for the charts computed on
 * read (docs/architecture.md §How a chart is computed): each asked-for number column as a
 * Float64Array (NaN where the file holds null) and each asked-for text column as strings, in the
 * file's order (idx). One DuckDB query, converted a data chunk (2,048 rows) at a time, a turn of
 * the event loop after each.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Db } from "../db";
import { copyDoubles, openConnection, quote } from "./engine";
import { runFile } from "./run-files";
import { TRTLLM_REQUESTS_FILE, type TrtllmRequestFileRow } from "./trtllm-request-file";

export type TrtllmFileColumn = keyof TrtllmRequestFileRow;

export interface TrtllmRequestFileColumns {
  /** The file read: its content hash (`run_column_files.sha256`) */
  sha256: string;
  length: number;
  numbers: Partial<Record<TrtllmFileColumn, Float64Array>>;
  texts: Partial<Record<TrtllmFileColumn, Array<string | null>>>;
}

/** Reads of request files by `readTrtllmRequestColumns`, counted for tests. */
const COUNTS = Symbol.for("runlens.trtllmColumnReads");
export const trtllmColumnReads: { count: number } = ((globalThis as { [COUNTS]?: { count: number } })[
  COUNTS
] ??= { count: 0 });

/**
 * The run's request file's `numbers` and `texts` columns; null: the run has no request file, or
 * its file was written before one of these columns was (it is read as stored).
 */
export async function readTrtllmRequestColumns(
  db: Db,
  runId: string,
  numbers: readonly TrtllmFileColumn[],
  texts: readonly TrtllmFileColumn[],
): Promise<TrtllmRequestFileColumns | null> {
  const file = await runFile(db, runId, TRTLLM_REQUESTS_FILE);
  if (!file) return null;
  trtllmColumnReads.count++;
  const n = file.rows;
  const out: TrtllmRequestFileColumns = { sha256: file.sha256, length: n, numbers: {}, texts: {} };
  const numberArrays = numbers.map((c) => (out.numbers[c] = new Float64Array(n)));
  const textArrays = texts.map((c) => (out.texts[c] = new Array<string | null>(n)));
  const conn = await openConnection();
  let at = 0;
  try {
    const schema = await conn.runAndReadAll(`select name from parquet_schema(${quote(file.path)})`);
    const names = new Set(schema.getRowObjects().map((r) => String(r.name)));
    if (![...numbers, ...texts].every((c) => names.has(c))) return null;
    const select = [...numbers.map((c) => `${c}::double`), ...texts];
    const result = await conn.stream(`select ${select.join(", ")} from read_parquet(${quote(file.path)})`);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const count = chunk.rowCount;
      if (at + count > n)
        throw new Error(`TensorRT-LLM request file of run ${runId}: more rows than the ${n} named`);
      numberArrays.forEach((a, i) => copyDoubles(chunk.getColumnVector(i), a, at, count));
      textArrays.forEach((a, i) => {
        const v = chunk.getColumnVector(numberArrays.length + i);
        for (let j = 0; j < count; j++) a[at + j] = v.getItem(j) as string | null;
      });
      at += count;
      await nextTurn();
    }
  } finally {
    conn.closeSync();
  }
  if (at !== n) throw new Error(`TensorRT-LLM request file of run ${runId}: ${at} rows, not the ${n} named`);
  return out;
}
