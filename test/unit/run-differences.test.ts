import { describe, expect, it } from "vitest";
import { EMPTY_FACTS, type RunFacts } from "@/lib/api/run-facts";
import { differencesText, runDifferences } from "@/lib/metrics/run-differences";

const fact = <T>(value: T, source = "aiperf input_config") => ({ value, source, edited: false });

function facts(over: Partial<RunFacts>): { facts: RunFacts } {
  return { facts: { ...EMPTY_FACTS, ...over } };
}

const llama = facts({
  model: fact("mock-llama-8b"),
  gpuModel: fact("NVIDIA H100 80GB HBM3"),
  gpuCount: fact(2),
  backend: fact("vllm"),
  isl: fact(1000, "measured mean"),
  osl: fact(200, "measured mean"),
  concurrency: fact(4),
});

describe("runDifferences", () => {
  it("finds none between a run and itself, and none in case or spacing of a name", () => {
    expect(runDifferences(llama, llama)).toEqual([]);
    const same = facts({ ...llama.facts, model: fact(" Mock-Llama-8B "), backend: fact("VLLM") });
    expect(runDifferences(llama, same)).toEqual([]);
  });

  it("names every fact two unrelated runs differ in, each side as the page writes it", () => {
    const qwen = facts({
      model: fact("Qwen/Qwen3-0.6B"),
      gpuModel: fact("NVIDIA RTX 6000 Ada Generation"),
      gpuCount: fact(1),
      backend: fact("dynamo+trtllm"),
      isl: fact(3000, "measured mean"),
      osl: fact(150, "measured mean"),
      concurrency: fact(1),
    });
    const diffs = runDifferences(llama, qwen);
    expect(diffs.map((d) => d.fact)).toEqual(["model", "gpu", "backend", "isl", "osl", "concurrency"]);
    expect(diffs[1]).toEqual({
      fact: "gpu",
      label: "GPU",
      a: "2 × NVIDIA H100 80GB HBM3",
      b: "1 × NVIDIA RTX 6000 Ada Generation",
    });
    expect(differencesText(diffs.slice(3, 4))).toBe("ISL 1,000 tokens vs 3,000 tokens");
  });

  it("counts a GPU count as a difference on the same GPU model", () => {
    const one = facts({ ...llama.facts, gpuCount: fact(1) });
    expect(runDifferences(llama, one).map((d) => [d.fact, d.a, d.b])).toEqual([
      ["gpu", "2 × NVIDIA H100 80GB HBM3", "1 × NVIDIA H100 80GB HBM3"],
    ]);
  });

  it("takes measured lengths within 10% as the same workload, and beyond as another", () => {
    const near = facts({ ...llama.facts, isl: fact(1090, "measured mean"), osl: fact(185, "measured mean") });
    expect(runDifferences(llama, near)).toEqual([]);
    const far = facts({ ...llama.facts, osl: fact(240, "measured mean") });
    expect(runDifferences(llama, far).map((d) => d.fact)).toEqual(["osl"]);
  });

  it("counts a fact one run does not state as no difference", () => {
    const bare = facts({ model: fact("mock-llama-8b") });
    expect(runDifferences(llama, bare)).toEqual([]);
    expect(runDifferences(bare, facts({}))).toEqual([]);
  });
});
