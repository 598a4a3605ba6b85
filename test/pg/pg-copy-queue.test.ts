/**
 * One COPY in flight: `copiesSettled` (what a failed ingest waits for before it removes the run's
 * rows) returns only once the batch has landed, and a batch the server refuses fails `drain`
 * whole, leaving none of its rows. Skipped unless RUNLENS_TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from "vitest";
import { copiesSettled, CopyQueue, rawPgPool } from "@/lib/store/pg-copy";
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
});
