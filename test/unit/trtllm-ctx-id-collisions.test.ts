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

/**
 * The disagg server's copies as a build that restamps them on its own clock writes them: no
 * longer the worker records themselves, so only a server name can tell which record is whose.
 */
function restampCopies(file: string, offsetS: number): void {
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const shift = (side: { perf_metrics: { timing_metrics: Record<string, number | null> } }) => {
    const t = side.perf_metrics.timing_metrics;
    for (const k of Object.keys(t)) if (typeof t[k] === "number" && k !== "kv_cache_size") t[k]! += offsetS;
  };
  const out = lines.map((l) => {
    const r = JSON.parse(l);
    shift(r.ctx_perf_metrics);
    shift(r.gen_perf_metrics);
    return JSON.stringify(r);
  });
  fs.writeFileSync(file, out.join("\n") + "\n");
}

function generate(rename?: (name: string, i: number) => string, restamp = false) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-collide-"));
  const gen = generateTrtllmRun({ dir, ...COLLIDING });
  if (restamp)
    restampCopies(
      gen.files.find((f) => path.basename(f).includes("disagg"))!,
      1e-4,
    );
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

  it("joins each worker record to the disagg record that embeds it, whatever the file is named", async () => {
    // File names that name no server host, but TensorRT-LLM's record builder embeds each worker
    // record unchanged (tensorrt_llm/serve/perf_metrics.py): the copy says which record is whose.
    const r = await analyzeTrtllm(
      generate((name, i) => (name.includes("disagg") ? name : `perf_metrics-server-w${i}.jsonl`)),
    );
    expect(r.result.warnings ?? []).toEqual([]);
    expect(r.result.info?.["TRT-LLM joins"]).toBe("0 by disagg_request_id, 16 by ctx_request_id");
    expect(r.result.timeBreakdown!.kvTransfer!.count).toBe(8);
  });

  it("refuses, with a count, records whose server nothing names", async () => {
    // File names that name no server host, and copies restamped on the disagg server's clock:
    // every ctx id stays ambiguous.
    const r = await analyzeTrtllm(
      generate((name, i) => (name.includes("disagg") ? name : `perf_metrics-server-w${i}.jsonl`), true),
    );
    const tb = r.result.timeBreakdown!;
    expect(r.result.warnings).toContain(
      "TensorRT-LLM perf metrics: 16 worker records left out: their ctx_request_id names several disagg requests and neither the record nor its file names which server it came from",
    );
    expect(r.result.info?.["TRT-LLM joins"]).toBeUndefined();
    expect(tb.requestCount).toBe(8);
    // Nothing joined on a guess: no worker stamps reached any request.
    expect(tb.segments.find((s) => s.name === "disagg_preprocessing")!.count).toBe(0);
    expect(tb.kvTransfer?.count ?? 0).toBe(0);
  });
});
