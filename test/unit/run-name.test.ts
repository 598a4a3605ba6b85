import { describe, expect, it } from "vitest";
import { defaultRunName, runFacts, type RunFacts } from "@/lib/ingest/run-name";

const none: RunFacts = { model: null, backend: null, concurrency: null, serving: null, requestCount: null };

describe("default run names", () => {
  it("are model · backend · concurrency when the files say so", () => {
    const f = runFacts({ info: { model: "mock-llama-8b", concurrency: 4 } }, "vllm", 200);
    expect(defaultRunName(f, "profile_export.jsonl")).toBe("mock-llama-8b · vllm · concurrency 4");
    expect(defaultRunName({ ...none, model: "m" }, "x")).toBe("m");
  });
  it("tell backend-only runs apart by serving mode and request count", () => {
    const f = runFacts({ info: { "TRT-LLM serving": "disaggregated" } }, "trtllm", 300);
    expect(defaultRunName(f, "perf_metrics-disagg-router-1.jsonl")).toBe(
      "trtllm · disaggregated · 300 requests",
    );
    expect(defaultRunName({ ...none, backend: "sglang" }, "case")).toBe("sglang · case");
  });
  it("fall back to the file or folder name when nothing is known", () => {
    expect(defaultRunName(none, "artifacts")).toBe("artifacts");
    // Blank or non-positive values are not facts.
    expect(runFacts({ info: { model: " ", concurrency: 0 } }, "", null)).toEqual(none);
  });
});
