/**
 * PostgreSQL bulk insert (unnest of one array per column) stores exactly what the multi-row
 * VALUES path stores: NULLs, awkward strings, NaN and large integers, and an omitted column.
 * Skipped unless RUNLENS_TEST_DATABASE_URL is set.
 */
import { describe, expect, it, vi } from "vitest";
import { BatchInserter } from "@/lib/store/batch-insert";
import type { AiperfRequestsTable } from "@/lib/store/tables/aiperf";
import { PG_URL, usePgStore } from "../helpers/pg-schema";
import {
  AWKWARD,
  awkwardRows,
  expectOmittedColumnIsNull,
  insertThroughValues,
  storedRows,
} from "../helpers/batch-insert-cases";

describe.skipIf(!PG_URL)("BatchInserter on PostgreSQL", () => {
  const h = usePgStore();

  it("stores every value as the multi-row VALUES insert does", async () => {
    const inserter = new BatchInserter(h.db, "aiperf_requests", 15, 1000);
    const rows = awkwardRows("unnest", 2_500, { nanEndAt: 3 });
    // The bulk path, not the VALUES fallback, must have written them.
    const values = vi.spyOn(h.db, "insertInto");
    for (const r of rows) await inserter.add(r);
    await inserter.flush();
    expect(values).not.toHaveBeenCalled();
    values.mockRestore();
    expect(inserter.inserted).toBe(rows.length);
    // The reference: the same rows through Kysely's VALUES, 500 at a time.
    await insertThroughValues(h.db, "aiperf_requests", awkwardRows("values", 2_500, { nanEndAt: 3 }), 500);

    const got = await storedRows(h.db, "aiperf_requests", "unnest", "line");
    const want = await storedRows(h.db, "aiperf_requests", "values", "line");
    expect(got).toHaveLength(2_500);
    expect(got).toEqual(want);
    expect(got[1].request_id).toBe(AWKWARD[1] + 1);
    expect(got[0].request_id).toBeNull();
    expect(got[3].end_ms).toBeNaN();
  });

  it("stores the same with a fixed column list", async () => {
    const columns = Object.keys(awkwardRows("x", 2_500, { nanEndAt: 3 })[0]) as (keyof AiperfRequestsTable)[];
    const inserter = new BatchInserter(h.db, "aiperf_requests", columns.toReversed(), 1000);
    const values = vi.spyOn(h.db, "insertInto");
    for (const r of awkwardRows("fixed", 2_500, { nanEndAt: 3 }))
      if (inserter.push(r)) await inserter.flush();
    await inserter.flush();
    expect(values).not.toHaveBeenCalled();
    values.mockRestore();
    const got = await storedRows(h.db, "aiperf_requests", "fixed", "line");
    expect(got).toHaveLength(2_500);
    expect(got).toEqual(await storedRows(h.db, "aiperf_requests", "unnest", "line"));
  });

  it("treats a column some rows leave out as NULL", async () => {
    const [a, b] = awkwardRows("partial", 2_500, { nanEndAt: 3 }).slice(1, 3);
    // Lines 2 and 3: line 2 keeps its error_type, line 3 gets NULL.
    expect([a.line, b.line]).toEqual([2, 3]);
    await expectOmittedColumnIsNull(h.db, [a, b]);
  });
});
