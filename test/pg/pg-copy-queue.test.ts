/**
 * COPYs in flight: `copiesSettled` (what a failed ingest waits for before it removes the run's
 * rows) returns only once the batches have landed, and a batch the server refuses fails `drain`
 * whole, leaving none of its rows. COPY sessions commit without waiting for the WAL flush; the
 * main pool, where the run is marked ready, still waits. Skipped unless RUNLENS_TEST_DATABASE_URL
 * is set.
 */
import { describe, expect, it } from "vitest";
import { copiesSettled, copyPoolOf, CopyQueue, rawPgPool } from "@/lib/store/pg-copy";
import { PG_URL, usePgStore } from "../helpers/pg-schema";

const COLUMNS = ["run_id", "file_id", "line", "phase", "ok", "cancelled", "start_ms", "end_ms"];
const row = (runId: string, line: number, endMs: unknown = line + 1) => [
  runId,
  "f",
  line,
  "profiling",
  1,
  0,
  line,
  endMs,
];

describe.skipIf(!PG_URL)("CopyQueue on PostgreSQL", () => {
  const h = usePgStore();
  const count = async (runId: string) =>
    Number(
      (
        await h.db
          .selectFrom("aiperf_requests")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("run_id", "=", runId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("settles only once the batch in flight has landed", async () => {
    const q = new CopyQueue(rawPgPool(h.db)!, "aiperf_requests", COLUMNS);
    await q.send(Array.from({ length: 20_000 }, (_, i) => row("landed", i)).flat());
    await copiesSettled(h.db);
    expect(await count("landed")).toBe(20_000);
    await q.drain();
  });

  it("fails a refused batch whole, in drain, and settles without throwing", async () => {
    const q = new CopyQueue(rawPgPool(h.db)!, "aiperf_requests", COLUMNS);
    const values = Array.from({ length: 5_000 }, (_, i) =>
      row("refused", i, i === 4_999 ? "not a number" : i),
    ).flat();
    await q.send(values);
    await expect(copiesSettled(h.db)).resolves.toBeUndefined();
    await expect(q.drain()).rejects.toThrow(/double precision|invalid input/);
    expect(await count("refused")).toBe(0);
    // The pool is still usable after the refused COPY.
    await q.send(row("after", 1));
    await q.drain();
    expect(await count("after")).toBe(1);
  });

  it("lands every batch when more are sent than fit in flight", async () => {
    const q = new CopyQueue(rawPgPool(h.db)!, "aiperf_requests", COLUMNS);
    for (let b = 0; b < 5; b++)
      await q.send(Array.from({ length: 1_000 }, (_, i) => row("many", b * 1_000 + i)).flat());
    await q.drain();
    expect(await count("many")).toBe(5_000);
    const lines = await h.db
      .selectFrom("aiperf_requests")
      .select("line")
      .where("run_id", "=", "many")
      .orderBy("line")
      .execute();
    expect(lines.map((r) => r.line)).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
  });

  it("commits COPYs without waiting for the WAL flush, and nothing else", async () => {
    const setting = async (pool: import("pg").Pool) =>
      (await pool.query("select current_setting('synchronous_commit') as s")).rows[0].s;
    const pool = rawPgPool(h.db)!;
    expect(await setting(copyPoolOf(pool))).toBe("off");
    expect(await setting(pool)).not.toBe("off");
  });
});
