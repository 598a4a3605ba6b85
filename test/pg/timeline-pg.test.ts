import { describe, expect, it } from "vitest";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { migrate, openPostgres, openSqlite, type DbHandle } from "@/lib/store/db";
import { firstWindowFor, timelineColumnsOf } from "@/lib/ingest/timeline-columns";
import { timelineWindow } from "@/lib/metrics/request-timeline";
import { unpackTimeline } from "@/lib/metrics/request-timeline-pack";
import type { FileRow } from "@/lib/store/runs-repo";
import {
  MAX_TIMELINE_BYTES,
  readTimelineColumns,
  readTimelineFirstWindow,
  writeTimelineColumns,
} from "@/lib/store/timeline-columns";
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

/** The whole-run window of the fixture's timeline, stored as columns on a store and read back. */
async function storedWindowOn(handle: DbHandle) {
  await migrate(handle);
  const ctx = ingestContext(handle);
  const a = aiperfAnalyzer();
  await a.ingestFile(fixtureFile("qwen-c4__profile_export.jsonl"), ctx);
  const result = await a.finish(ctx);
  const files = [{ id: "f0", ord: 0, name: "qwen-c4__profile_export.jsonl" } as FileRow];
  const columns = await timelineColumnsOf(handle.db, "r1", files, [result]);
  const { count, stored, firstWindow } = columns!;
  await writeTimelineColumns(handle.db, "r1", count, stored, MAX_TIMELINE_BYTES, firstWindow);
  const t = unpackTimeline((await readTimelineColumns(handle.db, "r1"))!);
  const first = firstWindowFor(await readTimelineFirstWindow(handle.db, "r1"), { limit: 5000 });
  return { cut: timelineWindow(t!, { limit: 5000 }), first };
}

describe.skipIf(!PG_URL)("stored timeline columns on PostgreSQL", () => {
  it("reads back the blob SQLite reads back", async () => {
    const { url, drop } = await freshSchema();
    const pg = openPostgres(url);
    const lite = openSqlite(":memory:");
    try {
      const a = await storedWindowOn(pg);
      expect(a.cut.inWindow).toBe(10);
      expect(a.cut.originEpochMs).not.toBeNull();
      // The first window stored beside the columns is the window cut from them, on both stores.
      expect(a.first).toEqual(a.cut);
      expect(a).toEqual(await storedWindowOn(lite));
    } finally {
      await pg.close();
      await lite.close();
      await drop();
    }
  });
});
