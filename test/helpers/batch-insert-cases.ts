import { expect } from "vitest";
import { BatchInserter } from "@/lib/store/batch-insert";
import type { Db } from "@/lib/store/db";
import type { AiperfRequestsTable } from "@/lib/store/tables/aiperf";

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
