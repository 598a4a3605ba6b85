/**
 * One uploaded file of several benchmarks becomes one run per benchmark and a sweep of them
 * (docs/formats.md §Benchmark tools). Samples are written as each producer writes them:
 * - SGLang: python/sglang/bench_serving.py appends one `--output-file` line per benchmark
 *   (test/generators/sglang-bench.ts `sglangSweep`);
 * - GuideLLM: src/guidellm/benchmark/schemas/report.py, one `benchmarks[]` entry per rate of a
 *   `--profile constant --rate a,b,c` run, the strategy as src/guidellm/scheduler/strategies.py
 *   writes it (test/generators/guidellm.ts `guidellmRateReport`);
 * - vLLM: vllm/benchmarks/serve.py `--append-result` lines (test/generators/vllm-bench.ts), and
 *   vllm/benchmarks/sweep/serve.py's experiment folder: per combination `run=N.json` (the result
 *   with `run_number` and the combination's overrides) and `summary.json` (the list of them).
 * The expected figures are the producer's own numbers in the same sample.
 */
import { describe, expect, it } from "vitest";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { POST as upload } from "@/app/api/runs/route";
import { uploadResponseSchema } from "@/lib/api/schemas";
import { MAX_SPLIT_BENCHMARKS } from "@/lib/ingest/split-benchmarks";
import { guidellmRateReport } from "../generators/guidellm";
import { sglangLine, sglangSweep } from "../generators/sglang-bench";
import { vllmBenchResult } from "../generators/vllm-bench";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";
import { readRun, readSweep } from "../helpers/read-api";

freshAppEachTest();

async function uploadOne(name: string, content: string, fields: Record<string, string> = {}) {
  const res = await upload(uploadRequest([{ name, content }], fields));
  expect(res.status).toBe(201);
  const body = uploadResponseSchema.parse(await res.json());
  expect(body.sweep).toBeDefined();
  expect(res.headers.get("location")).toBe(body.sweep!.url);
  return body;
}

