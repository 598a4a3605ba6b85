import { describe, expect, it } from "vitest";
import { distinctLabels } from "@/lib/metrics/short-labels";

describe("distinct labels for compared run names", () => {
  it("two vLLM runs of one model differ by their files, not a middle cut", () => {
    // Auto-names of four vLLM bench serve results (real-public GLM-4.7 and Qwen3.5 folders):
    // cut in the middle to 30 characters, both Qwen runs read "Qwen/Qwen3.5-3…2_osl1024.json".
    const names = [
      "/workspace/glm47-fp8 · vLLM bench serve (vllm) · concurrency 100 · run_1_TP4_DP2_CTX2048_C100_P100_O128.json",
      "/workspace/glm47-fp8 · vLLM bench serve (vllm) · concurrency 100 · run_1_TP8_DP1_CTX1024_C100_P100_O128.json",
      "Qwen/Qwen3.5-397B-A17B-FP8 · vLLM bench serve (vllm) · concurrency 64 · atom_mtp_profile_tp4_conc64_isl8192_osl1024.json",
      "Qwen/Qwen3.5-397B-A17B-FP8 · vLLM bench serve (vllm) · concurrency 64 · atom_mtp_tp4_conc64_isl8192_osl1024.json",
    ];
    const labels = distinctLabels(names);
    expect(new Set(labels).size).toBe(4);
    expect(labels[0]).toBe("workspace/glm47-fp8 · TP4_DP2_CTX2048");
    expect(labels[1]).toBe("workspace/glm47-fp8 · TP8_DP1_CTX1024");
    expect(labels[2]).toMatch(/^Qwen\/.*FP8 · profile_tp4$/);
    expect(labels[3]).toMatch(/^Qwen\/.*FP8 · tp4$/);
    // The shared backend is not repeated in any label.
    expect(labels.some((l) => l.includes("vLLM bench serve"))).toBe(false);
  });
  it("fallback names that collide are told apart", () => {
    // The review's example: three "trtllm · disaggregated · 1 request" runs and one "1 request".
    const names = [
      "trtllm · disaggregated · 1 request",
      "trtllm · disaggregated · 1 request",
      "1 request",
      "trtllm · disaggregated · 1 request",
    ];
    const labels = distinctLabels(names);
    expect(new Set(labels).size).toBe(4);
  });
  it("a lone name is cut, short names are kept", () => {
    expect(distinctLabels(["a · b"])).toEqual(["a · b"]);
    expect(distinctLabels(["Qwen3 · vllm · concurrency 4", "Qwen3 · vllm · concurrency 8"])).toEqual([
      "concurrency 4",
      "concurrency 8",
    ]);
  });
});

describe("distinct labels within an axis's room", () => {
  it("cuts fields shorter until every label fits, still distinct", () => {
    const names = [
      "Qwen/Qwen3-0.6B · trtllm · disaggregated · 300 requests (synthetic)",
      "Qwen/Qwen3-0.6B · trtllm · disaggregated · perf metrics of the disagg server",
      "meta-llama/Llama-3.1-8B-Instruct · dynamo+trtllm · 1 prefill + 3 decode",
    ];
    const labels = distinctLabels(names, 20, 26);
    expect(labels.every((l) => l.length <= 26)).toBe(true);
    expect(new Set(labels).size).toBe(3);
  });
});
