/**
 * Achieved vs possible reuse per server-metrics interval, and the possible reuse estimated from
 * aiperf's inputs.json (docs/metrics.md §Reuse per interval, §Turns "From inputs.json"). Runs
 * come from test/generators/aiperf-multiturn.mjs, whose inputs.json follows aiperf
 * `dataset/dataset_manager.py` (`InputsFile` of `SessionPayloads`) and whose server metrics
 * follow vLLM's `prompt_tokens_by_source` counter.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reuseIntervalsPayloadSchema, turnsPayloadSchema, type ReuseIntervalsPayload } from "@/lib/api/turns";
import { readInputsSessions, sessionTurns } from "@/lib/formats/aiperf-inputs";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { estimatePossible } from "@/lib/metrics/inputs-reuse";
import { ProfilingClock } from "@/lib/metrics/profiling-window";
import {
  endpointReuseIntervals,
  ReuseFeed,
  reuseIntervals,
  splitInterval,
  type ReuseRequests,
} from "@/lib/metrics/reuse-intervals";
import type { ServedIntervals } from "@/lib/metrics/server-metrics/timeseries";
import {
  compareReuseDeltas,
  compareReuseRow,
  compareTurnRows,
  endpointReuseRows,
  endpointReuseTotals,
  intervalReuseRows,
  intervalReuseTotals,
} from "@/lib/metrics/turn-chart-rows";
import { generateMultiTurnRun, type MultiTurnRequest } from "../generators/aiperf-multiturn.mjs";
import { runAnalyzer } from "../helpers/analyze";
import { diskFile } from "./aiperf-helpers";
import { AIPERF_CHARTS, REUSE_INTERVALS_CHART } from "@/lib/api/chart-catalog";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reuse-intervals-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BASE_NS = 1.7e18;
const requests = (rows: Array<[atS: number, prompt: number, possible: number]>): ReuseRequests => ({
  length: rows.length,
  atEpochMs: Float64Array.from(rows.map((r) => (BASE_NS + r[0] * 1e9) / 1e6)),
  prompt: Float64Array.from(rows.map((r) => r[1])),
  possible: Float64Array.from(rows.map((r) => r[2])),
  source: "records",
});
const parts = (p: ReuseIntervalsPayload) =>
  p.points.map((q) => [
    q.gpuTokens,
    q.externalTokens,
    q.recomputedReusableTokens,
    q.newTokens,
    q.promptTokens,
  ]);

describe("the reuse stack per interval, hand-computed", () => {
  // Two 1 s intervals: the engines counted 1000 and 600 prompt tokens, 300 and 0 from GPU cache,
  // 100 and 200 from the CPU tier.
  const served: ServedIntervals = {
    startNs: [BASE_NS, BASE_NS + 1e9],
    durationNs: [1e9, 1e9],
    prompt: [1000, 600],
    gpu: [300, 0],
    external: [100, 200],
    sources: ["vllm prompt_tokens_by_source"],
  };
  // A and B prefill in the first interval (possible 400 + 300), C in the second (500), D after both.
  const reqs = requests([
    [0.5, 500, 400],
    [0.9, 500, 300],
    [1.5, 600, 500],
    [5, 100, 50],
  ]);

  it("splits each interval into GPU, external, reusable-but-recomputed and new", () => {
    const p = reuseIntervals(served, reqs)!;
    // Interval 0: served 400 of a 700 ceiling → 300 recomputed, 1000 − 400 − 300 = 300 new.
    // Interval 1: served 200 of 500 → 300 recomputed, 600 − 200 − 300 = 100 new.
    expect(parts(p)).toEqual([
      [300, 100, 300, 300, 1000],
      [0, 200, 300, 100, 600],
    ]);
    expect(p.points.map((q) => [q.possibleTokens, q.clientPromptTokens, q.requests])).toEqual([
      [700, 1000, 2],
      [500, 600, 1],
    ]);
    expect(p.requestsOutside).toBe(1);
    expect(p.startEpochMs).toBe(BASE_NS / 1e6);
    expect(p.externalSource).toContain("external_kv_transfer");
  });

  it("merged intervals add every part, so they still sum to the prompt", () => {
    const p = reuseIntervals(served, reqs, 1)!;
    // 1600 prompt, 300 GPU, 300 external, ceiling 1200 → 600 recomputed, 400 new.
    expect(parts(p)).toEqual([[300, 300, 600, 400, 1600]]);
    expect(p.points[0].durationS).toBe(2);
  });

  it("a tier serving more than the history offered leaves nothing recomputed, and caps stay in the prompt", () => {
    expect(splitInterval(1000, 700, 200, 500)).toEqual({
      gpuTokens: 700,
      externalTokens: 200,
      recomputedReusableTokens: 0,
      newTokens: 100,
    });
    // A GPU count above the prompt (scrape skew) is capped, the external part gets what is left.
    expect(splitInterval(100, 150, 30, 80)).toEqual({
      gpuTokens: 100,
      externalTokens: 0,
      recomputedReusableTokens: 0,
      newTokens: 0,
    });
    // No external counter: null, never 0; no requests: no ceiling, so no split of the rest.
    expect(splitInterval(100, 40, null, 60)).toMatchObject({
      externalTokens: null,
      recomputedReusableTokens: 20,
    });
    expect(splitInterval(100, 40, null, null)).toMatchObject({
      recomputedReusableTokens: null,
      newTokens: null,
    });
  });

  it("rows are rates over each interval's seconds, and the totals say what share of the possible reuse was served", () => {
    // The second interval lasts half a second (a partial last slice); C prefills inside it.
    const half = requests([
      [0.5, 500, 400],
      [0.9, 500, 300],
      [1.25, 600, 500],
    ]);
    const p = reuseIntervals({ ...served, durationNs: [1e9, 0.5e9] }, half)!;
    const rows = intervalReuseRows(p);
    expect(rows[1]).toMatchObject({
      gpu: 0,
      external: 400,
      recomputed: 600,
      fresh: 200,
      prompt: 1200,
      ceiling: 1000,
    });
    const t = intervalReuseTotals(p);
    // Ceiling 700 + 500 = 1200, of which 300 + 300 were recomputed: half served.
    expect(t).toMatchObject({ prompt: 1600, gpu: 300, external: 300, recomputed: 600, possible: 1200 });
    expect(t.achievedShare).toBeCloseTo(0.5, 12);
  });
});

/** The aiperf and server-metrics analyzers of one ingest, sharing the clock and the reuse feed. */
async function ingest(gen: ReturnType<typeof generateMultiTurnRun>, inputsFirst = false) {
  const clock = new ProfilingClock();
  const feed = new ReuseFeed();
  const inputs = gen.inputsPath ? [diskFile(gen.inputsPath, "inputs.json")] : [];
  const records = [
    diskFile(gen.jsonlPath, "profile_export.jsonl"),
    diskFile(gen.summaryPath, "profile_export_aiperf.json"),
  ];
  const aiperf = await runAnalyzer(
    aiperfAnalyzer(clock, feed),
    inputsFirst ? [...inputs, ...records] : [...records, ...inputs],
  );
  const sm = gen.serverMetricsPath
    ? await runAnalyzer(serverMetricsAnalyzer(clock, feed), [
        diskFile(gen.serverMetricsPath, "server_metrics_export.json"),
      ])
    : null;
  return { aiperf, sm };
}

