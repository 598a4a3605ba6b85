import { describe, expect, it } from "vitest";
import { effectiveFacts } from "@/lib/api/run-facts";
import { defaultRunName, nameFacts, type NameFacts } from "@/lib/ingest/run-name";

const none: NameFacts = {
  model: null,
  backend: null,
  concurrency: null,
  requestRate: null,
  serving: null,
  requestCount: null,
};
const runFacts = (blocks: { info: Record<string, string | number> }, backend: string, n: number | null) =>
  nameFacts(null, blocks, backend, n);

describe("default run names", () => {
  it("are model · backend · concurrency when the files say so", () => {
    const f = runFacts({ info: { model: "mock-llama-8b", concurrency: 4 } }, "vllm", 200);
    expect(defaultRunName(f, "profile_export.jsonl")).toBe("mock-llama-8b · vllm · concurrency 4");
    expect(defaultRunName({ ...none, model: "m", concurrency: 8 }, "x")).toBe("m · concurrency 8");
  });
  it("tell backend-only runs apart by serving mode and request count", () => {
    const f = runFacts({ info: { "TRT-LLM serving": "disaggregated" } }, "trtllm", 300);
    expect(defaultRunName(f, "perf_metrics-disagg-router-1.jsonl")).toBe(
      "trtllm · disaggregated · 300 requests · perf_metrics-disagg-router-1.jsonl",
    );
    expect(defaultRunName({ ...none, backend: "sglang" }, "case")).toBe("sglang · case");
  });
  it("take the model from server-metrics labels when no aiperf config names it", () => {
    const facts = effectiveFacts(
      {
        model: { value: "Qwen/Qwen3-0.6B", source: "server-metrics label model_name" },
        backend: { value: "vllm", source: "server metrics (metric names)" },
        requestRate: { value: 2.5, source: "aiperf input_config v2" },
      },
      { backend: "dynamo+vllm" },
    );
    expect(defaultRunName(nameFacts(facts, { info: {} }, null, 10), "x")).toBe(
      "Qwen/Qwen3-0.6B · dynamo+vllm · 2.5 req/s",
    );
  });
  it("end with the file or folder name when no load is known, so runs that share the rest differ", () => {
    const one = runFacts({ info: { "TRT-LLM serving": "disaggregated" } }, "trtllm", 1);
    const a = defaultRunName(one, "perf_metrics-disagg-reconstructed.jsonl");
    const b = defaultRunName(one, "time_breakdown_readme_disaggregated.json");
    expect(a).toBe("trtllm · disaggregated · 1 request · perf_metrics-disagg-reconstructed.jsonl");
    expect(a).not.toBe(b);
    expect(defaultRunName({ ...none, requestCount: 1 }, "records.jsonl")).toBe("1 request · records.jsonl");
    expect(defaultRunName({ ...none, model: "Qwen/Qwen3-0.6B", backend: "dynamo" }, "scrape.prom")).toBe(
      "Qwen/Qwen3-0.6B · dynamo · scrape.prom",
    );
  });
  it("fall back to the file or folder name when nothing is known", () => {
    expect(defaultRunName(none, "artifacts")).toBe("artifacts");
    // Blank or non-positive values are not facts.
    expect(runFacts({ info: { model: " ", concurrency: 0 } }, "", null)).toEqual(none);
  });
});
