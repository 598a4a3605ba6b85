/**
 * SGLang `python -m sglang.bench_serving --output-file F.jsonl --output-details` lines that other
 * people committed, read in place (../shared/fixtures/real-public/, PROVENANCE.md), uploaded
 * through the real route one result at a time and read back through the public API. Expected
 * figures are SGLang's own: the JSONL line and its per-request arrays parsed here, and the
 * console block it printed for the same run (2 dp). The 2024 line (no mean TTFT, no request
 * throughput) is generated as python/sglang/bench_serving.py of v0.2/v0.3 wrote it
 * (test/generators/sglang-bench.ts `sglangLine2024`).
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getSweep } from "@/app/api/sweeps/[id]/route";
import { uploadResponseSchema } from "@/lib/api/schemas";
import { sweepSchema } from "@/lib/api/sweeps";
import { requestWords } from "@/lib/metrics/request-words";
import { latencyTables } from "@/lib/runs/report/run-sections";
import { requestTiles } from "@/components/run-views/overview-request-tiles";
import { sglangLine, sglangLine2024 } from "../generators/sglang-bench";
import { describeRealPublic, realPublicFile, realPublicParts } from "../helpers/real-public";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";
import { readRun } from "../helpers/read-api";

freshAppEachTest();

type Json = Record<string, unknown>;
const n = (v: unknown) => v as number;
const round2 = (v: number | null | undefined) => (v == null ? null : Math.round(v * 100) / 100);

/** SGLang writes `Infinity` for an unbounded rate: JSON.parse needs it quoted. */
const parseLine = (line: string) => JSON.parse(line.replace(/:\s*Infinity\b/g, ': "Infinity"')) as Json;

function consoleBlock(path: string): Map<string, number> {
  const text = fs.readFileSync(path, "utf8");
  const out = new Map<string, number>();
  for (const line of text.slice(text.lastIndexOf("Serving Benchmark Result")).split(/\r?\n/)) {
    const m = /^([A-Za-z0-9 ().\/-]+):\s+(-?[\d.]+)\s*$/.exec(line.trim());
    if (m) out.set(m[1].trim(), Number(m[2]));
  }
  return out;
}