const ok = (r: MultiTurnRequest) => !r.failed && !r.cancelled;
const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("the reuse stack of a generated multi-turn run with a CPU tier", () => {
  it("parts sum to the engines' prompt tokens in every interval, and the totals are the generator's", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "tiers"), {
      conversations: 40,
      maxTurns: 8,
      concurrency: 6,
      evict: 0.4,
      externalHit: 0.5,
      errorEvery: 17,
      serverMetrics: { sliceS: 1 },
    });
    const { sm } = await ingest(gen);
    const p = reuseIntervalsPayloadSchema.parse(sm!.result.charts![REUSE_INTERVALS_CHART.key]);
    expect(sm!.result.info?.reuseIntervals).toBe(p.points.length);
    expect(p.points.length).toBeGreaterThan(3);
    for (const q of p.points) {
      if (q.promptTokens === null || q.newTokens === null) continue;
      expect(q.gpuTokens! + q.externalTokens! + q.recomputedReusableTokens! + q.newTokens).toBe(
        q.promptTokens,
      );
    }
    const done = gen.requests.filter(ok);
    const t = intervalReuseTotals(p);
    expect(t.prompt).toBe(total(done.map((r) => r.prompt)));
    expect(t.gpu).toBe(total(done.map((r) => r.gpuCached!)));
    expect(t.external).toBe(total(done.map((r) => r.externalCached!)));
    expect(t.external).toBeGreaterThan(0);
    expect(total(p.points.map((q) => q.possibleTokens ?? 0))).toBe(total(done.map((r) => r.history)));
    expect(p.requestsOutside).toBe(0);
    expect(p.possibleSource).toBe("records");
    expect(p.servedSource).toBe("vllm prompt_tokens_by_source");
  });

  it("a run without server metrics has no stack, and its Turns view says so by the info flag's absence", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "no-sm"), { conversations: 10, maxTurns: 4 });
    const { aiperf } = await ingest(gen);
    expect(aiperf.result.charts![REUSE_INTERVALS_CHART.key]).toBeUndefined();
    expect(aiperf.result.info?.reuseIntervals).toBeUndefined();
  });
});

