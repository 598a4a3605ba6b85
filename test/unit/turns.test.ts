/**
 * Turns and conversations of aiperf multi-turn runs (docs/metrics.md §Turns), driven by
 * test/generators/aiperf-multiturn.mjs, which follows aiperf's record format
 * (common/models/record_models.py MetricRecordMetadata; usage_prompt_cache_read_tokens from
 * metrics/types/usage_cache_metrics.py).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hasTurnData, runView } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import { turnsPayloadSchema, type TurnsPayload } from "@/lib/api/turns";
import { parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { PossibleReuse } from "@/lib/metrics/conversation-turns";
import { splitPrompt } from "@/lib/metrics/turn-stats";
import { compareTurnRows, reuseTotals, turnReuseRows } from "@/lib/metrics/turn-chart-rows";
import { generateMultiTurnRun, type MultiTurnRequest, HAND_CASE } from "../generators/aiperf-multiturn.mjs";
import { analyze, diskFile, generatedFiles } from "./aiperf-helpers";
import { storedAiperfRows } from "../helpers/aiperf-request-rows";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-turns-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** numpy.percentile's default (linear), written apart from lib/metrics/stats.ts. */
function npPercentile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const rank = (q / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return s[lo] + (s[hi] - s[lo]) * (rank - lo);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function turnsOf(sub: string, opts: Parameters<typeof generateMultiTurnRun>[1]) {
  const gen = generateMultiTurnRun(path.join(dir, sub), opts);
  const run = await analyze(generatedFiles(gen));
  const payload = turnsPayloadSchema.parse(run.result.charts![AIPERF_CHARTS.turns.key]);
  return { gen, run, payload };
}

describe("the aiperf reader takes conversation and turn", () => {
  const line = (meta: string, metrics = "{}") => {
    const text = `{"metadata":{"request_start_ns":1,"request_end_ns":2,${meta}},"metrics":${metrics}}`;
    return parseAiperfRecord(JSON.parse(text), text);
  };

  it("reads conversation_id, turn_index and the cached prompt tokens", () => {
    expect(
      line(
        `"conversation_id":"conv-1","x_correlation_id":"corr","turn_index":3`,
        `{"usage_prompt_cache_read_tokens":{"value":96,"unit":"tokens"}}`,
      ),
    ).toMatchObject({ conversationId: "conv-1", turnIndex: 3, cachedTokens: 96 });
  });

  it("falls back to x_correlation_id when conversation_id is absent or null (older aiperf)", () => {
    expect(line(`"conversation_id":null,"x_correlation_id":"corr-7","turn_index":0`)).toMatchObject({
      conversationId: "corr-7",
      turnIndex: 0,
      cachedTokens: null,
    });
  });

  it("reads a broken turn index or cached count as not recorded", () => {
    for (const bad of ["-1", "1.5", '"2"', "null"])
      expect(line(`"conversation_id":"c","turn_index":${bad}`)).toMatchObject({ turnIndex: null });
    expect(
      line(`"turn_index":1`, `{"usage_prompt_cache_read_tokens":{"value":-4,"unit":"tokens"}}`),
    ).toMatchObject({ cachedTokens: null, conversationId: null });
  });
});

describe("possible reuse: the previous turn's prompt and answer", () => {
  it("is 0 on a first turn and min(prompt, previous prompt + answer) after", () => {
    const r = new PossibleReuse();
    expect(r.next("a", 0, 1000, 50, false)).toBe(0);
    expect(r.next("a", 1, 1150, 60, false)).toBe(1050);
    // A prompt shorter than the history (the client trimmed it) caps the reuse at the prompt.
    expect(r.next("a", 2, 900, 10, false)).toBe(900);
  });

  it("counts no answer after a failed turn", () => {
    const r = new PossibleReuse();
    r.next("a", 0, 500, 40, false);
    r.next("a", 1, 640, null, true);
    expect(r.next("a", 2, 740, 10, false)).toBe(640);
  });

  it("is unknown (NaN), never 0, when the previous turn was not seen", () => {
    const r = new PossibleReuse();
    expect(r.next("a", 2, 800, 10, false)).toBeNaN();
    r.next("b", 0, 100, 10, false);
    expect(r.next("b", 2, 300, 10, false)).toBeNaN();
    expect(r.next("c", 1, null, 10, false)).toBeNaN();
    expect(r.next(null, 1, 100, 10, false)).toBeNaN();
  });

  it("forgets the conversation idle longest past its limit, and a new file's conversations are new", () => {
    const r = new PossibleReuse(2);
    r.next("a", 0, 100, 10, false);
    r.next("b", 0, 100, 10, false);
    r.next("c", 0, 100, 10, false);
    expect(r.next("a", 1, 200, 10, false)).toBeNaN();
    expect(r.next("c", 1, 200, 10, false)).toBe(110);
    r.reset();
    expect(r.next("c", 2, 300, 10, false)).toBeNaN();
    // a, b, c; a again once forgotten (the limit's price: an overcount, said in docs/metrics.md);
    // c again after the reset (another trial's conversation).
    expect(r.conversations).toBe(5);
  });
});

describe("splitting a prompt: cached + recomputed reusable + new = prompt", () => {
  it("splits by the ceiling and what the server served", () => {
    expect(splitPrompt(1150, 1040, 1050)).toEqual({
      cached: 1040,
      recomputedReusable: 10,
      fresh: 100,
      possible: 1050,
    });
    // Evicted: the whole history recomputed.
    expect(splitPrompt(1150, 0, 1050)).toEqual({
      cached: 0,
      recomputedReusable: 1050,
      fresh: 100,
      possible: 1050,
    });
    // A shared system prompt served from cache on a first turn: more than the conversation's own.
    expect(splitPrompt(1000, 256, 0)).toEqual({
      cached: 256,
      recomputedReusable: 0,
      fresh: 744,
      possible: 0,
    });
    // A cached count past the prompt (a server slip) is capped at it.
    expect(splitPrompt(100, 120, 90)).toEqual({ cached: 100, recomputedReusable: 0, fresh: 0, possible: 90 });
  });
});

describe("achieved vs possible reuse, hand-computed", () => {
  // Two conversations of 3 and 2 turns; first prompt 1000, each user message 100, each answer 50,
  // nothing evicted; the server caches whole 16-token blocks of the history.
  //   turn 0: prompts 1000 + 1000; nothing reusable, nothing cached.
  //   turn 1: prompts 1150 + 1150; reusable 1050 each; cached ⌊1050/16⌋·16 = 1040 each.
  //   turn 2: prompt 1300 (conversation 0 only); reusable 1150 + 50 = 1200; cached 75·16 = 1200.
  it("gives each turn's parts and hit rate", async () => {
    const { payload } = await turnsOf("hand", { ...HAND_CASE });
    expect(payload.conversations).toBe(2);
    expect(payload.rows.map((r) => [r.turn, r.requests])).toEqual([
      [0, 2],
      [1, 2],
      [2, 1],
    ]);
    expect(payload.rows.map((r) => r.reuse)).toEqual([
      {
        requests: 2,
        promptTokens: 2000,
        cachedTokens: 0,
        recomputedReusableTokens: 0,
        newTokens: 2000,
        possibleTokens: 0,
      },
      {
        requests: 2,
        promptTokens: 2300,
        cachedTokens: 2080,
        recomputedReusableTokens: 20,
        newTokens: 200,
        possibleTokens: 2100,
      },
      {
        requests: 1,
        promptTokens: 1300,
        cachedTokens: 1200,
        recomputedReusableTokens: 0,
        newTokens: 100,
        possibleTokens: 1200,
      },
    ]);
    expect(payload.rows[1].hitRate).toBeCloseTo(2080 / 2300, 12);
    expect(payload.rows[1].possibleRate).toBeCloseTo(2100 / 2300, 12);
    expect(payload.rows[2].hitRate).toBeCloseTo(1200 / 1300, 12);
    // Run-wide: 3280 of a possible 3300 reused tokens achieved.
    const achieved = sum(payload.rows.map((r) => r.reuse!.cachedTokens));
    const possible = sum(payload.rows.map((r) => r.reuse!.possibleTokens));
    expect([achieved, possible]).toEqual([3280, 3300]);
  });

  it("counts no answer into the ceiling after a failed turn", async () => {
    // Request 1 (conversation 0, turn 1) fails: turn 2's history is turn 1's prompt alone.
    const { payload, gen } = await turnsOf("failed", {
      conversations: 1,
      turns: [3],
      firstPrompt: 1000,
      userTokens: 100,
      answerTokens: 50,
      evict: 0,
      errorEvery: 2,
    });
    expect(gen.requests.map((r) => [r.prompt, r.failed])).toEqual([
      [1000, false],
      [1150, true],
      [1250, false],
    ]);
    expect(payload.rows[1]).toMatchObject({
      requests: 1,
      errors: 1,
      cancelled: 0,
      reuse: null,
      ttftMs: null,
    });
    expect(payload.rows[2].reuse).toMatchObject({ promptTokens: 1250, possibleTokens: 1150 });
  });
});

describe("per-turn statistics on a generated run of conversations of 1–20 turns", () => {
  it("match the records by turn, and each turn's parts sum to its prompt tokens", async () => {
    const { gen, payload, run } = await turnsOf("random", {
      conversations: 120,
      maxTurns: 20,
      seed: 7,
      evict: 0.25,
      errorEvery: 23,
      cancelEvery: 31,
    });
    const byTurn = new Map<number, MultiTurnRequest[]>();
    for (const r of gen.requests) byTurn.set(r.turn, [...(byTurn.get(r.turn) ?? []), r]);
    expect(payload.rows.map((r) => r.turn)).toEqual([...byTurn.keys()].sort((a, b) => a - b));
    expect(payload.conversations).toBe(120);
    expect(Math.max(...gen.requests.map((r) => r.turn))).toBe(19);
    for (const row of payload.rows) {
      const all = byTurn.get(row.turn)!;
      const ok = all.filter((r) => !r.failed && !r.cancelled);
      expect(row.requests).toBe(all.length);
      expect(row.errors).toBe(all.filter((r) => r.failed).length);
      expect(row.cancelled).toBe(all.filter((r) => r.cancelled).length);
      if (ok.length === 0) continue;
      const ttft = ok.map((r) => r.ttft);
      expect(row.ttftMs!.p50).toBeCloseTo(npPercentile(ttft, 50), 9);
      expect(row.ttftMs!.p90).toBeCloseTo(npPercentile(ttft, 90), 9);
      expect(row.ttftMs!.mean).toBeCloseTo(mean(ttft), 9);
      expect(row.e2eMs!.p90).toBeCloseTo(
        npPercentile(
          ok.map((r) => r.e2e),
          90,
        ),
        9,
      );
      expect(row.inputTokens!.mean).toBeCloseTo(mean(ok.map((r) => r.prompt)), 9);
      expect(row.outputTokens!.p50).toBeCloseTo(
        npPercentile(
          ok.map((r) => r.answer!),
          50,
        ),
        9,
      );
      const prompt = sum(ok.map((r) => r.prompt));
      expect(row.hitRate).toBeCloseTo(sum(ok.map((r) => r.cached!)) / prompt, 12);
      const reuse = row.reuse!;
      expect(reuse.promptTokens).toBe(prompt);
      expect(reuse.cachedTokens + reuse.recomputedReusableTokens + reuse.newTokens).toBe(reuse.promptTokens);
      expect(reuse.possibleTokens).toBe(sum(ok.map((r) => r.history)));
    }
    // Later turns carry longer histories, so most of their prompt is reusable.
    expect(payload.rows[0].possibleRate).toBe(0);
    expect(payload.rows[10].possibleRate!).toBeGreaterThan(0.9);
    expect(run.result.info).toMatchObject({ conversations: 120, maxTurnIndex: 19 });

    const rows = await storedAiperfRows(run.handle.db, run.ctx.runId);
    const truth = new Map(gen.requests.map((r) => [`req-${String(r.i).padStart(8, "0")}`, r]));
    expect(rows).toHaveLength(gen.requests.length);
    for (const row of rows) {
      const r = truth.get(row.request_id!)!;
      expect(row).toMatchObject({
        conversation_id: r.conversation,
        turn_index: r.turn,
        cached_tokens: r.cached,
        possible_reuse_tokens: r.history,
      });
    }
    await run.handle.close();
  });

  it("carries aiperf's run-level theoretical hit rate beside the per-turn figures", async () => {
    const { gen, payload } = await turnsOf("theoretical", { conversations: 8, seed: 9, theoretical: true });
    const t = gen.summary.theoretical_prefix_cache_hit as { count: number; sum: number };
    // Σ hit blocks / Σ blocks, as aiperf reports it with count and sum (schema 1.1+).
    expect(payload.theoreticalHitRate).toBeCloseTo(t.sum / t.count, 12);
  });

  it("says cached tokens are not recorded when the responses carried no usage", async () => {
    const { payload } = await turnsOf("no-cached", { conversations: 10, seed: 3, cached: false });
    expect(payload.cachedKnown).toBe(false);
    expect(payload.rows.every((r) => r.hitRate === null && r.reuse === null)).toBe(true);
    expect(payload.rows.some((r) => r.possibleRate !== null && r.possibleRate > 0)).toBe(true);
  });

  it("stores no Turns payload for a single-turn run", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "single"), { conversations: 30, maxTurns: 1 });
    const run = await analyze([diskFile(gen.jsonlPath, "profile_export.jsonl")]);
    expect(run.result.charts![AIPERF_CHARTS.turns.key]).toBeUndefined();
    expect(run.result.info?.conversations).toBeUndefined();
    await run.handle.close();
  });
});

