// Older TensorRT-LLM builds write no disagg_request_id, and each server numbers its own requests
// (tensorrt_llm/serve/perf_metrics.py shapes, built by test/generators/trtllm.mjs): the
// ctx_request_id fallback must join within a server, never across servers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateTrtllmRun, type GenerateOptions } from "../generators/trtllm.mjs";
import { analyzeTrtllm, trtllmDiskFile } from "../generators/trtllm-ingest";

// sigma 0: every segment of every request is exactly its median, so a wrong join shows as a
// value away from it.
const MEDIANS_MS = { disagg_preprocessing: 0.8, gen_kv_transfer: 6, decode: 900 };
const COLLIDING: Omit<GenerateOptions, "dir"> = {
  mode: "disaggregated",
  requests: 8,
  seed: 5,
  sigma: 0,
  mediansMs: MEDIANS_MS,
  ctxWorkers: 2,
  genWorkers: 2,
  joinBy: "ctx_request_id",
  idsPerServer: true,
  copyServerStamps: false,
  // Far apart, so a record joined to another server's request is off by seconds.
  arrivalRatePerS: 0.5,
};

function generate(rename?: (name: string, i: number) => string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-collide-"));
  const gen = generateTrtllmRun({ dir, ...COLLIDING });
  return gen.files.map((f, i) => trtllmDiskFile(f, i, rename ? rename(path.basename(f), i) : undefined));
}

describe("ctx_request_id join fallback with ids reused across ctx servers", () => {
  it("joins each worker record within its own server (named by its file)", async () => {
    const r = await analyzeTrtllm(generate());
    const tb = r.result.timeBreakdown!;
    expect(r.result.warnings ?? []).toEqual([]);
    // 8 ctx + 8 gen worker records, each joined to exactly one disagg record.
    expect(r.result.info?.["TRT-LLM joins"]).toBe("0 by disagg_request_id, 16 by ctx_request_id");
    expect(tb.requestCount).toBe(8);
    expect(tb.kvTransfer!.count).toBe(8);
    const seg = (name: string) => tb.segments.find((s) => s.name === name)!;
    expect(seg("disagg_preprocessing").count).toBe(8);
    expect(seg("disagg_preprocessing").meanMs!).toBeCloseTo(0.8, 6);
    expect(seg("gen_kv_transfer").meanMs!).toBeCloseTo(6, 6);
    expect(seg("decode").meanMs!).toBeCloseTo(900, 6);
    expect(r.result.endpoints!.map((e) => [e.endpoint, e.role]).sort()).toEqual([
      ["ctx0:8001", "prefill"],
      ["ctx1:8001", "prefill"],
      ["gen0:8002", "decode"],
      ["gen1:8002", "decode"],
    ]);
  });

  it("refuses, with a count, records whose server nothing names", async () => {
    // File names that name no server host: every ctx id stays ambiguous.
    const r = await analyzeTrtllm(
      generate((name, i) => (name.includes("disagg") ? name : `perf_metrics-server-w${i}.jsonl`)),
    );
    const tb = r.result.timeBreakdown!;
    expect(r.result.warnings).toContain(
      "TensorRT-LLM perf metrics: 16 worker record(s) left out: their ctx_request_id names several disagg requests and neither the record nor its file names which server it came from",
    );
    expect(r.result.info?.["TRT-LLM joins"]).toBeUndefined();
    expect(tb.requestCount).toBe(8);
    // Nothing joined on a guess: no worker stamps reached any request.
    expect(tb.segments.find((s) => s.name === "disagg_preprocessing")!.count).toBe(0);
    expect(tb.kvTransfer?.count ?? 0).toBe(0);
  });
});
