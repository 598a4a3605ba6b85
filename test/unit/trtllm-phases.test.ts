/**
 * TensorRT-LLM's phase-keyed perf-metrics record (`{schema_version, request_id, status, phases}`),
 * as tensorrt_llm/serve/perf_metrics.py builds it (`build_request_metrics_record`,
 * `build_metrics_record_from_headers`, `combine_disagg_metrics`) and one development build of its
 * JSONL writer wrote it. Samples: test/generators/trtllm-phases.mjs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectKind } from "@/lib/formats/detect";
import { parseTrtllmRecord } from "@/lib/formats/trtllm-record";
import { generateTrtllmRun, readRecords } from "../generators/trtllm.mjs";
import { jsonl, phaseKeyedDisagg, phaseKeyedWorker } from "../generators/trtllm-phases.mjs";
import { analyzeTrtllm, trtllmDiskFile, trtllmTextFile } from "../generators/trtllm-ingest";

const segment = (run: Awaited<ReturnType<typeof analyzeTrtllm>>, name: string) =>
  run.result.timeBreakdown!.segments.find((s) => s.name === name)!;

/** One aggregated worker's record, stamps chosen so every span is a round number of ms. */
const WORKER = {
  schema_version: 1,
  request_id: "42",
  status: "complete",
  phases: {
    server: {
      first_iter: 3,
      last_iter: 9,
      timing_metrics: {
        arrival_time: 100.002,
        first_scheduled_time: 100.01,
        first_token_time: 100.05,
        last_token_time: 101.0,
        kv_cache_transfer_start: null,
        kv_cache_transfer_end: null,
        kv_cache_size: 0,
        server_arrival_time: 100.0,
        server_first_token_time: 100.051,
      },
      kv_cache_metrics: {
        num_total_allocated_blocks: 10,
        num_new_allocated_blocks: 6,
        num_reused_blocks: 4,
        num_missed_blocks: 6,
        kv_cache_hit_rate: 0.4,
      },
    },
  },
  worker: { server_kind: "server", pid: 7 },
  metrics_headers: {},
};

/** A disagg server's combined record; its ctx and gen phases rebuilt from the workers' headers. */
const DISAGG = {
  schema_version: 1,
  request_id: "7",
  status: "complete",
  phases: {
    disagg: {
      timing_metrics: {
        server_arrival_time: 200.0,
        ctx_dispatch_time: 200.0005,
        server_first_token_time: 200.08,
      },
      ctx_server: "http://ctx0:8001",
      gen_server: "http://gen0:8002",
    },
    ctx: {
      metrics_headers: {},
      timing_metrics: {
        arrival_time: 200.003,
        first_scheduled_time: 200.008,
        first_token_time: 200.048,
        last_token_time: 200.048,
      },
      request_id: "ctx-7",
      ctx_request_id: 7,
    },
    gen: {
      metrics_headers: {},
      timing_metrics: {
        arrival_time: 200.06,
        first_scheduled_time: 200.07,
        first_token_time: 200.075,
        last_token_time: 201.075,
      },
      request_id: "gen-7",
      ctx_request_id: 7,
    },
  },
  disagg_request_id: 7,
};

const line = (v: unknown) => JSON.stringify(v) + "\n";

