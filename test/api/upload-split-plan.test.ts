/**
 * How an upload of several runs is split (issue 31, "Splits are planned, bounded and atomic"):
 * a split file's runs hold their own benchmark, never the upload's other files (N4); an upload
 * of more run folders than a sweep holds is refused, as a split file and POST /api/sweeps are
 * capped (N7). SGLang lines as python/sglang/bench_serving.py appends them
 * (test/generators/sglang-bench.ts), aiperf records from test/fixtures/aiperf.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as getSweep } from "@/app/api/sweeps/[id]/route";
import { runSummarySchema, uploadResponseSchema } from "@/lib/api/schemas";
import { MAX_SWEEP_RUNS, sweepSchema } from "@/lib/api/sweeps";
import { vllmResultsOf, MAX_SWEPT_PARAMS } from "@/lib/formats/vllm-bench";
import { guidellmRateReport } from "../generators/guidellm";
import { sglangSweep } from "../generators/sglang-bench";
import { vllmBenchResult } from "../generators/vllm-bench";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

const AIPERF_RECORDS = fixture("aiperf/qwen-c4__profile_export.jsonl");

async function readRun(id: string) {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

async function storedRunCount(): Promise<number> {
  const res = await listRuns(new Request("http://localhost/api/runs?limit=200"));
  return ((await res.json()) as { runs: unknown[] }).runs.length;
}

describe("a split upload", () => {
  it("gives each benchmark's run its own file; an unrelated records file is a run of its own (N4)", async () => {
    const levels = [1, 4, 16];
    const records = fs
      .readFileSync(AIPERF_RECORDS, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length;
    const res = await upload(
      uploadRequest([
        { name: "sweep.jsonl", content: sglangSweep(levels, { requests: 5, details: true }) },
        { name: "other/profile_export.jsonl", path: AIPERF_RECORDS },
      ]),
    );
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.runs).toHaveLength(4);
    expect(body.warnings.join("\n")).toMatch(
      /holds 3 benchmarks \(sweep\.jsonl\): each is its own run, and together a sweep; other\/profile_export\.jsonl, which belong to none of them, make a run of their own/,
    );
    const sweep = sweepSchema.parse(
      await (
        await getSweep(new Request(`http://localhost/api/sweeps/${body.sweep!.id}`), idParams(body.sweep!.id))
      ).json(),
    );
    expect(sweep.runs.map((r) => r.concurrency)).toEqual(levels);
    for (const [i] of levels.entries()) {
      const run = await readRun(body.runs![i].id);
      expect(run.files.map((f) => f.name)).toEqual(["sweep.jsonl"]);
      expect(run.requests!.count).toBe(5);
    }
    const rest = await readRun(body.runs![3].id);
    expect(rest.files.map((f) => f.name)).toEqual(["other/profile_export.jsonl"]);
    expect(rest.requests!.count).toBe(records);
    expect(await storedRunCount()).toBe(4);
  });

  it(`refuses more run folders than a sweep holds (${MAX_SWEEP_RUNS}), leaving no run (N7)`, async () => {
    const head = fs.readFileSync(AIPERF_RECORDS, "utf8").split("\n").slice(0, 2).join("\n") + "\n";
    const files = Array.from({ length: MAX_SWEEP_RUNS + 1 }, (_, i) => ({
      name: `cfg_c${i + 1}/profile_export.jsonl`,
      content: head,
    }));
    const res = await upload(uploadRequest(files));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("too_many_runs");
    expect(await storedRunCount()).toBe(0);
  });

  it("folders of different models are a run each but no sweep, and the warning says why (M6)", async () => {
    const summary = JSON.parse(
      fs.readFileSync(fixture("aiperf/qwen-c2__profile_export_aiperf.json"), "utf8"),
    ) as {
      input_config: { endpoint: { model_names: string[] } };
    };
    const other = structuredClone(summary);
    other.input_config.endpoint.model_names = ["example/other-model"];
    const res = await upload(
      uploadRequest([
        { name: "qwen_c2/profile_export_aiperf.json", content: JSON.stringify(summary) },
        { name: "other_c2/profile_export_aiperf.json", content: JSON.stringify(other) },
      ]),
    );
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.runs).toHaveLength(2);
    expect(body.sweep).toBeUndefined();
    expect(body.warnings.join("\n")).toMatch(
      /not one sweep: they measured different models \(Qwen\/Qwen3-0\.6B, example\/other-model\)/,
    );
    const models = await Promise.all(body.runs!.map(async (r) => (await readRun(r.id)).facts.model?.value));
    expect(models).toEqual(["Qwen/Qwen3-0.6B", "example/other-model"]);
  });

  it("folders of one model and load are told apart by their folder's name (M6)", async () => {
    const summary = fs.readFileSync(fixture("aiperf/qwen-c2__profile_export_aiperf.json"), "utf8");
    const res = await upload(
      uploadRequest([
        { name: "tp1_c2/profile_export_aiperf.json", content: summary },
        { name: "tp2_c2/profile_export_aiperf.json", content: summary },
      ]),
    );
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.sweep).toBeDefined();
    const names = await Promise.all(body.runs!.map(async (r) => (await readRun(r.id)).name));
    expect(names).toEqual([
      "Qwen/Qwen3-0.6B · concurrency 2 · tp1_c2",
      "Qwen/Qwen3-0.6B · concurrency 2 · tp2_c2",
    ]);
  });

  it("keeps at most a few short swept parameters of a vLLM sweep result as facts (N14)", () => {
    // vllm/benchmarks/sweep/serve.py writes the combination's overrides beside the result.
    const doc: Record<string, unknown> = {
      ...vllmBenchResult({ requests: 4, concurrency: 2 }),
      run_number: 1,
    };
    for (let i = 0; i < 100_000; i++) doc[`param_${i}`] = `value ${i}`;
    doc.long_value = "x".repeat(10_000);
    const [result] = vllmResultsOf([doc]);
    const swept = Object.keys(result.facts).filter((k) => k.startsWith("sweep."));
    expect(swept).toHaveLength(MAX_SWEPT_PARAMS);
    expect(swept[0]).toBe("sweep.param_0");
    expect(result.facts["sweep.long_value"]).toBeUndefined();
  });

  it("a second copy of a rate sweep's report goes with the runs it repeats, read once each", async () => {
    // GuideLLM writes one report as benchmarks.json and, asked to, again as another file.
    const doc = guidellmRateReport([2, 5, 10], { requests: 6 });
    const res = await upload(
      uploadRequest([
        { name: "benchmarks.json", content: JSON.stringify(doc) },
        { name: "copy/benchmarks.json", content: JSON.stringify(doc, null, 2) },
      ]),
    );
    expect(res.status).toBe(201);
    const body = uploadResponseSchema.parse(await res.json());
    expect(body.runs).toHaveLength(3);
    expect(body.sweep).toBeDefined();
    for (const r of body.runs!) {
      const run = await readRun(r.id);
      expect(run.files.map((f) => f.name)).toEqual(["benchmarks.json", "copy/benchmarks.json"]);
      expect(run.requests!.count).toBe(6);
      expect(run.warnings.join("\n")).not.toMatch(/only the first/);
      expect(run.warnings).toContain(
        "copy/benchmarks.json holds the same benchmark as benchmarks.json: read once",
      );
    }
  });
});