describe("turn rows the charts draw", () => {
  it("stack mean tokens per request to the mean prompt, and total the achieved share", async () => {
    const { payload } = await turnsOf("rows", { ...HAND_CASE });
    const rows = turnReuseRows(payload);
    // Turn 1: two requests of 1150 tokens, 1040 cached, 1050 reusable.
    expect(rows[1]).toMatchObject({
      requests: 2,
      cached: 1040,
      recomputed: 10,
      fresh: 100,
      ceiling: 1050,
      prompt: 1150,
    });
    for (const r of rows) expect(r.cached! + r.recomputed! + r.fresh!).toBe(r.prompt);
    // Σ min(cached, possible) / Σ possible = (0 + 2080 + 1200) / (0 + 2100 + 1200).
    expect(reuseTotals(payload).achievedShare).toBeCloseTo(3280 / 3300, 12);
  });

  it("line compared runs up by turn, with changes against the baseline", async () => {
    const a = (await turnsOf("cmp-a", { conversations: 40, seed: 2, evict: 0 })).payload;
    const b = (await turnsOf("cmp-b", { conversations: 40, seed: 2, evict: 0.5, maxTurns: 10 })).payload;
    const runs = [
      { id: "a", payload: a },
      { id: "b", payload: b },
    ];
    const hit = compareTurnRows(runs, "hitPct", "a");
    expect(hit.map((r) => r.turn)).toEqual(a.rows.map((r) => r.turn));
    const t3 = hit.find((r) => r.turn === 3)!;
    const [ra, rb] = [a.rows.find((r) => r.turn === 3)!, b.rows.find((r) => r.turn === 3)!];
    expect(t3.values).toEqual({ a: ra.hitRate! * 100, b: rb.hitRate! * 100 });
    // Percentage points for a rate; relative for a latency; none for the baseline itself.
    expect(t3.deltas.b).toBeCloseTo((rb.hitRate! - ra.hitRate!) * 100, 12);
    expect(t3.deltas.a).toBeNull();
    const ttft = compareTurnRows(runs, "ttftP50", "a").find((r) => r.turn === 3)!;
    expect(ttft.deltas.b).toBeCloseTo((rb.ttftMs!.p50 - ra.ttftMs!.p50) / ra.ttftMs!.p50, 12);
    // Turns past run b's last have no value and no change for it.
    const late = hit.find((r) => r.turn === 15)!;
    expect([late.values.b, late.deltas.b]).toEqual([null, null]);
  });
});

describe("the Turns tab", () => {
  const info = (i: RunSummary["info"]) => ({ info: i }) as RunSummary;
  it("is enabled only for a run with a turn above 0, and says what to upload", () => {
    expect(hasTurnData(info({ maxTurnIndex: 7, conversations: 3 }))).toBe(true);
    expect(hasTurnData(info({ maxTurnIndex: 0 }))).toBe(false);
    expect(hasTurnData(info({}))).toBe(false);
    expect(runView("turns").missing).toContain("turn_index");
  });

  it("keeps the stored payload within its schema", async () => {
    const { payload } = await turnsOf("schema", { conversations: 4, seed: 5 });
    const p: TurnsPayload = payload;
    expect(turnsPayloadSchema.safeParse(p).success).toBe(true);
  });
});
