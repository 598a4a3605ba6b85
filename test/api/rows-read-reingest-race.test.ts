/**
 * Issue 31, "A run being re-ingested says so on every route" (found by the soak,
 * test/soak/paths-soak.test.ts): a read of a run's per-request rows whose check passed just
 * before a re-ingest of the run began answered what the re-ingest had left, a request list of
 * total 0 or a trace `404 run not found`. The routes' guard now looks at the run again once the
 * read is done, and answers `409 drilldown_building` when its state changed meanwhile. On each
 * store, the re-ingest's first step (the run marked `ingesting`) made inside the read.
 */
import { describe, expect, it } from "vitest";
import { guardedRowsRead } from "@/lib/server/drilldown-guard";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { uploadGeneratedAiperf, waitForDrilldown } from "../helpers/test-app";

describe.each(TEST_STORES)("a rows read raced by a re-ingest (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("answers 409 drilldown_building when the run began re-ingesting during the read", async () => {
    const id = await uploadGeneratedAiperf({ records: 60, concurrency: 4, seed: 5 });
    await waitForDrilldown(id);
    const db = env.app.store.db;
    const list = () => Response.json({ total: 0, rows: [] });

    // Nothing changed during the read: its answer stands.
    const calm = await guardedRowsRead(db, id, {}, async () => list());
    expect(calm?.status).toBe(200);

    // A re-ingest began while it read: the rows it saw are not the run's.
    const raced = await guardedRowsRead(db, id, {}, async () => {
      await db.updateTable("runs").set({ status: "ingesting" }).where("id", "=", id).execute();
      return list();
    });
    expect(raced?.status).toBe(409);
    expect(((await raced!.json()) as { error: { code: string } }).error.code).toBe("drilldown_building");

    // …and ended before it was done (its drill-down stamped anew): still not this read's answer.
    await db.updateTable("runs").set({ status: "ready" }).where("id", "=", id).execute();
    const stamped = await guardedRowsRead(db, id, {}, async () => {
      await db
        .updateTable("runs")
        .set({ drilldown_ready_at: Date.now() + 1 })
        .where("id", "=", id)
        .execute();
      return null;
    });
    expect(stamped?.status).toBe(409);

    // A re-ingest that removed the file the read had opened makes the read fail: that failure is
    // the re-ingest's, answered as such, not a 500 (the PostgreSQL soak's "Cannot open file
    // …columnar-cache/….parquet").
    await db.updateTable("runs").set({ status: "ready" }).where("id", "=", id).execute();
    const removed = await guardedRowsRead(db, id, {}, async () => {
      await db.updateTable("runs").set({ status: "ingesting" }).where("id", "=", id).execute();
      throw new Error('IO Error: Cannot open file "columnar-cache/gone.parquet": No such file or directory');
    });
    expect(removed?.status).toBe(409);

    // A read that fails on a run nothing changed is still a failure of the read.
    await db.updateTable("runs").set({ status: "ready" }).where("id", "=", id).execute();
    await expect(
      guardedRowsRead(db, id, {}, async () => {
        throw new Error("a read's own failure");
      }),
    ).rejects.toThrow("a read's own failure");
  }, 120_000);
});
