/**
 * The reuse ledger through the upload (docs/metrics.md §Reuse ledger): POST /api/runs, then
 * GET /api/runs/{id}/charts/reuse-ledger.
 *
 * - Generated: a multi-turn aiperf run (test/generators/aiperf-multiturn.mjs: aiperf's record,
 *   summary with theoretical_prefix_cache_hit and inputs.json shapes; vLLM's
 *   prompt_tokens_by_source counter in aiperf's server_metrics_export.json, with a CPU tier as
 *   vLLM's offloading connector counts it, external_kv_transfer) and the Dynamo frontend's log of
 *   the same requests (test/generators/dynamo-router-log.mjs: `[ROUTING] Best` lines as
 *   ai-dynamo/dynamo's kv_router writes them), the router believing every history still cached.
 *   Every expected number is summed from the generator's requests.
 * - Real: real-public/aiperf-0.8.0-sglang-glm5.1-agentic-conc16 (aiperf 0.8.0 records of an
 *   agentic run and SGLang 0.5.12's counters in aiperf's CSV): GPU-delivered 0 of 7,887,314 prompt
 *   tokens, read from the CSV here; the responses carried no usage, so "reported" is not measured.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { REUSE_LEDGER_CHART } from "@/lib/api/chart-catalog";
import { reuseLedgerPayloadSchema, type ReuseLedgerPayload } from "@/lib/api/reuse-ledger";
import { runSummarySchema } from "@/lib/api/schemas";
import { NOT_MEASURED } from "@/lib/metrics/reuse-ledger";
import { BASE_NS, generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { routerLog } from "../generators/dynamo-router-log.mjs";
import { describeRealPublic, realPublicFile } from "../helpers/real-public";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";

freshAppEachTest();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ledger-api-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function ledgerOf(id: string): Promise<ReuseLedgerPayload> {
  const res = await getChart(
    new Request(`http://localhost/api/runs/${id}/charts/${REUSE_LEDGER_CHART.key}`),
    {
      params: Promise.resolve({ id, key: REUSE_LEDGER_CHART.key }),
    },
  );
  expect(res.status).toBe(200);
  return reuseLedgerPayloadSchema.parse(await res.json());
}

const BLOCK = 16;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("the reuse ledger of an upload of records, inputs.json, server metrics and the router log", () => {
  it("gives every step and loss from the files, as the generator's requests add up", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "full"), {
      conversations: 60,
      maxTurns: 10,
      concurrency: 6,
      seed: 7,
      evict: 0.4,
      externalHit: 0.5,
      theoretical: true,
      inputs: "delta",
      serverMetrics: { sliceS: 1 },
    });
    // The router believes each turn's history is still on the one worker: overlap = its whole blocks.
    const decisions = gen.requests.map((r) => ({
      tNs: Number(BASE_NS) + Math.round(r.startMs * 1e6),
      worker: 0,
      overlap: Math.floor(r.history / BLOCK),
      blocks: Math.ceil(r.prompt / BLOCK),
    }));
    const files = [gen.jsonlPath, gen.summaryPath, gen.inputsPath!, gen.serverMetricsPath!].map((p) => ({
      name: path.basename(p),
      path: p,
    }));
    const id = await uploadRun([...files, { name: "frontend.log", content: routerLog(decisions) }], {
      name: "ledger",
    });
    const ledger = await ledgerOf(id);
    const step = (s: string) => ledger.steps.find((x) => x.id === s)!;
    const done = gen.requests.filter((r) => !r.failed && !r.cancelled);
    const prompt = sum(done.map((r) => r.prompt));

    // Theoretical: aiperf's own block-level figure (Σ hit / Σ total blocks in the summary), and the
    // inputs.json estimate per request, mean of possible / prompt.
    const th = gen.summary.theoretical_prefix_cache_hit as { sum: number; count: number };
    expect(step("theoretical").blockWeighted).toMatchObject({ unit: "blocks" });
    expect(step("theoretical").blockWeighted.rate).toBeCloseTo(th.sum / th.count, 12);
    const meanPossible =
      sum(done.map((r) => Math.min(r.inputsPossible ?? 0, r.prompt) / r.prompt)) / done.length;
    expect(step("theoretical").requestWeighted.rate).toBeCloseTo(meanPossible, 6);
    expect(step("theoretical").requestWeighted.source).toContain("inputs.json");

    // Predicted: Σ overlap / Σ blocks of the log's decisions in the scrapes' window, [first interval
    // start, last interval end) of the counters as read (the export's complete timeslices).
    const lastSlice = ledger.intervals[ledger.intervals.length - 1];
    const from = ledger.startEpochMs! * 1e6;
    const to = from + (lastSlice.t + lastSlice.durationS!) * 1e9;
    // The log's times are read to the millisecond: the workers' first requests, 0.5 ms after the
    // first scrape, read as before it.
    const inWindow = decisions.filter((d) => Math.floor(d.tNs / 1e6) * 1e6 >= from && d.tNs < to);
    expect(inWindow.length).toBeGreaterThan(decisions.length * 0.9);
    expect(step("predicted").blockWeighted.requests).toBe(inWindow.length);
    expect(step("predicted").blockWeighted).toMatchObject({
      hit: sum(inWindow.map((d) => d.overlap)),
      of: sum(inWindow.map((d) => d.blocks)),
    });
    expect(step("predicted").blockWeighted.rate).toBeCloseTo(
      sum(inWindow.map((d) => d.overlap)) / sum(inWindow.map((d) => d.blocks)),
      12,
    );
    expect(step("predicted").requestWeighted.missing).toBe(NOT_MEASURED.predictedRequests);

    // Delivered by tier: the counters count each successful request's prompt when its first token came.
    const gpu = sum(done.map((r) => r.gpuCached!));
    const host = sum(done.map((r) => r.externalCached!));
    expect(step("delivered").blockWeighted).toMatchObject({ hit: gpu + host, of: prompt });
    expect(step("delivered").tiers!.gpu.hit).toBe(gpu);
    expect(step("delivered").tiers!.host.hit).toBe(host);
    expect(host).toBeGreaterThan(0);
    expect(step("delivered").tiers!.external.rate).toBeNull();

    // Reported: the responses' cached tokens count both tiers, as vLLM's num_cached_tokens does.
    expect(step("reported").blockWeighted.rate).toBeCloseTo(sum(done.map((r) => r.cached!)) / prompt, 12);
    expect(step("reported").requestWeighted.rate).toBeCloseTo(
      sum(done.map((r) => r.cached! / r.prompt)) / done.length,
      12,
    );

    // TTFT = 15 ms + 0.05 ms per uncached prompt token + U[0, 5) ms in the generator.
    expect(ledger.ttftMsPerToken).toBeCloseTo(0.05, 2);
    const loss = Object.fromEntries(ledger.losses.map((l) => [l.id, l]));
    // The router believed histories that were evicted: GPU delivered less than it predicted.
    expect(loss["evicted-before-reuse"].points).toBeGreaterThan(0);
    expect(loss["evicted-before-reuse"].points).toBeCloseTo(
      100 * (step("predicted").blockWeighted.rate! - gpu / prompt),
      9,
    );
    expect(loss["not-offloaded"].points).toBeCloseTo(
      100 * (step("predicted").blockWeighted.rate! - (gpu + host) / prompt),
      9,
    );
    // Engines served exactly what responses reported: nothing lost between them.
    expect(loss["not-reported"].points).toBeCloseTo(0, 9);
    expect(loss["evicted-before-reuse"].ttftMsPerRequest).toBeGreaterThan(0);
    expect(ledger.endpoints).toHaveLength(1);
    expect(ledger.endpoints[0].predictedBlocks).toBeCloseTo(step("predicted").blockWeighted.rate!, 12);
    expect(ledger.intervals.length).toBeGreaterThan(3);
    expect(sum(ledger.intervals.map((p) => p.requests))).toBe(done.length);

    const run = runSummarySchema.parse(
      await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json(),
    );
    expect(run.info.reuseLedger).toBe(true);
  });
});

describe("the reuse ledger of a run with no offload tier, whose router predicted more than the history holds", () => {
  it("says the tiers are not measured and the router's excess as a finding, no loss negative", async () => {
    // vLLM writes prompt_tokens_by_source{source="external_kv_transfer"} at 0 with no KV connector
    // (the generator likewise: externalHit 0); the router believes every prompt's blocks but the
    // last were on the worker (prefixes shared across conversations the records' history does not
    // count), so its prediction is above the theoretical step.
    const gen = generateMultiTurnRun(path.join(dir, "no-offload"), {
      conversations: 40,
      maxTurns: 8,
      concurrency: 4,
      seed: 11,
      evict: 0.3,
      serverMetrics: { sliceS: 1 },
    });
    const decisions = gen.requests.map((r) => ({
      tNs: Number(BASE_NS) + Math.round(r.startMs * 1e6),
      worker: 0,
      overlap: Math.ceil(r.prompt / BLOCK) - 1,
      blocks: Math.ceil(r.prompt / BLOCK),
    }));
    const id = await uploadRun([
      ...[gen.jsonlPath, gen.summaryPath, gen.serverMetricsPath!].map((p) => ({
        name: path.basename(p),
        path: p,
      })),
      { name: "frontend.log", content: routerLog(decisions) },
    ]);
    const ledger = await ledgerOf(id);
    const step = (s: string) => ledger.steps.find((x) => x.id === s)!;
    const done = gen.requests.filter((r) => !r.failed && !r.cancelled);
    expect(sum(done.map((r) => r.externalCached!))).toBe(0);
    const tiers = step("delivered").tiers!;
    expect(tiers.gpu.rate).toBeGreaterThan(0);
    expect(tiers.host).toMatchObject({ rate: null, hit: null, missing: NOT_MEASURED.tier.host });
    expect(tiers.external).toMatchObject({ rate: null, hit: null, missing: NOT_MEASURED.tier.external });
    expect(ledger.intervals.length).toBeGreaterThan(3);
    expect(ledger.intervals.every((i) => i.offload === null)).toBe(true);
    expect(ledger.endpoints.map((e) => [e.hostTokens, e.externalTokens])).toEqual([[null, null]]);

    const theoretical = step("theoretical").blockWeighted.rate!;
    const predicted = step("predicted").blockWeighted.rate!;
    expect(predicted).toBeGreaterThan(theoretical);
    for (const l of ledger.losses) {
      expect(l.points === null || l.points >= 0, l.id).toBe(true);
      expect(l.tokens === null || l.tokens >= 0, l.id).toBe(true);
    }
    const routed = ledger.losses.find((l) => l.id === "routed-elsewhere")!;
    expect(routed).toMatchObject({ points: null, tokens: null, missing: null });
    expect(routed.finding).toMatch(/^no loss: router-predicted \([\d.]+ %\) is above theoretical/);
    // The router believed more than the GPU served: a real loss, positive.
    const evicted = ledger.losses.find((l) => l.id === "evicted-before-reuse")!;
    expect(evicted.points).toBeCloseTo(100 * (predicted - tiers.gpu.rate!), 9);
    expect(evicted.points).toBeGreaterThan(0);
    expect(ledger.losses.find((l) => l.id === "not-offloaded")!.label).toBe(
      "not offloaded (no host or external tier)",
    );
  });
});

const SGLANG = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";

describeRealPublic(SGLANG, () => {
  it("a real SGLang agentic run: GPU-delivered 0 of the CSV's prompt tokens, reported not measured (no usage)", async () => {
    const csv = fs.readFileSync(realPublicFile(SGLANG, "server_metrics_export.csv"), "utf8");
    // The CSV's counter rows: sglang:prompt_tokens and sglang:cached_tokens{cache_source=device}, total column.
    const promptLine = csv
      .split(/\r?\n/)
      .find((l) => l.includes("sglang:prompt_tokens,") || l.includes('sglang:prompt_tokens",'));
    expect(promptLine).toBeDefined();
    const id = await uploadRun(
      ["profile_export.jsonl", "profile_export_aiperf.json", "server_metrics_export.csv"].map((n) => ({
        name: n,
        path: realPublicFile(SGLANG, n),
      })),
    );
    const ledger = await ledgerOf(id);
    const step = (s: string) => ledger.steps.find((x) => x.id === s)!;
    expect(step("delivered").blockWeighted).toMatchObject({ rate: 0, hit: 0, of: 7_887_314 });
    expect(step("delivered").tiers!.gpu).toMatchObject({ rate: 0, hit: 0 });
    expect(step("reported").blockWeighted).toMatchObject({ rate: null, missing: NOT_MEASURED.reported });
    const records = fs
      .readFileSync(realPublicFile(SGLANG, "profile_export.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map(
        (l) =>
          JSON.parse(l) as {
            metadata: { conversation_id: string; turn_index: number };
            metrics: Record<string, { value: number }>;
          },
      );
    // Block-weighted theoretical: aiperf's own Σ hit / Σ total hash blocks (summary schema 1.1).
    const summary = JSON.parse(
      fs.readFileSync(realPublicFile(SGLANG, "profile_export_aiperf.json"), "utf8"),
    ) as {
      theoretical_prefix_cache_hit: { sum: number; count: number };
    };
    const th = summary.theoretical_prefix_cache_hit;
    expect(step("theoretical").blockWeighted).toMatchObject({ unit: "blocks" });
    expect(step("theoretical").blockWeighted.rate).toBeCloseTo(th.sum / th.count, 12); // 106,969 / 116,016
    // Request-weighted: the records' possible reuse, turn k finding at most what turn k − 1 (read
    // before it; an older turn read later does not replace it) sent and got back.
    const last = new Map<string, { turn: number; isl: number; osl: number }>();
    let ratios = 0;
    let n = 0;
    for (const r of records) {
      const k = r.metadata.turn_index;
      const cur = {
        turn: k,
        isl: r.metrics.input_sequence_length.value,
        osl: r.metrics.output_sequence_length.value,
      };
      const prev = last.get(r.metadata.conversation_id);
      const p = k === 0 ? 0 : prev && prev.turn === k - 1 ? Math.min(cur.isl, prev.isl + prev.osl) : null;
      if (p !== null) {
        ratios += p / cur.isl;
        n++;
      }
      if (!prev || k >= prev.turn) last.set(r.metadata.conversation_id, cur);
    }
    expect(step("theoretical").requestWeighted.requests).toBe(n);
    expect(step("theoretical").requestWeighted.rate).toBeCloseTo(ratios / n, 12);
    expect(ledger.losses.find((l) => l.id === "not-reported")!.missing).toBe("not measured — needs reported");
  });
});
