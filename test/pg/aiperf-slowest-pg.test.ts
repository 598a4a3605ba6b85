import { afterAll, beforeAll, describe, it } from "vitest";
import type { AppContext } from "@/lib/server/app-context";
import { expectStoredSlowestMatchRows } from "../helpers/aiperf-slowest-case";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { useTestApp } from "../helpers/test-app";

/** The stored slowest-request lists on PostgreSQL: candidates found by their start times there too. */
describe.skipIf(!PG_URL)("slowest requests stored at ingest, PostgreSQL", () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const s = await freshSchema();
    drop = s.drop;
    ({ app, cleanup } = await useTestApp({ DATABASE_URL: s.url }));
  });
  afterAll(async () => {
    await cleanup?.();
    await drop?.();
  });

  it("answers the latency view's queries exactly as the row query does", async () => {
    await expectStoredSlowestMatchRows(app.store.db);
  });
});
