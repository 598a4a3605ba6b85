/**
 * SQLite bulk insert through reused prepared statements stores what Kysely's multi-row VALUES
 * stores, and never joins another caller's open transaction.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { arrayLiteral, BatchInserter } from "@/lib/store/batch-insert";
import { migrate, openSqlite, type DbHandle } from "@/lib/store/db";
import type { AiperfRequestsTable } from "@/lib/store/tables/aiperf";
import {
  AWKWARD,
  awkwardRows,
  expectOmittedColumnIsNull,
  insertThroughValues,
  storedRows,
} from "../helpers/batch-insert-cases";

describe("BatchInserter on SQLite", () => {
  let h: DbHandle;
  beforeEach(async () => {
    h = openSqlite(":memory:");
    await migrate(h);
  });
  afterEach(async () => {
    await h.close();
  });

  const read = (runId: string) =>
    h.db.selectFrom("aiperf_requests").selectAll().where("run_id", "=", runId).orderBy("line").execute();

  it("stores every value as the multi-row VALUES insert does, batch shapes reused", async () => {
    const values = vi.spyOn(h.db, "insertInto");
    // 2,500 rows in batches of 1,000: two full batches share one statement, the tail gets its own.
    const inserter = new BatchInserter(h.db, "aiperf_requests", 15, 1000);
    for (const r of awkwardRows("prepared", 2_500)) await inserter.add(r);
    await inserter.flush();
    expect(values).not.toHaveBeenCalled();
    values.mockRestore();
    expect(inserter.inserted).toBe(2_500);

    await insertThroughValues(h.db, "aiperf_requests", awkwardRows("values", 2_500), 500);
    const got = await storedRows(h.db, "aiperf_requests", "prepared", "line");
    const want = await storedRows(h.db, "aiperf_requests", "values", "line");
    expect(got).toHaveLength(2_500);
    expect(got).toEqual(want);
    expect(got[0].request_id).toBeNull();
    expect(got[1].request_id).toBe(AWKWARD[1] + 1);
    expect(got[1].output_tokens).toBe(2 ** 40);
  });

  it("stores the same with a fixed column list (values bound as rows arrive)", async () => {
    const columns = Object.keys(awkwardRows("x", 1)[0]) as (keyof AiperfRequestsTable)[];
    const inserter = new BatchInserter(h.db, "aiperf_requests", columns.toReversed(), 1000);
    let full = 0;
    for (const r of awkwardRows("fixed", 2_500))
      if (inserter.push(r)) {
        full++;
        await inserter.flush();
      }
    await inserter.flush();
    expect(full).toBe(2);
    expect(inserter.inserted).toBe(2_500);
    const plain = new BatchInserter(h.db, "aiperf_requests", 15, 1000);
    for (const r of awkwardRows("objects", 2_500)) await plain.add(r);
    await plain.flush();
    const got = await storedRows(h.db, "aiperf_requests", "fixed", "line");
    expect(got).toHaveLength(2_500);
    expect(got).toEqual(await storedRows(h.db, "aiperf_requests", "objects", "line"));
  });

  it("treats a column some rows leave out as NULL", async () => {
    const [a, b] = awkwardRows("partial", 3).slice(1, 3);
    // Lines 2 and 3: line 2 keeps its error_type, line 3 gets NULL.
    expect([a.line, b.line]).toEqual([2, 3]);
    await expectOmittedColumnIsNull(h.db, [a, b]);
  });

  it("waits for another caller's transaction instead of writing inside it", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const rolledBack = h.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto("aiperf_requests").values(awkwardRows("doomed", 1)).execute();
        entered();
        await held;
        throw new Error("roll back");
      })
      .catch(() => "rolled back");
    await inside;
    const inserter = new BatchInserter(h.db, "aiperf_requests", 15, 10);
    for (const r of awkwardRows("kept", 3)) await inserter.add(r);
    const flushed = inserter.flush();
    release();
    expect(await rolledBack).toBe("rolled back");
    await flushed;
    expect(await read("doomed")).toHaveLength(0);
    expect(await read("kept")).toHaveLength(3);
  });
});

describe("arrayLiteral (PostgreSQL bulk insert)", () => {
  it("writes NULL for missing values, floats as JavaScript prints them, strings quoted and escaped", () => {
    const rows = [
      { v: 1.5 },
      { v: null },
      {},
      { v: Number.NaN },
      { v: -Infinity },
      { v: 'say "hi" \\ bye' },
      { v: "NULL" },
      { v: "" },
      { v: true },
      { v: 2n ** 63n - 1n },
    ];
    expect(arrayLiteral(rows, "v")).toBe(
      '{1.5,NULL,NULL,NaN,-Infinity,"say \\"hi\\" \\\\ bye","NULL","",t,9223372036854775807}',
    );
  });
});
