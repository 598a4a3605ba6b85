/**
 * `vllm bench serve --save-result` files that other people committed, read in place
 * (../shared/fixtures/real-public/, PROVENANCE.md in each folder), uploaded through the real
 * route one result at a time (or the v0.1x folder, a sweep) and read back through the public API.
 * Every expected figure is vLLM's own: the result JSON parsed here, or the console block vLLM
 * printed for the same run (2 dp). Cases no shared file has are generated the way
 * vllm/benchmarks/serve.py writes them (test/generators/vllm-bench.ts): `calculate_metrics`
 * writes np.mean(ttfts or 0) etc., i.e. 0.0 for every statistic when no request completed, and
 * benchmarks/benchmark_serving.py (the older script) writes no `failed`.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { uploadResponseSchema, type RunSummary } from "@/lib/api/schemas";
import { requestWords } from "@/lib/metrics/request-words";
import { latencyTables } from "@/lib/runs/report/run-sections";
import { requestTiles } from "@/components/run-views/overview-request-tiles";
import { formatNumber } from "@/lib/format-number";
import { npMean, npMedian, npPercentile } from "../generators/bench-numpy";
import { sglangLine } from "../generators/sglang-bench";
import { vllmBenchResult, vllmMultiTurnResult } from "../generators/vllm-bench";
import { describeRealPublic, realPublicFile, realPublicJson, realPublicParts } from "../helpers/real-public";
import { freshAppEachTest, uploadRequest } from "../helpers/test-app";
import { readRun, readSweep } from "../helpers/read-api";

freshAppEachTest();

type Json = Record<string, unknown>;
const n = (v: unknown) => v as number;

/** Uploads the named files of a folder (one result) and returns the run. */
async function uploadFiles(folder: string, names: string[]): Promise<RunSummary> {
  const parts = realPublicParts(folder).filter((p) => names.includes(p.name));
  expect(parts).toHaveLength(names.length);
  const res = await upload(uploadRequest(parts));
  expect(res.status).toBe(201);
  const body = uploadResponseSchema.parse(await res.json());
  return readRun(body.id);
}

async function uploadText(name: string, content: string): Promise<RunSummary> {
  const res = await upload(uploadRequest([{ name, content }]));
  expect(res.status).toBe(201);
  return readRun(uploadResponseSchema.parse(await res.json()).id);
}

/** vLLM's printed "Serving Benchmark Result" block: label → number. */
function consoleBlock(path: string): Map<string, number> {
  const text = fs.readFileSync(path, "utf8");
  const start = text.lastIndexOf("Serving Benchmark Result");
  const out = new Map<string, number>();
  for (const line of text.slice(start).split(/\r?\n/)) {
    const m = /^([A-Za-z0-9 ().\/-]+):\s+(-?[\d.]+)\s*$/.exec(line.trim());
    if (m) out.set(m[1].trim(), Number(m[2]));
  }
  return out;
}

const round2 = (v: number | null | undefined) => (v == null ? null : Math.round(v * 100) / 100);

/** Every place a latency could show: the requests block's three statistics. */
function expectNoLatency(run: RunSummary) {
  expect(run.requests!.ttftMs).toBeNull();
  expect(run.requests!.e2eMs).toBeNull();
  expect(run.requests!.itlMs).toBeNull();
}

