import { describe, it } from "vitest";
import { expectStoredSlowestMatchRows } from "../helpers/aiperf-slowest-case";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";

/** The stored slowest-request lists on PostgreSQL: candidates found by their start times there too. */
describe.skipIf(!PG_URL)("slowest requests stored at ingest, PostgreSQL", () => {
  const t = usePgTestApp();

  it("answers the latency view's queries exactly as the row query does", async () => {
    await expectStoredSlowestMatchRows(t.app.store.db);
  });
});