describe("a file of several benchmarks", () => {
  it("SGLang: a concurrency sweep's lines become a run each, with SGLang's figures, and one sweep", async () => {
    const levels = [1, 4, 16];
    const text = sglangSweep(levels, { requests: 30, details: true, errorEvery: 10 });
    const lines = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, number>);
    const body = await uploadOne("sweep.jsonl", text, { name: "sglang sweep" });
    expect(body.runs).toHaveLength(3);
    expect(body.runs!.every((r) => r.status === "ready")).toBe(true);
    // No run says it left benchmarks out: each holds its own.
    expect(body.warnings.join("\n")).not.toMatch(/only the first/);

    const sweep = await readSweep(body.sweep!.id);
    expect(sweep.name).toBe("sglang sweep");
    expect(sweep.runs.map((r) => r.id)).toEqual(body.runs!.map((r) => r.id));
    expect(sweep.runs.map((r) => r.concurrency)).toEqual(levels);
    for (const [i, c] of levels.entries()) {
      const run = await readRun(body.runs![i].id);
      expect(run.facts.concurrency).toMatchObject({ value: c, source: "SGLang bench_serving result" });
      expect(run.name).toContain(`concurrency ${c}`);
      // 30 requests, every 10th failed: 27 measured, SGLang's own mean TTFT over them.
      expect(run.requests).toMatchObject({ count: 30, errorCount: 3 });
      expect(run.requests!.ttftMs!.mean).toBeCloseTo(lines[i].mean_ttft_ms, 9);
      expect(run.requests!.durationS).toBe(lines[i].duration);
      expect(run.files).toHaveLength(1);
      expect(run.warnings.join("\n")).not.toMatch(/only the first/);
    }
  });

  it("GuideLLM: a rate sweep's benchmarks become a run each whose rate is the strategy's", async () => {
    const rates = [2, 5, 10];
    const doc = guidellmRateReport(rates, { requests: 20 });
    const body = await uploadOne("benchmarks.json", JSON.stringify(doc));
    expect(body.runs).toHaveLength(3);
    const sweep = await readSweep(body.sweep!.id);
    expect(sweep.runs.map((r) => r.requestRate)).toEqual(rates);
    expect(sweep.runs.map((r) => r.concurrency)).toEqual([null, null, null]);
    expect(sweep.name).toBe("benchmarks.json");
    for (const [i, rate] of rates.entries()) {
      const run = await readRun(body.runs![i].id);
      expect(run.facts.requestRate).toMatchObject({ value: rate, source: "GuideLLM result" });
      expect(run.name).toContain(`${rate} req/s`);
      const ttft = doc.benchmarks[i].metrics.time_to_first_token_ms.successful;
      expect(run.requests!.ttftMs!.mean).toBeCloseTo(ttft.mean, 9);
      expect(run.requests!.count).toBe(20);
    }
  });

  it("vLLM: appended results, and a bench sweep experiment folder of one run=N.json per combination", async () => {
    const levels = [2, 8];
    const results = levels.map((c, i) =>
      vllmBenchResult({ requests: 24, concurrency: c, detailed: true, seed: 3 + i }),
    );
    const appended = await uploadOne(
      "results.jsonl",
      results.map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
    // vllm/benchmarks/sweep/serve.py: each combination's folder (SERVE-…-BENCH-…) holds
    // run=N.json (the result with run_number and the combination's overrides, indent 4) and
    // summary.json, the list of its runs: the same results again.
    const files = results.flatMap((r, i) => {
      const run = { ...r, run_number: 0, max_concurrency: levels[i] };
      const dir = `exp/BENCH--max_concurrency=${levels[i]}`;
      return [
        { name: `${dir}/run=0.json`, content: JSON.stringify(run, null, 4) },
        { name: `${dir}/summary.json`, content: JSON.stringify([run], null, 4) },
      ];
    });
    const res = await upload(uploadRequest(files, { name: "vllm sweep" }));
    expect(res.status).toBe(201);
    const swept = uploadResponseSchema.parse(await res.json());
    expect(swept.runs).toHaveLength(2);
    for (const body of [appended, swept]) {
      const sweep = await readSweep(body.sweep!.id);
      expect(sweep.runs.map((r) => r.concurrency)).toEqual(levels);
      for (const [i, r] of results.entries()) {
        const run = await readRun(body.runs![i].id);
        expect(run.facts.concurrency?.value).toBe(levels[i]);
        expect(run.requests!.ttftMs!.mean).toBeCloseTo(r.mean_ttft_ms as number, 9);
        expect(run.requests!.ttftMs!.p99).toBeCloseTo(r.p99_ttft_ms as number, 9);
        expect(run.warnings.join("\n")).not.toMatch(/only the first/);
      }
    }
    // Each run of the folder holds its own run=N.json; the summaries that repeat them are left out.
    const second = await readRun(swept.runs![1].id);
    expect(second.files.map((f) => f.name)).toEqual(["exp/BENCH--max_concurrency=8/run=0.json"]);
    expect(second.info).toMatchObject({ sweepRun: 0 });
  });

  it("vLLM: a combination's summary.json of repeated runs at one load is a run each, told apart by run", async () => {
    // --num-runs 3: three results of one combination, the same overrides in each. Several results
    // at one load are several runs, never "the first kept".
    const runs = [0, 1, 2].map((n) => ({
      ...vllmBenchResult({ requests: 10, concurrency: 4, seed: n + 1 }),
      run_number: n,
      max_concurrency: 4,
    }));
    const body = await uploadOne("summary.json", JSON.stringify(runs, null, 4));
    expect(body.runs).toHaveLength(3);
    expect(body.warnings.join("\n")).toMatch(/holds 3 benchmarks \(summary\.json\): each is its own run/);
    expect(body.warnings.join("\n")).not.toMatch(/only the first/);
    const names = new Set<string>();
    for (const [i, r] of runs.entries()) {
      const run = await readRun(body.runs![i].id);
      expect(run.requests!.ttftMs!.mean).toBeCloseTo(
        (r as Record<string, unknown>).mean_ttft_ms as number,
        9,
      );
      expect(run.name).toContain(`run ${i}`);
      names.add(run.name);
    }
    expect(names.size).toBe(3);
  });

  it("a re-ingest of a split run reads its own benchmark again", async () => {
    const text = sglangSweep([1, 4], { requests: 12 });
    const body = await uploadOne("sweep.jsonl", text);
    const id = body.runs![1].id;
    const res = await reingest(
      new Request(`http://localhost/api/runs/${id}/reingest`, { method: "POST" }),
      idParams(id),
    );
    expect(res.status).toBe(200);
    const run = await readRun(id);
    expect(run.status).toBe("ready");
    expect(run.facts.concurrency?.value).toBe(4);
  });

  it("a file of more benchmarks than a sweep holds stays one run that says what it left out", async () => {
    const levels = Array.from({ length: MAX_SPLIT_BENCHMARKS + 1 }, (_, i) => i + 1);
    const res = await upload(
      uploadRequest([{ name: "history.jsonl", content: sglangSweep(levels, { requests: 2 }) }]),
    );
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.sweep).toBeUndefined();
    expect(body.warnings.join("\n")).toMatch(
      /holds 65 benchmarks \(history\.jsonl\); only the first was imported/,
    );
  });

  it("a file of one benchmark stays one run, without a sweep", async () => {
    const res = await upload(
      uploadRequest([{ name: "one.jsonl", content: JSON.stringify(sglangLine()) + "\n" }]),
    );
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.sweep).toBeUndefined();
    expect(body.runs).toBeUndefined();
  });
});