const GLM = "vllm-bench-serve-glm4.7-fp8-b200-with-console";
describeRealPublic(GLM, () => {
  const ok = "run_1_TP8_DP1_CTX1024_C100_P100_O128";
  const failed = "run_1_TP4_DP2_CTX2048_C100_P100_O128";

  it("TP8: vLLM's JSON exactly and its console to 2 dp; TPOT in the TPOT row, vLLM's ITL apart", async () => {
    const j = realPublicJson<Json>(GLM, `${ok}.json`);
    const c = consoleBlock(realPublicFile(GLM, `${ok}.txt`));
    const run = await uploadFiles(GLM, [`${ok}.json`]);
    const r = run.requests!;
    expect(r.source).toBe("tool-summary");
    expect(r.count - r.errorCount).toBe(j.completed);
    expect(r.errorCount).toBe(j.failed);
    expect(r.count - r.errorCount).toBe(c.get("Successful requests"));
    expect(r.errorCount).toBe(c.get("Failed requests"));
    for (const [block, key, label] of [
      [r.ttftMs, "ttft", "TTFT"],
      [r.itlMs, "tpot", "TPOT"],
      [r.e2eMs, "e2el", "E2EL"],
    ] as const) {
      expect(block!.mean).toBe(j[`mean_${key}_ms`]);
      expect(block!.p50).toBe(j[`median_${key}_ms`]);
      expect(block!.p99).toBe(j[`p99_${key}_ms`]);
      expect(round2(block!.mean)).toBe(c.get(`Mean ${label} (ms)`));
      expect(round2(block!.p50)).toBe(c.get(`Median ${label} (ms)`));
      expect(round2(block!.p99)).toBe(c.get(`P99 ${label} (ms)`));
    }
    // vLLM's ITL pools every gap: another statistic, kept under its own name.
    expect(run.info.vllmPooledItlMeanMs).toBe(j.mean_itl_ms);
    expect(run.info.vllmPooledItlMedianMs).toBe(j.median_itl_ms);
    expect(round2(n(run.info.vllmPooledItlMedianMs))).toBe(c.get("Median ITL (ms)"));
    expect(r.requestThroughputPerS).toBe(j.request_throughput);
    expect(r.outputTokenThroughputPerS).toBe(j.output_throughput);
    expect(round2(r.outputTokenThroughputPerS)).toBe(c.get("Output token throughput (tok/s)"));
    expect(r.durationS).toBe(j.duration);
    // N4: the totals vLLM wrote.
    expect(run.info.totalInputTokens).toBe(j.total_input_tokens);
    expect(run.info.totalInputTokens).toBe(c.get("Total input tokens"));
    expect(run.info.totalTokenThroughputPerS).toBe(j.total_token_throughput);
    expect(round2(n(run.info.totalTokenThroughputPerS))).toBe(c.get("Total token throughput (tok/s)"));
    expect(run.derived.source).toBe("vLLM bench serve result");
    expect(run.derived.totalTokPerSPerGpu.reason).not.toMatch(/not measured/);
    expect(run.warnings.join("\n")).not.toMatch(/no successful request/);
    // M4: in vLLM's words, not aiperf's; the row holding vLLM's TPOT is named TPOT.
    const words = requestWords(run);
    expect(words.itl.short).toBe("TPOT");
    expect(words.successful).toBe("successful (vLLM bench serve's completed)");
    expect(words.timings).toBe("vLLM bench serve's own run-level figures (no per-request arrays uploaded)");
    const tiles = requestTiles(run);
    expect(JSON.stringify(tiles)).not.toMatch(/aiperf/);
    // The rate tile carries its unit, as the per-GPU tiles beside it do, to 2 dp as vLLM's console
    // and every other place the figure is written (the Latency header, the sweep table, Compare).
    expect(tiles.find((t) => t.testId === "tile-output-throughput")?.value).toBe(
      `${formatNumber(j.output_throughput as number, 2)} tok/s`,
    );
    expect(tiles.find((t) => t.testId === "tile-output-throughput")?.value).toBe(
      `${formatNumber(c.get("Output token throughput (tok/s)") as number, 2)} tok/s`,
    );
    const table = latencyTables(run)[0];
    expect(table.kind === "table" && table.table.rows.map((row) => row[0])).toContain(
      "TPOT (time per output token)",
    );
  });

  it("TP4, all 100 failed: no latency at all, 'no successful request' and vLLM's failed count", async () => {
    const j = realPublicJson<Json>(GLM, `${failed}.json`);
    const c = consoleBlock(realPublicFile(GLM, `${failed}.txt`));
    expect(j.completed).toBe(0);
    expect(c.get("Successful requests")).toBe(0);
    const run = await uploadFiles(GLM, [`${failed}.json`]);
    const r = run.requests!;
    expect(r.count - r.errorCount).toBe(0);
    expect(r.errorCount).toBe(j.failed);
    expect(r.errorCount).toBe(c.get("Failed requests"));
    expectNoLatency(run);
    // The 0.0 placeholders appear nowhere as values.
    for (const k of [
      "vllmPooledItlMeanMs",
      "vllmPooledItlMedianMs",
      "vllmPooledItlP99Ms",
      "peakOutputTokensPerS",
    ])
      expect(run.info[k]).toBeUndefined();
    expect(run.warnings.join("\n")).toMatch(
      new RegExp(`no successful request: all ${n(j.failed)} requests failed`),
    );
    // Nothing per request was measured: the reason says so, not "needs streamed responses".
    for (const s of ["mean", "p50", "p90", "p99"] as const) {
      expect(run.derived.tokPerUser[s].value).toBeNull();
      expect(run.derived.tokPerUser[s].reason).toBe("no successful request");
    }
    // Never "0 requests, 0 errors" and never 0 ms on the Overview.
    const tiles = requestTiles(run);
    expect(tiles[0]).toMatchObject({
      value: "100",
      hint: expect.stringMatching(/^no successful request · 100 errors/),
    });
    expect(tiles.find((t) => t.label.startsWith("TTFT"))!.value).not.toMatch(/\d ms/);
  });

  it("the older schema (no `failed`): every prompt that did not complete failed", async () => {
    // benchmarks/benchmark_serving.py: no `failed`, and 0.0 for every statistic when none completed.
    const legacy = vllmBenchResult({ requests: 30, errorEvery: 1, legacy: true });
    expect(legacy.failed).toBeUndefined();
    expect(legacy.completed).toBe(0);
    expect(legacy.mean_ttft_ms).toBe(0);
    const run = await uploadText("legacy-failed.json", JSON.stringify(legacy));
    const r = run.requests!;
    expect(r.count).toBe(legacy.num_prompts);
    expect(r.errorCount).toBe(n(legacy.num_prompts) - n(legacy.completed));
    expectNoLatency(run);
    expect(run.warnings.join("\n")).toMatch(/no successful request: all 30 requests failed/);
    expect(run.warnings.join("\n")).toMatch(/no failed count \(older schema\): 30 failed/);
  });

  it("a statistic nobody measured (all 0.0 beside completed requests) is not shown as 0 ms", async () => {
    // A non-streamed endpoint gives no TTFT: vLLM writes np.mean([] or 0) = 0.0 for it.
    const res = vllmBenchResult({ requests: 20 });
    for (const k of ["mean", "median", "std", "p99"]) res[`${k}_ttft_ms`] = 0;
    const run = await uploadText("no-ttft.json", JSON.stringify(res));
    expect(run.requests!.ttftMs).toBeNull();
    expect(run.requests!.itlMs!.mean).toBe(res.mean_tpot_ms);
    expect(run.warnings.join("\n")).toMatch(/0\.0 for every TTFT statistic/);
  });
});

