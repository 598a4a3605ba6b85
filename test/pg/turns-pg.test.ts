/** Conversation, turn and reuse columns of aiperf requests (migrations 008, 016) on PostgreSQL. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { generateMultiTurnRun, HAND_CASE } from "../generators/aiperf-multiturn.mjs";
import { storedAiperfRows } from "../helpers/aiperf-request-rows";
import { runAnalyzer } from "../helpers/analyze";
import { PG_URL, withPgStore } from "../helpers/pg-schema";
import { diskFile } from "../unit/aiperf-helpers";

describe.skipIf(!PG_URL)("multi-turn aiperf requests on PostgreSQL", () => {
  it("stores conversation, turn, cached and possible reuse tokens as on SQLite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "turns-pg-"));
    const gen = generateMultiTurnRun(dir, { conversations: 12, seed: 4, errorEvery: 9 });
    try {
      await withPgStore(async (handle) => {
        const { ctx } = await runAnalyzer(
          aiperfAnalyzer(),
          [diskFile(gen.jsonlPath, "profile_export.jsonl")],
          {
            handle,
          },
        );
        const rows = (await storedAiperfRows(handle.db, ctx.runId)).map(
          ({ request_id, conversation_id, turn_index, cached_tokens, possible_reuse_tokens }) => ({
            request_id,
            conversation_id,
            turn_index,
            cached_tokens,
            possible_reuse_tokens,
          }),
        );
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
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stores the inputs.json estimate per request as on SQLite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "turns-pg-inputs-"));
    // As test/unit/inputs-reuse-rows.test.ts: history payloads, estimates 1000 and 1150.
    const gen = generateMultiTurnRun(dir, { ...HAND_CASE, inputs: "history" });
    try {
      await withPgStore(async (handle) => {
        const files = [
          diskFile(gen.jsonlPath, "profile_export.jsonl"),
          diskFile(gen.inputsPath!, "inputs.json"),
        ];
        const { ctx } = await runAnalyzer(aiperfAnalyzer(), files, { handle });
        const rows = (await storedAiperfRows(handle.db, ctx.runId)).sort(
          (x, y) => x.conversation_id!.localeCompare(y.conversation_id!) || x.turn_index! - y.turn_index!,
        );
        expect(
          rows.map((r) => [r.conversation_id, r.turn_index, r.possible_reuse_tokens, r.inputs_reuse_tokens]),
        ).toEqual([
          ["conv-00000", 0, 0, 0],
          ["conv-00000", 1, 1050, 1000],
          ["conv-00000", 2, 1200, 1150],
          ["conv-00001", 0, 0, 0],
          ["conv-00001", 1, 1050, 1000],
        ]);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
