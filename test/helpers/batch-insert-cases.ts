import { expect } from "vitest";
import { BatchInserter } from "@/lib/store/batch-insert";
import type { Db } from "@/lib/store/db";
import type { Database } from "@/lib/store/schema";
import type { AiperfRequestsTable } from "@/lib/store/tables/aiperf";

/** Text that breaks naive quoting in an INSERT, a PostgreSQL array literal or COPY's text format. */
export const AWKWARD = [
  'a "quoted" word',
  "back\\slash",
  "comma, {brace}",
  "NULL",
  "",
  "ünïcødé ✓",
  "tab\tnew\nline",
  "carriage\rreturn \\N not null",
];

/** `n` request rows with awkward text, NULLs and extreme numbers; `nanEndAt` puts a NaN end there. */
export function awkwardRows(
  runId: string,
  n: number,
  options: { nanEndAt?: number } = {},
): AiperfRequestsTable[] {
  return Array.from({ length: n }, (_, i) => ({
    run_id: runId,
    file_id: "f1",
    line: i + 1,
    request_id: i % 5 === 0 ? null : AWKWARD[i % AWKWARD.length] + i,
    phase: i % 10 === 0 ? "warmup" : "profiling",
    ok: i % 7 === 0 ? 0 : 1,
    cancelled: 0,
    error_type: i % 7 === 0 ? AWKWARD[i % AWKWARD.length] : null,
    start_ms: 1.762551940061e12 + i * 0.125,
    end_ms: i === options.nanEndAt ? Number.NaN : 1.762551940061e12 + i,
    ttft_ms: i % 3 === 0 ? null : i / 3,
    e2e_ms: 1e-9 * i,
    itl_ms: null,
    input_tokens: i,
    output_tokens: i % 2 ? 2 ** 40 : 0,
    worker_id: i % 4 === 0 ? null : AWKWARD[(i + 1) % AWKWARD.length],
  }));
}

/**
 * A batch whose second row leaves `error_type` out stores NULL there (not the first row's value,
 * not a shifted column): the same check for every dialect's bulk path.
 */
export async function expectOmittedColumnIsNull(db: Db, [a, b]: AiperfRequestsTable[]): Promise<void> {
  const inserter = new BatchInserter(db, "aiperf_requests", 15, 10);
  const withoutError: Partial<AiperfRequestsTable> = { ...b, error_type: "x" };
  delete withoutError.error_type;
  await inserter.add(a);
  await inserter.add(withoutError as AiperfRequestsTable);
  await inserter.flush();
  const got = await db
    .selectFrom("aiperf_requests")
    .select(["line", "error_type"])
    .where("run_id", "=", a.run_id)
    .orderBy("line")
    .execute();
  expect(got).toEqual([
    { line: a.line, error_type: a.error_type },
    { line: b.line, error_type: null },
  ]);
}

/**
 * The reference a bulk path is checked against: `ref` stored through Kysely's multi-row VALUES,
 * `chunk` rows at a time.
 */
export async function insertThroughValues<T extends "aiperf_requests" | "trtllm_requests">(
  db: Db,
  table: T,
  ref: ReadonlyArray<Database[T]>,
  chunk: number,
): Promise<void> {
  for (let i = 0; i < ref.length; i += chunk)
    await db
      .insertInto(table)
      .values(ref.slice(i, i + chunk) as never)
      .execute();
}

/** The rows stored under `runId`, ordered by `by`, their run id made one so two runs compare. */
export async function storedRows<T extends "aiperf_requests" | "trtllm_requests">(
  db: Db,
  table: T,
  runId: string,
  by: "line" | "idx",
): Promise<Array<Database[T]>> {
  const rows = (await db
    .selectFrom(table as "aiperf_requests")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy(by as "line")
    .execute()) as unknown as Array<Database[T]>;
  return rows.map((r) => ({ ...r, run_id: "x" }));
}