describe("the reuse stack per endpoint", () => {
  it("splits one endpoint's intervals into GPU, external and computed, merged like the run's (hand-computed)", () => {
    // Three 1 s intervals merged two by two: (1000 + 500) prompt, (600 + 100) GPU, (100 + 0)
    // external → computed 1500 − 700 − 100 = 700; the last: 800 prompt, GPU 900 capped at 800.
    const served: ServedIntervals = {
      startNs: [BASE_NS, BASE_NS + 1e9, BASE_NS + 2e9],
      durationNs: [1e9, 1e9, 1e9],
      prompt: [1000, 500, 800],
      gpu: [600, 100, 900],
      external: [100, null, 50],
      sources: ["vllm prompt_tokens_by_source"],
    };
    const e = endpointReuseIntervals("engine-0:8000", served, 2);
    expect(e.points).toEqual([
      { t: 0, durationS: 2, promptTokens: 1500, gpuTokens: 700, externalTokens: 100, computedTokens: 700 },
      { t: 2, durationS: 1, promptTokens: 800, gpuTokens: 800, externalTokens: 0, computedTokens: 0 },
    ]);
    expect(endpointReuseRows(e)[0]).toMatchObject({ gpu: 350, external: 50, computed: 350 });
    expect(endpointReuseTotals(e)).toEqual({ prompt: 2300, gpu: 1500, external: 100, computed: 700 });
    // An endpoint whose counters name no tier has no external part, not a 0.
    const noTier = endpointReuseIntervals("engine-1:8000", { ...served, external: null }, 3);
    expect(noTier.points[0]).toMatchObject({ externalTokens: null, computedTokens: 400 });
  });

  it("on a generated run of three engines, each endpoint's parts sum to its prompt tokens, and the endpoints' to the run's", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "engines"), {
      conversations: 30,
      maxTurns: 6,
      concurrency: 6,
      evict: 0.4,
      externalHit: 0.5,
      serverMetrics: { sliceS: 1, engines: 3 },
    });
    const { sm } = await ingest(gen);
    const p = reuseIntervalsPayloadSchema.parse(sm!.result.charts![REUSE_INTERVALS_CHART.key]);
    expect(p.endpoints.map((e) => e.endpoint).sort()).toEqual([
      "engine-0:8000",
      "engine-1:8000",
      "engine-2:8000",
    ]);
    const done = gen.requests.filter(ok);
    for (const e of p.endpoints) {
      expect(e.points.map((q) => q.t)).toEqual(p.points.map((q) => q.t));
      for (const q of e.points)
        if (q.promptTokens !== null)
          expect(q.gpuTokens! + q.externalTokens! + q.computedTokens!).toBe(q.promptTokens);
      // The generator's own per-engine truth: the requests of aiperf workers w with w % 3 = engine.
      const engine = Number(e.endpoint.slice("engine-".length, e.endpoint.indexOf(":")));
      const mine = done.filter((r) => r.worker % 3 === engine);
      const t = endpointReuseTotals(e);
      expect(t.prompt).toBe(total(mine.map((r) => r.prompt)));
      expect(t.gpu).toBe(total(mine.map((r) => r.gpuCached!)));
      expect(t.external).toBe(total(mine.map((r) => r.externalCached!)));
      expect(t.prompt).toBeGreaterThan(0);
    }
    p.points.forEach((q, i) => {
      const sum = (k: "promptTokens" | "gpuTokens" | "externalTokens" | "computedTokens") =>
        total(p.endpoints.map((e) => e.points[i][k] ?? 0));
      expect(sum("promptTokens")).toBe(q.promptTokens ?? 0);
      expect(sum("gpuTokens")).toBe(q.gpuTokens ?? 0);
      expect(sum("externalTokens")).toBe(q.externalTokens ?? 0);
      if (q.newTokens !== null) expect(sum("computedTokens")).toBe(q.recomputedReusableTokens! + q.newTokens);
    });
    expect(intervalReuseTotals(p).prompt).toBe(total(done.map((r) => r.prompt)));
  });

  it("a run of one engine has no per-endpoint stacks: its stack is the run's", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "one-engine"), {
      conversations: 10,
      maxTurns: 4,
      serverMetrics: { sliceS: 1 },
    });
    const { sm } = await ingest(gen);
    expect(
      reuseIntervalsPayloadSchema.parse(sm!.result.charts![REUSE_INTERVALS_CHART.key]).endpoints,
    ).toEqual([]);
  });
});

