import { describe, expect, it } from "vitest";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { migrate, openPostgres, openSqlite, type DbHandle } from "@/lib/store/db";
import { eachAiperfTimelineRow, type AiperfTimelineRow } from "@/lib/store/timeline-rows";
import { finishWithDrilldown, ingestContext } from "../helpers/analyze";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { fixtureFile } from "../unit/aiperf-helpers";

/** The timeline's rows of one ingested aiperf fixture on a store, in start order. */
async function rowsOn(handle: DbHandle) {
  await migrate(handle);
  const ctx = ingestContext(handle);
  const a = aiperfAnalyzer();
  await a.ingestFile(fixtureFile("qwen-c4__profile_export.jsonl"), ctx);
  await finishWithDrilldown(a, ctx);
  const rows: AiperfTimelineRow[] = [];
  await eachAiperfTimelineRow(handle.db, "r1", (r) => rows.push([...r] as AiperfTimelineRow));
  return rows.sort((x, y) => x[1] - y[1]);
}

describe.skipIf(!PG_URL)("request timeline rows on PostgreSQL", () => {
  it("reads the same columns, as numbers, as the SQLite statement does", async () => {
    const { url, drop } = await freshSchema();
    const pg = openPostgres(url);
    const lite = openSqlite(":memory:");
    try {
      const a = await rowsOn(pg);
      const b = await rowsOn(lite);
      expect(a).toHaveLength(10);
      expect(a).toEqual(b);
      expect(typeof a[0][3]).toBe("number");
    } finally {
      await pg.close();
      await lite.close();
      await drop();
    }
  });
});