const LENS = "vllm-bench-serve-qwen3.5-397b-lens";
describeRealPublic(LENS, () => {
  for (const file of [
    "atom_mtp_tp4_conc64_isl8192_osl1024.json",
    "atom_mtp_profile_tp4_conc64_isl8192_osl1024.json",
  ])
    it(`${file}: totals, total token throughput and ISL/OSL from vLLM's input_lens/output_lens`, async () => {
      const j = realPublicJson<Json>(LENS, file);
      const input = j.input_lens as number[];
      const output = j.output_lens as number[];
      const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
      // vLLM's own totals are the lengths' sums (every request completed).
      expect(input.reduce((a, b) => a + b, 0)).toBe(j.total_input_tokens);
      expect(output.reduce((a, b) => a + b, 0)).toBe(j.total_output_tokens);
      const run = await uploadFiles(LENS, [file]);
      const r = run.requests!;
      expect(r.count).toBe(j.completed);
      expect(r.errorCount).toBe(n(j.num_prompts) - n(j.completed));
      expect(r.inputTokens!.count).toBe(input.length);
      expect(r.inputTokens!.mean).toBeCloseTo(mean(input), 9);
      expect(r.outputTokens!.mean).toBeCloseTo(mean(output), 9);
      expect(r.inputTokens!.max).toBe(Math.max(...input));
      expect(r.outputTokens!.min).toBe(Math.min(...output));
      expect(run.facts.isl!.value).toBeCloseTo(mean(input), 9);
      expect(run.facts.osl!.value).toBeCloseTo(mean(output), 9);
      expect(run.facts.isl!.source).toMatch(/vLLM bench serve's per-request lengths/);
      expect(run.info.totalInputTokens).toBe(j.total_input_tokens);
      expect(run.info.totalTokenThroughputPerS).toBe(j.total_token_throughput);
      expect(r.outputTokensTotal).toBe(j.total_output_tokens);
      // The p90 vLLM wrote (--metric-percentiles 90,99,99.9) is kept.
      expect(r.ttftMs!.p90).toBe(j.p90_ttft_ms);
      expect(r.itlMs!.p90).toBe(j.p90_tpot_ms);
      expect(r.e2eMs!.p99).toBe(j.p99_e2el_ms);
      expect(run.derived.source).toBe("vLLM bench serve result");
      // Set the GPU count: total tok/s/GPU is vLLM's total token throughput over it.
      expect(run.derived.totalTokPerSPerGpu.reason).toMatch(/GPU count unknown/);
    });
});

const V01 = "vllm-bench-serve-v0.1x-qwen2.5-0.5b-summary";
describeRealPublic(V01, () => {
  const files = realPublicParts(V01).map((p) => p.name);

  for (const file of files)
    it(`${file} alone: vLLM's counts and figures, or no latency when none completed`, async () => {
      const j = realPublicJson<Json>(V01, file);
      const run = await uploadFiles(V01, [file]);
      const r = run.requests!;
      expect(r.count - r.errorCount).toBe(j.completed);
      expect(r.errorCount).toBe(j.failed);
      if (j.completed === 0) {
        expectNoLatency(run);
        expect(run.warnings.join("\n")).toMatch(/no successful request/);
        return;
      }
      expect(r.ttftMs!.mean).toBe(j.mean_ttft_ms);
      expect(r.ttftMs!.p50).toBe(j.median_ttft_ms);
      expect(r.ttftMs!.p99).toBe(j.p99_ttft_ms);
      expect(r.itlMs!.mean).toBe(j.mean_tpot_ms);
      expect(r.requestThroughputPerS).toBe(j.request_throughput);
      expect(run.info.totalTokenThroughputPerS).toBe(j.total_token_throughput);
      expect(run.info.vllmPooledItlMeanMs).toBe(j.mean_itl_ms);
    });

  it("the folder is a sweep with every point filled from vLLM's own numbers", async () => {
    const res = await upload(uploadRequest(realPublicParts(V01), { name: "v0.1x" }));
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.sweep).toBeDefined();
    const sweep = await readSweep(body.sweep!.id);
    expect(sweep.runs).toHaveLength(files.length);
    const byDate = new Map(
      files.map((f) => [realPublicJson<Json>(V01, f).date as string, realPublicJson<Json>(V01, f)]),
    );
    let filled = 0;
    for (const point of sweep.runs) {
      expect(point.source).toBe("summary");
      expect(point.sourceNote).toMatch(/vLLM bench serve's own figures/);
      const run = await readRun(point.id);
      // Match the point to its file by vLLM's own completed/failed and duration.
      const j = [...byDate.values()].find((x) => x.duration === run.requests!.durationS)!;
      expect(j).toBeDefined();
      const { mean, p50, p90, p99 } = point.points;
      if (j.completed === 0) {
        for (const p of [mean, p50, p90, p99]) {
          expect(p.ttftMs).toBeNull();
          expect(p.tpotMs).toBeNull();
          expect(p.e2eMs).toBeNull();
          expect(p.missing.ttftMs).toMatch(/no successful request/);
          expect(p.missing.tokPerSPerUser).toBe("no successful request");
        }
        continue;
      }
      filled++;
      expect(mean.ttftMs).toBe(j.mean_ttft_ms);
      expect(p50.ttftMs).toBe(j.median_ttft_ms);
      expect(p99.ttftMs).toBe(j.p99_ttft_ms);
      expect(mean.tpotMs).toBe(j.mean_tpot_ms);
      expect(p50.tpotMs).toBe(j.median_tpot_ms);
      expect(p99.tpotMs).toBe(j.p99_tpot_ms);
      for (const p of [mean, p50, p90, p99]) {
        expect(p.outputTokPerS).toBe(j.output_throughput);
        expect(p.totalTokPerS).toBe(j.total_token_throughput);
        expect(p.requestsPerS).toBe(j.request_throughput);
      }
      // tok/s per user at the median is 1000 ÷ vLLM's median TPOT (the median carries over).
      expect(p50.tokPerSPerUser).toBeCloseTo(1000 / n(j.median_tpot_ms), 9);
      // What vLLM did not write is named as vLLM's, never "not in this run's files".
      expect(j.p90_ttft_ms).toBeUndefined();
      expect(p90.ttftMs).toBeNull();
      expect(p90.missing.ttftMs).toBe("vLLM bench serve's result has no p90 of TTFT");
      expect(j.mean_e2el_ms).toBeUndefined();
      expect(mean.missing.e2eMs).toBe("vLLM bench serve's result has no end-to-end latency");
      for (const p of [mean, p50, p90, p99])
        for (const reason of Object.values(p.missing)) expect(reason).not.toMatch(/in this run's files/);
    }
    expect(filled).toBe(files.filter((f) => realPublicJson<Json>(V01, f).completed !== 0).length);
  });
});

/**
 * Shapes no shared file has, generated from vLLM's sources: the Rust `vllm-bench`
 * (rust/src/bench/src/output/json.rs: the multi-turn result with `per_turn_metrics[]` and
 * `failed_requests[]`, `append_result` lines joined by a newline) and vllm/benchmarks/serve.py
 * `--save-detailed` with every request failed.
 */
describe("vLLM bench results no shared file holds", () => {
  it("the multi-turn result: its counts and figures, each turn's, and the failed requests' reasons", async () => {
    const res = vllmMultiTurnResult({ conversations: 6, turns: 3, errorEvery: 7 });
    const turns = res.per_turn_metrics as Json[];
    const run = await uploadText("multi-turn.json", JSON.stringify(res));
    const r = run.requests!;
    expect(r.count - r.errorCount).toBe(res.completed);
    expect(r.errorCount).toBe(res.failed);
    expect(r.ttftMs!.mean).toBe(res.mean_ttft_ms);
    expect(r.itlMs!.mean).toBe(res.mean_tpot_ms);
    expect(run.info.turnsPerConversation).toBe(3);
    expect(run.info.conversationsFailed).toBe(res.conversations_failed);
    for (const t of turns) {
      expect(run.info[`turn${n(t.turn_index)}Completed`]).toBe(t.completed);
      expect(run.info[`turn${n(t.turn_index)}Failed`]).toBe(t.failed);
      expect(run.info[`turn${n(t.turn_index)}MeanTtftMs`]).toBe(t.mean_ttft_ms);
    }
    expect(run.warnings.join("\n")).toContain(
      `vLLM's failed_requests: ${n(res.failed)} × Internal Server Error`,
    );
  });

  it("Rust --append-result lines (no trailing newline) are a sweep of vLLM's own figures", async () => {
    const lines = [2, 8].map((c, i) => vllmBenchResult({ concurrency: c, seed: 30 + i, requests: 24 }));
    const res = await upload(
      uploadRequest([{ name: "appended.jsonl", content: lines.map((l) => JSON.stringify(l)).join("\n") }]),
    );
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    const sweep = await readSweep(body.sweep!.id);
    expect(sweep.runs.map((x) => x.concurrency)).toEqual([2, 8]);
    for (const [i, point] of sweep.runs.entries()) {
      expect(point.source).toBe("summary");
      expect(point.points.mean.ttftMs).toBe(lines[i].mean_ttft_ms);
      expect(point.points.p99.tpotMs).toBe(lines[i].p99_tpot_ms);
      expect(point.points.mean.totalTokPerS).toBe(lines[i].total_token_throughput);
    }
  });

  it("without --save-detailed and E2EL: end-to-end latency from vLLM's kept per-request latencies", async () => {
    // serve.py keeps `latencies` (0.0 for a failed request) when it deletes the detailed arrays.
    const res = vllmBenchResult({ requests: 30, errorEvery: 6 });
    expect(res.ttfts).toBeUndefined();
    expect(res.mean_e2el_ms).toBeUndefined();
    const ok = (res.latencies as number[]).filter((v) => v > 0);
    expect(ok.length).toBe(res.completed);
    const run = await uploadText("latencies.json", JSON.stringify(res));
    const e2e = run.requests!.e2eMs!;
    expect(e2e.count).toBe(ok.length);
    expect(e2e.mean).toBeCloseTo(npMean(ok) * 1000, 9);
    expect(e2e.p50).toBeCloseTo(npMedian(ok) * 1000, 9);
    expect(e2e.p99).toBeCloseTo(npPercentile(ok, 99) * 1000, 9);
    expect(run.warnings.join("\n")).toMatch(
      /no E2EL statistics: end-to-end latency is taken from its per-request latencies/,
    );
    const res2 = await upload(
      uploadRequest([
        {
          name: "two.jsonl",
          content: [res, vllmBenchResult({ requests: 30, concurrency: 8, seed: 9 })]
            .map((x) => JSON.stringify(x))
            .join("\n"),
        },
      ]),
    );
    const body = uploadResponseSchema.parse(await res2.json());
    const sweep = await readSweep(body.sweep!.id);
    expect(sweep.runs[0].points.p90.e2eMs).toBeCloseTo(npPercentile(ok, 90) * 1000, 9);
  });

  it("--save-detailed with every request failed: no latency from the rows either", async () => {
    const res = vllmBenchResult({ requests: 12, errorEvery: 1, detailed: true });
    expect(res.completed).toBe(0);
    const run = await uploadText("detailed-failed.json", JSON.stringify(res));
    expect(run.requests!.count).toBe(12);
    expect(run.requests!.errorCount).toBe(12);
    expectNoLatency(run);
    expect(run.info.vllmPooledItlMeanMs).toBeUndefined();
    expect(run.warnings.join("\n")).toMatch(/no successful request: all 12 requests failed/);
    expect(run.derived.tokPerUser.p50.reason).toBe("no successful request");
  });
});

/** Issue 31 N3/N15: one bad value is one warning; the run's other values stand. */
describe("an out-of-range value in a vLLM or SGLang result", () => {
  it("vLLM: 1e300 figures and a start time from another epoch are skipped and named; the rest stands", async () => {
    const res = vllmBenchResult({ requests: 20, detailed: true });
    const good = vllmBenchResult({ requests: 20, detailed: true });
    res.p99_ttft_ms = 1e300;
    res.duration = 1e300;
    (res.ttfts as number[])[3] = 1e300;
    // A Unix-epoch stamp among perf_counter seconds.
    (res.start_times as number[])[5] = 1.7e9;
    const run = await uploadText("bad-values.json", JSON.stringify(res));
    const note = run.warnings.find((w) => w.includes("out-of-range"))!;
    expect(note).toMatch(/4 out-of-range values in vLLM bench serve's result skipped/);
    for (const place of [
      "p99_ttft_ms = 1.000e+300",
      "duration = 1.000e+300",
      "ttfts[3] = 1.000e+300",
      "start_times[5] = 1.700e+9",
    ])
      expect(note).toContain(place);
    const r = run.requests!;
    // Every request is still counted; the duration is the requests' own window, never 1e300.
    expect(r.count).toBe(20);
    expect(r.durationS).not.toBeNull();
    expect(r.durationS!).toBeLessThan(1000);
    expect(r.requestThroughputPerS!).toBeGreaterThan(0);
    // The request with the bad TTFT has none; the others' TTFT are vLLM's.
    expect(r.ttftMs!.count).toBe(19);
    expect(r.e2eMs!.count).toBe(20);
    // The others' TTFT is vLLM's statistic over them (the same requests, one skipped).
    const ttfts = (good.ttfts as number[]).filter((_, i) => i !== 3).map((t) => t * 1000);
    expect(r.ttftMs!.mean).toBeCloseTo(ttfts.reduce((x, y) => x + y, 0) / ttfts.length, 9);
  });

  it("SGLang: a 1e300 TTFT in the details and in the figures is skipped and named", async () => {
    const s = sglangLine({ requests: 20, details: true });
    (s.ttfts as number[])[0] = 1e300;
    s.mean_e2e_latency_ms = 1e300;
    const run = await uploadText("sglang-bad.jsonl", JSON.stringify(s) + "\n");
    const note = run.warnings.find((w) => w.includes("out-of-range"))!;
    expect(note).toContain("ttfts[0] = 1.000e+300");
    expect(note).toContain("mean_e2e_latency_ms = 1.000e+300");
    expect(run.requests!.count).toBe(20);
    expect(run.requests!.ttftMs!.count).toBe(19);
    expect(run.requests!.durationS).toBe(s.duration);
  });
});
