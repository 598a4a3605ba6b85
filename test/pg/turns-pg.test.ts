/** Conversation, turn and reuse columns of aiperf requests (migration 008) on PostgreSQL. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { migrate, openPostgres } from "@/lib/store/db";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { finishWithDrilldown, ingestContext } from "../helpers/analyze";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { diskFile } from "../unit/aiperf-helpers";

describe.skipIf(!PG_URL)("multi-turn aiperf requests on PostgreSQL", () => {
  it("stores conversation, turn, cached and possible reuse tokens as on SQLite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "turns-pg-"));
    const gen = generateMultiTurnRun(dir, { conversations: 12, seed: 4, errorEvery: 9 });
    const { url, drop } = await freshSchema();
    const handle = openPostgres(url);
    try {
      await migrate(handle);
      const ctx = ingestContext(handle);
      const a = aiperfAnalyzer();
      await a.ingestFile(diskFile(gen.jsonlPath, "profile_export.jsonl"), ctx);
      await finishWithDrilldown(a, ctx);
      const rows = await handle.db
        .selectFrom("aiperf_requests")
        .select(["request_id", "conversation_id", "turn_index", "cached_tokens", "possible_reuse_tokens"])
        .execute();
      expect(rows).toHaveLength(gen.requests.length);
      const truth = new Map(gen.requests.map((r) => [`req-${String(r.i).padStart(8, "0")}`, r]));
      for (const row of rows) {
        const r = truth.get(row.request_id!)!;
        expect(row).toEqual({
          request_id: row.request_id,
          conversation_id: r.conversation,
          turn_index: r.turn,
          cached_tokens: r.cached,
          possible_reuse_tokens: r.history,
        });
      }
    } finally {
      await handle.close();
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
