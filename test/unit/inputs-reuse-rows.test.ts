/**
 * The inputs.json estimate stored per request (docs/metrics.md §Turns, "From inputs.json"):
 * each aiperf request row keeps the records' possible reuse and gets the estimate the charts use,
 * whether inputs.json came before or after the records. Records from
 * test/generators/aiperf-multiturn.mjs; its inputs.json follows aiperf
 * `src/aiperf/dataset/dataset_manager.py` (`_generate_input_payloads`: `{data: [{session_id,
 * payloads}]}`, one OpenAI chat body per turn), with one image part added as aiperf inlines it
 * (a base64 data URL in an `image_url` part).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { turnsPayloadSchema } from "@/lib/api/turns";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import type { Db } from "@/lib/store/db";
import { generateMultiTurnRun, HAND_CASE } from "../generators/aiperf-multiturn.mjs";
import { runAnalyzer } from "../helpers/analyze";
import { diskFile } from "./aiperf-helpers";
import { storedAiperfRows } from "../helpers/aiperf-request-rows";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inputs-reuse-rows-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Two conversations of 3 and 2 turns; first prompt 1000 tokens, each user message 100, each
// answer 50 (the generator's turns: ISL 1000, 1150, 1300). The records' ceiling is the previous
// prompt and answer: 1050 at turn 1, 1200 at turn 2.
// inputs.json carries the history (4 characters a token): payload k begins with payload k − 1,
// then the answer and the new message. Its estimate is ISL(k) × chars(k − 1) / chars(k):
//   turn 1: 1150 × 4000 / 4600 = 1000;  turn 2: 1300 × 4600 / 5200 = 1150.
// Conversation 1's turn 1 also sends an image, whose tokens the estimate cannot count.
const gen = generateMultiTurnRun(path.join(dir, "run"), { ...HAND_CASE, inputs: "history" });
const doc = JSON.parse(fs.readFileSync(gen.inputsPath!, "utf8"));
const image = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
const withImage = doc.data[1].payloads[1].messages;
withImage[withImage.length - 1].content.push(image);
fs.writeFileSync(gen.inputsPath!, JSON.stringify(doc));

async function ingest(inputsFirst: boolean) {
  const inputs = [diskFile(gen.inputsPath!, "inputs.json")];
  const records = [
    diskFile(gen.jsonlPath, "profile_export.jsonl"),
    diskFile(gen.summaryPath, "profile_export_aiperf.json"),
  ];
  return runAnalyzer(aiperfAnalyzer(), inputsFirst ? [...inputs, ...records] : [...records, ...inputs]);
}

const requestRows = async (db: Db) =>
  (await storedAiperfRows(db, "r1"))
    .map(({ conversation_id, turn_index, possible_reuse_tokens, inputs_reuse_tokens }) => ({
      conversation_id,
      turn_index,
      possible_reuse_tokens,
      inputs_reuse_tokens,
    }))
    .sort((a, b) => a.conversation_id!.localeCompare(b.conversation_id!) || a.turn_index! - b.turn_index!);

describe("the inputs.json estimate per request, hand-computed", () => {
  for (const inputsFirst of [false, true])
    it(`stores the estimate beside the records' count (inputs.json ${inputsFirst ? "before" : "after"} the records)`, async () => {
      const run = await ingest(inputsFirst);
      const db = run.handle.db;
      expect(await requestRows(db)).toEqual([
        { conversation_id: "conv-00000", turn_index: 0, possible_reuse_tokens: 0, inputs_reuse_tokens: 0 },
        {
          conversation_id: "conv-00000",
          turn_index: 1,
          possible_reuse_tokens: 1050,
          inputs_reuse_tokens: 1000,
        },
        {
          conversation_id: "conv-00000",
          turn_index: 2,
          possible_reuse_tokens: 1200,
          inputs_reuse_tokens: 1150,
        },
        { conversation_id: "conv-00001", turn_index: 0, possible_reuse_tokens: 0, inputs_reuse_tokens: 0 },
        {
          conversation_id: "conv-00001",
          turn_index: 1,
          possible_reuse_tokens: 1050,
          inputs_reuse_tokens: 1000,
        },
      ]);
      const turns = await db
        .selectFrom("aiperf_inputs_turns")
        .select(["conversation_id", "turn_index", "non_text"])
        .orderBy("conversation_id")
        .orderBy("turn_index")
        .execute();
      expect(turns.map((t) => [t.conversation_id, t.turn_index, t.non_text])).toEqual([
        ["conv-00000", 0, 0],
        ["conv-00000", 1, 0],
        ["conv-00000", 2, 0],
        ["conv-00001", 0, 0],
        ["conv-00001", 1, 1],
      ]);
      // The charts use the same estimate: turn 1's ceiling is 1000 + 1000, turn 2's 1150.
      const p = turnsPayloadSchema.parse(run.result.charts![AIPERF_CHARTS.turns.key]);
      expect(p.possibleSource).toBe("inputs");
      expect(p.rows.map((r) => r.reuse!.possibleTokens)).toEqual([0, 2000, 1150]);
      expect([p.inputsRequests, p.inputsNonText]).toEqual([5, 1]);
      await run.handle.close();
    });

  it("keeps the records' count alone when the upload has no inputs.json", async () => {
    const run = await runAnalyzer(aiperfAnalyzer(), [
      diskFile(gen.jsonlPath, "profile_export.jsonl"),
      diskFile(gen.summaryPath, "profile_export_aiperf.json"),
    ]);
    const rows = await requestRows(run.handle.db);
    expect(rows.map((r) => [r.possible_reuse_tokens, r.inputs_reuse_tokens])).toEqual([
      [0, null],
      [1050, null],
      [1200, null],
      [0, null],
      [1050, null],
    ]);
    const p = turnsPayloadSchema.parse(run.result.charts![AIPERF_CHARTS.turns.key]);
    expect(p.possibleSource).toBe("records");
    expect(p.inputsRequests).toBeUndefined();
    await run.handle.close();
  });
});
