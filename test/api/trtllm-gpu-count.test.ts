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
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { readRun } from "../helpers/read-api";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";

freshAppEachTest();

/**
 * Uploads a generated TensorRT-LLM run of `opts` with the engine configs `configs` (file name →
 * YAML) beside its perf-metrics files; the run's facts, and the generated files.
 */
async function factsOf(opts: Record<string, unknown>, configs: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-gpus-"));
  try {
    const gen = generateTrtllmRun({ dir, ...opts });
    const files = gen.files.map((p) => ({ name: path.basename(p), path: p }));
    for (const [name, text] of Object.entries(configs)) {
      fs.writeFileSync(path.join(dir, name), text);
      files.push({ name, path: path.join(dir, name) });
    }
    return { facts: (await readRun(await uploadRun(files))).facts, gen };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("GPU count of a TensorRT-LLM run", () => {
  it("disaggregated: Σ per role of worker files × TP × PP, both sources named", async () => {
    const { facts } = await factsOf(
      { mode: "disaggregated", requests: 40, seed: 3, ctxWorkers: 2, genWorkers: 1 },
      {
        "ctx_extra-llm-api-config.yml": "tensor_parallel_size: 2\npipeline_parallel_size: 1\n",
        "gen_extra-llm-api-config.yml":
          "tensor_parallel_size: 4\npipeline_parallel_size: 2\nmoe_expert_parallel_size: 4\nenable_attention_dp: true\n",
      },
    );
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
    const { facts, gen } = await factsOf(
      { mode: "aggregated", requests: 20, seed: 4 },
      { "extra-llm-api-config.yml": "tensor_parallel_size: 8\n" },
    );
    const workers = gen.files.filter((f) => !/disagg/.test(path.basename(f))).length;
    expect(facts.gpuCount?.value).toBe(workers * 8);
    expect(facts.roles?.value).toEqual([
      { role: "combined", count: workers, tp: 8, pp: null, ep: null, dp: null },
    ]);
  });

  it("without an engine config: workers counted, GPUs unknown (never 1)", async () => {
    const { facts } = await factsOf({
      mode: "disaggregated",
      requests: 20,
      seed: 5,
      ctxWorkers: 1,
      genWorkers: 2,
    });
    expect(facts.gpuCount).toBeNull();
    expect(facts.roles?.value.map((r) => [r.role, r.count, r.tp])).toEqual([
      ["prefill", 1, null],
      ["decode", 2, null],
    ]);
    expect(facts.roles?.source).toBe("TensorRT-LLM perf metrics (one file per worker)");
  });
});
