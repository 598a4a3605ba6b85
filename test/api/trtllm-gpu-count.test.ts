/**
 * The GPU count of a TensorRT-LLM run from what its artifacts say (docs/metrics.md §Run facts):
 * each role's TP × PP from its `extra-llm-api-config.yml` (the LLM API's tensor_parallel_size /
 * pipeline_parallel_size, tensorrt_llm/llmapi/llm_args.py), its workers from the perf-metrics
 * files (trtllm-serve answers /perf_metrics per worker, so one file per worker: the generator
 * writes them as TensorRT-LLM's serve/perf_metrics.py does), never an assumed 1.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { runSummarySchema } from "@/lib/api/schemas";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

function writeConfig(dir: string, name: string, text: string) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return { name, path: p };
}

async function factsOf(files: { name: string; path: string }[]) {
  const res = await upload(uploadRequest(files));
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const run = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await run.json()).facts;
}

describe("GPU count of a TensorRT-LLM run", () => {
  it("disaggregated: Σ per role of worker files × TP × PP, both sources named", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-gpus-"));
    const gen = generateTrtllmRun({
      dir,
      mode: "disaggregated",
      requests: 40,
      seed: 3,
      ctxWorkers: 2,
      genWorkers: 1,
    });
    const files = [
      ...gen.files.map((p) => ({ name: path.basename(p), path: p })),
      writeConfig(
        dir,
        "ctx_extra-llm-api-config.yml",
        "tensor_parallel_size: 2\npipeline_parallel_size: 1\n",
      ),
      writeConfig(
        dir,
        "gen_extra-llm-api-config.yml",
        "tensor_parallel_size: 4\npipeline_parallel_size: 2\nmoe_expert_parallel_size: 4\nenable_attention_dp: true\n",
      ),
    ];
    const facts = await factsOf(files);
    // 2 prefill workers × TP 2 × PP 1 + 1 decode worker × TP 4 × PP 2 (EP and attention DP reuse the TP ranks)
    expect(facts.gpuCount?.value).toBe(12);
    expect(facts.gpuCount?.source).toMatch(/engine config/);
    expect(facts.gpuCount?.source).toMatch(/TensorRT-LLM perf metrics/);
    expect(facts.roles?.value).toEqual([
      { role: "prefill", count: 2, tp: 2, pp: 1, ep: null, dp: null },
      { role: "decode", count: 1, tp: 4, pp: 2, ep: 4, dp: null },
    ]);
  });

  it("aggregated: one config for every worker", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-gpus-"));
    const gen = generateTrtllmRun({ dir, mode: "aggregated", requests: 20, seed: 4 });
    const files = [
      ...gen.files.map((p) => ({ name: path.basename(p), path: p })),
      writeConfig(dir, "extra-llm-api-config.yml", "tensor_parallel_size: 8\n"),
    ];
    const facts = await factsOf(files);
    const workers = gen.files.filter((f) => !/disagg/.test(path.basename(f))).length;
    expect(facts.gpuCount?.value).toBe(workers * 8);
    expect(facts.roles?.value).toEqual([
      { role: "combined", count: workers, tp: 8, pp: null, ep: null, dp: null },
    ]);
  });

  it("without an engine config: workers counted, GPUs unknown (never 1)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-gpus-"));
    const gen = generateTrtllmRun({
      dir,
      mode: "disaggregated",
      requests: 20,
      seed: 5,
      ctxWorkers: 1,
      genWorkers: 2,
    });
    const facts = await factsOf(gen.files.map((p) => ({ name: path.basename(p), path: p })));
    expect(facts.gpuCount).toBeNull();
    expect(facts.roles?.value.map((r) => [r.role, r.count, r.tp])).toEqual([
      ["prefill", 1, null],
      ["decode", 2, null],
    ]);
    expect(facts.roles?.source).toBe("TensorRT-LLM perf metrics (one file per worker)");
  });
});
