import { describe, expect, it } from "vitest";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { listRequests } from "@/lib/store/aiperf-requests";
import { migrate, openPostgres } from "@/lib/store/db";
import { finishWithDrilldown, ingestContext } from "../helpers/analyze";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { fixtureFile } from "../unit/aiperf-helpers";

describe.skipIf(!PG_URL)("aiperf analyzer on PostgreSQL", () => {
  it("writes, re-anchors and queries request rows the same way as on SQLite", async () => {
    const { url, drop } = await freshSchema();
    const handle = openPostgres(url);
    try {
      await migrate(handle);
      const ctx = ingestContext(handle);
      const a = aiperfAnalyzer();
      await a.ingestFile(fixtureFile("qwen-c4__profile_export.jsonl"), ctx);
      const result = await finishWithDrilldown(a, ctx);
      expect(result.requests!.ttftMs!.p99).toBeCloseTo(70.73962603, 9);
      const first = await listRequests(handle.db, "r1", { sort: "start", order: "asc", limit: 1 });
      expect(first.total).toBe(10);
      expect(first.rows[0].startS).toBe(0);
      const slowest = await listRequests(handle.db, "r1", { sort: "ttft", order: "desc", limit: 1 });
      expect(slowest.rows[0].ttftMs).toBeCloseTo(70.740763, 6);
    } finally {
      await handle.close();
      await drop();
    }
  });
});