const FOLDER = "sglang-0.5.9-bench-serving-output-details";
describeRealPublic(FOLDER, () => {
  const files = realPublicParts(FOLDER).filter((p) => p.name.endsWith(".jsonl"));

  for (const part of files)
    it(`${part.name}: SGLang's totals, server_info (model, engine version, GPUs) and tok/s per user from the rows`, async () => {
      const lines = fs
        .readFileSync(part.path, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "");
      expect(lines).toHaveLength(1);
      const j = parseLine(lines[0]);
      const c = consoleBlock(realPublicFile(FOLDER, part.name.replace(/\.jsonl$/, ".txt")));
      const server = j.server_info as Json;
      const res = await upload(uploadRequest([part]));
      expect(res.status).toBe(201);
      const run = await readRun(uploadResponseSchema.parse(await res.json()).id);
      const r = run.requests!;
      expect(r.count - r.errorCount).toBe(j.completed);
      expect(r.count - r.errorCount).toBe(c.get("Successful requests"));
      expect(r.ttftMs!.mean).toBeCloseTo(n(j.mean_ttft_ms), 9);
      expect(r.ttftMs!.p99).toBeCloseTo(n(j.p99_ttft_ms), 9);
      expect(round2(r.ttftMs!.mean)).toBe(c.get("Mean TTFT (ms)"));
      expect(r.durationS).toBe(j.duration);
      expect(r.requestThroughputPerS).toBeCloseTo(n(j.request_throughput), 9);
      expect(r.outputTokenThroughputPerS).toBeCloseTo(n(j.output_throughput), 9);
      // N4: SGLang's own totals.
      expect(run.info.totalTokenThroughputPerS).toBe(j.total_throughput);
      expect(round2(n(run.info.totalTokenThroughputPerS))).toBe(c.get("Total token throughput (tok/s)"));
      expect(run.info.totalInputTokens).toBe(j.total_input_tokens);
      expect(run.info.inputTokenThroughputPerS).toBe(j.input_throughput);
      expect(run.info.sglangPooledItlMeanMs).toBe(j.mean_itl_ms);
      // server_info: the model path, the engine's version and its GPUs (tp × dp, with the source).
      expect(run.facts.model!.value).toBe(server.model_path);
      expect(run.facts.backendVersion).toMatchObject({
        value: server.version,
        source: "SGLang server_info.version",
      });
      const gpus = n(server.tp_size) * n(server.dp_size) * n(server.pp_size);
      expect(server.enable_dp_attention).toBe(false);
      expect(run.facts.gpuCount).toMatchObject({ value: gpus });
      expect(run.facts.gpuCount!.source).toMatch(/SGLang server_info \(tp_size \d+ × dp_size \d+\)/);
      expect(run.derived.gpuCount).toBe(gpus);
      // Per GPU from SGLang's own total throughput.
      expect(run.derived.totalTokPerSPerGpu.value).toBeCloseTo(n(j.total_throughput) / gpus, 9);
      expect(run.derived.outputTokPerSPerGpu.value).toBeCloseTo(n(j.output_throughput) / gpus, 9);
      // tok/s per user: the mean over successful requests of 1000 ÷ the request's TPOT
      // (Σ its ITLs ÷ (output tokens − 1)), from SGLang's own per-request arrays.
      const perUser: number[] = [];
      const itls = j.itls as number[][];
      const outs = j.output_lens as number[];
      const errors = j.errors as string[];
      for (let i = 0; i < outs.length; i++)
        if (!errors[i] && outs[i] > 1)
          perUser.push(1000 / ((itls[i].reduce((a, b) => a + b, 0) * 1000) / (outs[i] - 1)));
      const mean = perUser.reduce((a, b) => a + b, 0) / perUser.length;
      expect(run.derived.tokPerUser.mean.value).toBeCloseTo(mean, 9);
      expect(run.derived.note).toMatch(/1000 ÷ each successful request's TPOT/);
      expect(run.derived.source).toBe("SGLang bench_serving per-request arrays");
      // M4: SGLang's TPOT row is named TPOT; SGLang's pooled ITL stays ITL, apart. Our TPOT ends
      // at the last token, SGLang's at the last chunk: a little lower, and the run says so.
      expect(requestWords(run).itl.short).toBe("TPOT");
      expect(requestWords(run).timings).toBe(
        "client-side timings from SGLang bench_serving's per-request arrays",
      );
      const table = latencyTables(run)[0];
      expect(table.kind === "table" && table.table.rows.map((row) => row[0])).toContain(
        "TPOT (time per output token)",
      );
      expect(r.itlMs!.mean).toBeLessThanOrEqual(n(j.mean_tpot_ms));
      expect((n(j.mean_tpot_ms) - r.itlMs!.mean) / n(j.mean_tpot_ms)).toBeLessThan(1e-3);
      expect(run.warnings.join("\n")).toMatch(/TTFT \+ the sum of the request's ITLs \(its last token\)/);
    });

  it("the 2024 line (medians, mean E2E, output throughput, completed, duration) is read, not refused", async () => {
    const line = sglangLine2024({ requests: 40, requestRate: 4 });
    expect(line.mean_ttft_ms).toBeUndefined();
    expect(line.request_throughput).toBeUndefined();
    const res = await upload(
      uploadRequest([{ name: "sglang_2024.jsonl", content: JSON.stringify(line) + "\n" }]),
    );
    expect(res.status).toBe(201);
    const run = await readRun(uploadResponseSchema.parse(await res.json()).id);
    const r = run.requests!;
    expect(r.source).toBe("tool-summary");
    expect(r.count).toBe(line.completed);
    expect(r.durationS).toBe(line.duration);
    expect(r.outputTokenThroughputPerS).toBe(line.output_throughput);
    // SGLang's own definition of request throughput: completed ÷ duration.
    expect(r.requestThroughputPerS).toBeCloseTo(n(line.completed) / n(line.duration), 12);
    expect(run.warnings.join("\n")).toMatch(/2024 schema/);
    expect(run.info.sglangMedianTtftMs).toBe(line.median_ttft_ms);
    expect(run.info.sglangMeanE2eLatencyMs).toBe(line.mean_e2e_latency_ms);
    expect(run.info.sglangPooledItlMedianMs).toBe(line.median_itl_ms);
    expect(run.info.benchmarkTool).toBe("SGLang bench_serving");
  });

  it("a file of 2024 lines is a sweep whose points hold SGLang's medians", async () => {
    const lines = [1, 2, 4].map((rate, i) =>
      sglangLine2024({ requests: 30, requestRate: rate, seed: 20 + i }),
    );
    const res = await upload(
      uploadRequest([
        { name: "sglang_2024_sweep.jsonl", content: lines.map((l) => JSON.stringify(l)).join("\n") + "\n" },
      ]),
    );
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.sweep).toBeDefined();
    const sres = await getSweep(
      new Request(`http://localhost/api/sweeps/${body.sweep!.id}`),
      idParams(body.sweep!.id),
    );
    const sweep = sweepSchema.parse(await sres.json());
    expect(sweep.runs).toHaveLength(3);
    for (const [i, point] of sweep.runs.entries()) {
      expect(point.source).toBe("summary");
      expect(point.points.p50.ttftMs).toBe(lines[i].median_ttft_ms);
      expect(point.points.mean.e2eMs).toBe(lines[i].mean_e2e_latency_ms);
      expect(point.points.p50.e2eMs).toBe(lines[i].median_e2e_latency_ms);
      expect(point.points.mean.outputTokPerS).toBe(lines[i].output_throughput);
      expect(point.points.mean.ttftMs).toBeNull();
      expect(point.points.mean.missing.ttftMs).toBe("SGLang bench_serving's result has no mean of TTFT");
    }
  });
});

/**
 * No shared SGLang file has a run in which nothing completed. SGLang adapted vLLM's
 * calculate_metrics (python/sglang/bench_serving.py: np.mean(ttfts or 0) …), so such a line holds
 * 0.0 for every latency statistic, and without --output-details no failed count at all.
 */
describe("an SGLang line with no completed request", () => {
  it("shows no latency and says no successful request, never '0 requests, 0 errors'", async () => {
    const line = sglangLine({ requests: 10, errorEvery: 1 });
    expect(line.completed).toBe(0);
    expect(line.mean_ttft_ms).toBe(0);
    const res = await upload(
      uploadRequest([{ name: "sglang-failed.jsonl", content: JSON.stringify(line) + "\n" }]),
    );
    expect(res.status).toBe(201);
    const run = await readRun(uploadResponseSchema.parse(await res.json()).id);
    expect(run.requests!.ttftMs).toBeNull();
    expect(run.requests!.e2eMs).toBeNull();
    expect(run.requests!.itlMs).toBeNull();
    expect(run.info.sglangPooledItlMeanMs).toBeUndefined();
    expect(run.warnings.join("\n")).toMatch(/no successful request: SGLang's 0\.0 latencies/);
    const tiles = requestTiles(run);
    expect(tiles[0].hint).toMatch(
      /^no successful request · SGLang bench_serving does not count its failed requests here/,
    );
    expect(run.derived.tokPerUser.p50.reason).toBe("no successful request");
  });
});