describe("phase-keyed records whose stamps map onto the spans", () => {
  it("are detected as TensorRT-LLM perf metrics, also when the first line outgrows the head", () => {
    expect(detectKind(Buffer.from(line(WORKER) + line(WORKER)), true)).toEqual({
      kind: "trtllm-perf-metrics",
      format: "jsonl",
    });
    // A first line cut by the head before any `timing_metrics` key: `phases` beside
    // `schema_version` decides.
    const cut = Buffer.from(JSON.stringify(WORKER).slice(0, 90));
    expect(cut.toString()).not.toContain("timing_metrics");
    expect(detectKind(cut, false)).toEqual({ kind: "trtllm-perf-metrics", format: "jsonl" });
  });

  it("a worker's `server` phase gives its spans, pinned by hand", async () => {
    const run = await analyzeTrtllm([trtllmTextFile("perf_metrics-server-h-7-x.jsonl", line(WORKER))]);
    expect(run.reports[0]).toMatchObject({ records: 1, skipped: 0, warnings: [] });
    const tb = run.result.timeBreakdown!;
    expect(tb.mode).toBe("aggregated");
    // server arrival 100.000 → arrival 100.002 → scheduled 100.010 → first token 100.050 →
    // server first token 100.051; last token 101.000 (decode from the server's first response).
    expect(segment(run, "ctx_preprocessing").meanMs).toBeCloseTo(2, 9);
    expect(segment(run, "ctx_queue").meanMs).toBeCloseTo(8, 9);
    expect(segment(run, "ctx_processing").meanMs).toBeCloseTo(40, 9);
    expect(segment(run, "ctx_postprocessing").meanMs).toBeCloseTo(1, 9);
    expect(segment(run, "decode").meanMs).toBeCloseTo(949, 9);
    // 4 reused of 4 + 6 blocks; the record's own kv_cache_hit_rate is not needed.
    expect(tb.kvCacheHitRate).toBeCloseTo(0.4, 12);
  });

  it("a disagg server's combined record gives the spans its header-derived phases carry", async () => {
    const run = await analyzeTrtllm([trtllmTextFile("perf_metrics-disagg-h-7-x.jsonl", line(DISAGG))]);
    expect(run.reports[0]).toMatchObject({ records: 1, skipped: 0, warnings: [] });
    expect(run.result.timeBreakdown!.mode).toBe("disaggregated");
    expect(segment(run, "ctx_queue").meanMs).toBeCloseTo(5, 9);
    expect(segment(run, "ctx_processing").meanMs).toBeCloseTo(40, 9);
    // No KV-transfer stamps travel in the headers: arrival → first scheduling is the queue.
    expect(segment(run, "gen_queue").meanMs).toBeCloseTo(10, 9);
    expect(segment(run, "decode").meanMs).toBeCloseTo(1000, 9);
    // Server arrival stamps do not travel in these headers: those spans are not recorded, not 0.
    expect(segment(run, "disagg_preprocessing")).toMatchObject({ count: 0, meanMs: null });
    expect(segment(run, "ctx_preprocessing")).toMatchObject({ count: 0, meanMs: null });
  });

  it("a generated run written as phase-keyed records breaks down exactly as the released JSONL", async () => {
    for (const mode of ["aggregated", "disaggregated"] as const) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-phases-"));
      const gen = generateTrtllmRun({ dir, mode, requests: 40, seed: 5, ctxWorkers: 2, genWorkers: 1 });
      const released = await analyzeTrtllm(gen.files.map((f, i) => trtllmDiskFile(f, i)));
      const phased = await analyzeTrtllm(
        gen.files.map((f, i) => {
          const records = readRecords(f).map((r) =>
            "ctx_perf_metrics" in r || "gen_perf_metrics" in r ? phaseKeyedDisagg(r) : phaseKeyedWorker(r),
          );
          return trtllmTextFile(path.basename(f), jsonl(records), i);
        }),
      );
      for (const [i, report] of phased.reports.entries())
        expect(report, `${mode} file ${i}`).toMatchObject({
          records: released.reports[i].records,
          skipped: 0,
        });
      const want = released.result.timeBreakdown!;
      const got = phased.result.timeBreakdown!;
      expect(got.requestCount, mode).toBe(want.requestCount);
      expect(got.kvCacheHitRate, mode).toBe(want.kvCacheHitRate);
      for (const s of want.segments) {
        const g = got.segments.find((x) => x.name === s.name)!;
        expect(g.count, `${mode} ${s.name}`).toBe(s.count);
        if (s.meanMs !== null) expect(g.meanMs!, `${mode} ${s.name}`).toBeCloseTo(s.meanMs, 6);
      }
    }
  });
});

describe("phase-keyed records that do not map unambiguously are refused with the reason", () => {
  const refusal = (v: unknown) => {
    const parsed = parseTrtllmRecord(v);
    return "error" in parsed ? parsed.error : null;
  };
  const withPhases = (phases: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...WORKER,
    phases,
    ...extra,
  });
  const server = WORKER.phases.server;

  it("names the producer, the schema version and what is wrong", () => {
    expect(refusal({ ...WORKER, schema_version: 2 })).toBe(
      "TensorRT-LLM phase-keyed perf-metrics record (schema_version 2): only schema_version 1 is known, so its stamps cannot be placed",
    );
    expect(refusal(withPhases({ server, mme: {} }))).toBe(
      "TensorRT-LLM phase-keyed perf-metrics record (schema_version 1): unknown phase `mme`",
    );
    expect(refusal(withPhases({ server, gen: DISAGG.phases.gen }))).toBe(
      "TensorRT-LLM phase-keyed perf-metrics record (schema_version 1): a `server` phase beside gen gives the request two timelines",
    );
    expect(refusal(withPhases({ gen: DISAGG.phases.gen }))).toBe(
      "TensorRT-LLM phase-keyed perf-metrics record (schema_version 1): gen phase without a `disagg` or `server` phase, so no server is known to have written them",
    );
    expect(refusal(withPhases({ disagg: DISAGG.phases.disagg }))).toBe(
      "TensorRT-LLM phase-keyed perf-metrics record (schema_version 1): a `disagg` phase without `ctx` or `gen` phases",
    );
    expect(refusal(withPhases({ server: 3 }))).toBe(
      "TensorRT-LLM phase-keyed perf-metrics record (schema_version 1): phase `server` is not an object",
    );
  });

  it("skips a refused line with its number and the message, keeping the rest", async () => {
    const text =
      line(WORKER) + line({ ...WORKER, schema_version: 2 }) + line({ ...WORKER, request_id: "43" });
    const run = await analyzeTrtllm([trtllmTextFile("perf_metrics-server-h-7-x.jsonl", text)]);
    expect(run.reports[0]).toMatchObject({ records: 2, skipped: 1 });
    expect(run.reports[0].warnings).toEqual([
      {
        line: 2,
        message:
          "skipped: TensorRT-LLM phase-keyed perf-metrics record (schema_version 2): only schema_version 1 is known, so its stamps cannot be placed",
      },
    ]);
    expect(run.result.timeBreakdown!.requestCount).toBe(2);
  });
});
