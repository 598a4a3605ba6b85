// Older TensorRT-LLM disaggregated runs join worker dumps to the disagg server's records by
// ctx_request_id (no disagg_request_id). The run comes from test/generators/trtllm-record-builder.mjs,
// which follows the record builder of tensorrt_llm/serve/perf_metrics.py
// (DisaggPerfMetricsCollector.get_perf_metrics): its records embed each worker's own item and say
// which ctx_server and gen_server served the request, so every worker record can be joined to the
// one record that is its own, even where ids repeat across servers and a worker's request_id
// equals the other side's.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateRecordBuilderRun } from "../generators/trtllm-record-builder.mjs";
import { analyzeTrtllm, trtllmDiskFile } from "../generators/trtllm-ingest";
import { storedTrtllmRows } from "../helpers/trtllm-request-rows";

const N = 1913;

describe("ctx_request_id join on records written by TensorRT-LLM's record builder", () => {
  it(`joins all ${N} requests' worker records to their own record, none left out`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-builder-"));
    const gen = generateRecordBuilderRun({ dir, requests: N, ctxServers: 2, genServers: 2, seed: 3 });
    // The hard cases are there: ctx ids repeat across the two context servers, and some records
    // carry the same request_id on both sides.
    const ctxIds = new Set<number>();
    let repeated = 0;
    for (const r of gen.truth) {
      if (ctxIds.has(r.ctxId)) repeated++;
      else ctxIds.add(r.ctxId);
    }
    expect(repeated).toBeGreaterThan(N / 3);
    expect(gen.truth.filter((r) => r.ctxId === r.genId).length).toBeGreaterThan(0);

    const run = await analyzeTrtllm(gen.files.map((f, i) => trtllmDiskFile(f, i)));
    const tb = run.result.timeBreakdown!;
    expect(run.result.warnings ?? []).toEqual([]);
    expect(run.result.info?.["TRT-LLM joins"]).toBe(`0 by disagg_request_id, ${2 * N} by ctx_request_id`);
    expect(tb.requestCount).toBe(N);
    expect(tb.kvTransfer!.count).toBe(N);
    const rows = await storedTrtllmRows(run.handle.db, run.ctx.runId);
    expect(rows).toHaveLength(N);
    // Every worker record joined the record its own server is named in.
    for (const r of rows) {
      expect(r.ctx_worker, "ctx worker joined").not.toBeNull();
      expect(r.gen_worker, "gen worker joined").not.toBeNull();
      expect(gen.serverOfFile[r.ctx_worker!]).toBe(r.ctx_server);
      expect(gen.serverOfFile[r.gen_worker!]).toBe(r.gen_server);
    }
  });
});