describe("possible reuse from inputs.json", () => {
  it("compares each payload with the one before it, in characters", () => {
    const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
    const turns = sessionTurns([
      { messages: [{ role: "system", content: "sys!" }, user("hello")] },
      {
        messages: [
          { role: "system", content: "sys!" },
          user("hello"),
          { role: "assistant", content: "hi" },
          user("more"),
        ],
      },
      { messages: [user("fresh")] },
      { prompt: "completions text" },
    ]);
    expect(turns).toEqual([
      { chars: 9, sharedChars: 0, carriesHistory: false, nonText: false },
      // The first payload's 4 + 5 characters, then "hi" and "more" are new.
      { chars: 15, sharedChars: 9, carriesHistory: true, nonText: false },
      { chars: 5, sharedChars: 0, carriesHistory: false, nonText: false },
      { chars: 16, sharedChars: 0, carriesHistory: false, nonText: false },
    ]);
    // A history payload: ISL × shared / chars; a delta payload: ISL − its own text in tokens.
    expect(estimatePossible(turns[1], 1, 300, 0.25)).toBe(180);
    expect(estimatePossible(turns[2], 2, 300, 0.25)).toBe(300 - 5 * 0.25);
    expect(estimatePossible(turns[2], 2, 300, null)).toBeNaN();
    expect(estimatePossible(turns[0], 0, 300, 0.25)).toBe(0);
  });

  it("streams sessions one at a time and counts what is not a session", async () => {
    const file = path.join(dir, "inputs-small.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        data: [{ session_id: "s1", payloads: [{ messages: [] }] }, { nope: 1 }, { payloads: [] }],
      }),
    );
    const seen: string[] = [];
    const read = await readInputsSessions(fs.createReadStream(file, { highWaterMark: 7 }), (s) =>
      seen.push(s.sessionId),
    );
    expect(read).toEqual({ sessions: 2, skipped: 1 });
    expect(seen).toEqual(["s1", "#2"]);
  });

  for (const shape of ["delta", "history"] as const)
    for (const inputsFirst of [false, true])
      it(`gives the generator's possible reuse per turn (${shape} payloads, inputs.json ${inputsFirst ? "before" : "after"} the records)`, async () => {
        const gen = generateMultiTurnRun(path.join(dir, `inputs-${shape}-${inputsFirst}`), {
          conversations: 30,
          maxTurns: 6,
          inputs: shape,
          errorEvery: 13,
        });
        const { aiperf } = await ingest(gen, inputsFirst);
        const p = turnsPayloadSchema.parse(aiperf.result.charts![AIPERF_CHARTS.turns.key]);
        expect(p.possibleSource).toBe("inputs");
        for (const row of p.rows) {
          const mine = gen.requests.filter((r) => ok(r) && r.turn === row.turn);
          const expected = total(mine.map((r) => Math.min(r.inputsPossible!, r.prompt)));
          expect(row.reuse!.possibleTokens).toBeCloseTo(expected, 6);
        }
        if (shape === "history") {
          // The history payloads share the previous prompt, not the answer: less than the records say.
          const fromRecords = total(gen.requests.filter(ok).map((r) => r.history));
          expect(total(p.rows.map((r) => r.reuse!.possibleTokens))).toBeLessThan(fromRecords);
        }
      });
});

