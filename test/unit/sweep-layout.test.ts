import { describe, expect, it } from "vitest";
import { runDirOf } from "@/lib/ingest/sweep-layout";

describe("runDirOf", () => {
  it("finds the run folder of aiperf's sweep layouts and of hand-made ones", () => {
    expect(runDirOf("bench/concurrency_16/profile_export.jsonl")).toEqual({
      key: "concurrency_16",
      concurrency: 16,
      requestRate: null,
    });
    expect(runDirOf("bench/request_rate_2.5/profile_export_aiperf.json")).toMatchObject({ requestRate: 2.5 });
    // Repeated mode: trials below the value pool under the same key.
    expect(runDirOf("b/profile_runs/trial_0002/concurrency_8/x.json").key).toBe("concurrency_8");
    // Independent mode: the value above its trials.
    expect(runDirOf("b/concurrency_8/profile_runs/trial_0001/x.json").key).toBe("concurrency_8");
    expect(runDirOf("sweep/llama-tp2_c64/profile_export.jsonl")).toMatchObject({
      key: "llama-tp2_c64",
      concurrency: 64,
    });
    expect(runDirOf("sweep/qwen-c1/profile_export.jsonl").concurrency).toBe(1);
    // A concurrency word in the folder's name: aiperf's default artifact folder
    // (its summary's output.artifact_directory reads <model>-openai-chat-concurrency2), hand-made names.
    expect(runDirOf("a/Qwen_Qwen3-0.6B-openai-chat-concurrency2/profile_export.jsonl")).toMatchObject({
      key: "Qwen_Qwen3-0.6B-openai-chat-concurrency2",
      concurrency: 2,
    });
    expect(runDirOf("qwen_concurrency4/x.json").concurrency).toBe(4);
    expect(runDirOf("llama-conc16-tp2/x.json").concurrency).toBe(16);
    // vLLM's sweep folders name an override, not a run folder: split by their results instead.
    expect(runDirOf("exp/BENCH--max_concurrency=8/run=0.json").key).toBe("");
    expect(runDirOf("concurrency-notes/x.json").key).toBe("");
  });

  it("leaves files outside any such folder, and trial folders, to the one run", () => {
    expect(runDirOf("profile_export.jsonl").key).toBe("");
    expect(runDirOf("profile_runs/run_0001/profile_export.jsonl").key).toBe("");
    expect(runDirOf("bench/sweep_aggregate/profile_export_aiperf_sweep.json").key).toBe("");
    // A file named like a run folder is not one.
    expect(runDirOf("a/model_c4").key).toBe("");
  });
});
