import { describe, expect, it } from "vitest";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { listRequests } from "@/lib/store/aiperf-requests";
import { runAnalyzer } from "../helpers/analyze";
import { PG_URL, withPgStore } from "../helpers/pg-schema";
import { fixtureFile } from "../unit/aiperf-helpers";

describe.skipIf(!PG_URL)("aiperf analyzer on PostgreSQL", () => {
  it("writes, re-anchors and queries request rows the same way as on SQLite", async () => {
    await withPgStore(async (handle) => {
      const { result } = await runAnalyzer(aiperfAnalyzer(), [fixtureFile("qwen-c4__profile_export.jsonl")], {
        handle,
      });
      expect(result.requests!.ttftMs!.p99).toBeCloseTo(70.73962603, 9);
      const first = await listRequests(handle.db, "r1", { sort: "start", order: "asc", limit: 1 });
      expect(first.total).toBe(10);
      expect(first.rows[0].startS).toBe(0);
      const slowest = await listRequests(handle.db, "r1", { sort: "ttft", order: "desc", limit: 1 });
      expect(slowest.rows[0].ttftMs).toBeCloseTo(70.740763, 6);
    });
  });
});