describe("the reuse stacks of compared runs", () => {
  const served: ServedIntervals = {
    startNs: [BASE_NS],
    durationNs: [1e9],
    prompt: [1000],
    gpu: [200],
    external: [300],
    sources: ["vllm prompt_tokens_by_source"],
  };

  it("stacks a run with counters by tier and one with usage only from its turns, with deltas in points", async () => {
    // Run A: 1000 prompt, 200 GPU, 300 CPU tier, ceiling 800 → 300 recomputed, 200 new.
    const a = compareReuseRow("a", reuseIntervals(served, requests([[0.5, 1000, 800]])), null)!;
    expect(a).toMatchObject({
      source: "intervals",
      gpuPct: 20,
      externalPct: 30,
      recomputedPct: 30,
      newPct: 20,
    });
    expect(a.possiblePct).toBe(80);
    expect(a.achievedPct).toBeCloseTo(62.5, 12);
    // Run B: the generator's run without server metrics, stacked from its turns.
    const gen = generateMultiTurnRun(path.join(dir, "compare-b"), { conversations: 12, maxTurns: 5 });
    const { aiperf } = await ingest(gen);
    const turns = turnsPayloadSchema.parse(aiperf.result.charts![AIPERF_CHARTS.turns.key]);
    const b = compareReuseRow("b", null, turns)!;
    const done = gen.requests.filter(ok);
    const prompt = total(done.map((r) => r.prompt));
    expect(b.source).toBe("turns");
    expect(b.externalPct).toBeNull();
    expect(b.gpuPct).toBeCloseTo((100 * total(done.map((r) => Math.min(r.cached!, r.prompt)))) / prompt, 9);
    expect(b.gpuPct + b.recomputedPct + b.newPct).toBeCloseTo(100, 9);
    const d = compareReuseDeltas([a, b], "a");
    expect(d.a).toEqual({ gpuPct: null, externalPct: null, recomputedPct: null, achievedPct: null });
    expect(d.b.gpuPct).toBeCloseTo(b.gpuPct - 20, 9);
    // No external tier on one side: no delta, never a difference against 0.
    expect(d.b.externalPct).toBeNull();
    // The served share of the possible reuse, per turn, with its change in points.
    const rows = compareTurnRows(
      [
        { id: "b", payload: turns },
        { id: "b2", payload: turns },
      ],
      "achievedPct",
      "b",
    );
    const t1 = turns.rows[1].reuse!;
    expect(rows[1].values.b).toBeCloseTo(
      (100 * (t1.possibleTokens - t1.recomputedReusableTokens)) / t1.possibleTokens,
      9,
    );
    expect(rows[1].deltas.b2).toBe(0);
    expect(rows[0].values.b).toBeNull();
  });
});
