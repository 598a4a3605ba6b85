import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeTrtllm, trtllmDiskFile, trtllmTextFile, TRTLLM_FIXTURES } from "../generators/trtllm-ingest";
import { DISAGG_SEGMENTS } from "../generators/trtllm.mjs";
import { storedTrtllmRows } from "../helpers/trtllm-request-rows";

const fixture = (name: string, ord = 0) => trtllmDiskFile(path.join(TRTLLM_FIXTURES, name), ord);

describe("trtllm analyzer on the shared fixtures", () => {
  it("measures the reconstructed disagg record's twelve spans as exactly 1…12 ms", async () => {
    const run = await analyzeTrtllm([fixture("perf_metrics-disagg-reconstructed.jsonl")]);
    const tb = run.result.timeBreakdown!;
    expect(tb.mode).toBe("disaggregated");
    expect(tb.requestCount).toBe(1);
    // Every disaggregated segment but decode, in lifecycle order; the record has transfer
    // stamps, so gen_queue (which stands in for the transfer spans) is not recorded.
    expect(tb.segments.find((s) => s.name === "gen_queue")).toMatchObject({ count: 0, meanMs: null });
    const spans = tb.segments.filter((s) => s.name !== "gen_queue").slice(0, 12);
    expect(spans.map((s) => s.name)).toEqual(
      DISAGG_SEGMENTS.filter((name) => name !== "decode" && name !== "gen_queue"),
    );
    spans.forEach((s, i) => {
      expect(s.count).toBe(1);
      expect(s.p50Ms).toBeCloseTo(i + 1, 6);
      expect(s.meanMs).toBeCloseTo(i + 1, 6);
    });
    // decode = gen first token (1000.066) → gen last token (1000.2)
    expect(tb.segments[13].name).toBe("decode");
    expect(tb.segments[13].p50Ms).toBeCloseTo(134, 6);
    // No kv_cache_size in header-transported records: no transfer block, no hit rate.
    expect(tb.kvTransfer).toBeNull();
    expect(tb.kvCacheHitRate).toBeNull();
    expect(run.result.endpoints).toEqual([
      { endpoint: "ctx0:8001", role: "prefill", requestCount: 1, kvCacheHitRate: null },
      { endpoint: "gen0:8002", role: "decode", requestCount: 1, kvCacheHitRate: null },
    ]);
    const rows = await storedTrtllmRows(run.handle.db, run.ctx.runId);
    expect(rows).toHaveLength(1);
    expect(rows[0].ttft_ms).toBeCloseTo(78, 6);
    // E2E = TTFT (78) + gen server first response (66) → gen last token (200): the last token
    // counted to the disagg server's relay, where TTFT ends, not to the engine's stamp.
    expect(rows[0].e2e_ms).toBeCloseTo(78 + 134, 6);
    expect(JSON.parse(rows[0].times_json).disaggArrival).toBe(0);
  });

  it("reads the pre-refactor aggregated JSON array", async () => {
    const run = await analyzeTrtllm([fixture("time_breakdown_readme_aggregated.json")]);
    const tb = run.result.timeBreakdown!;
    expect(tb.mode).toBe("aggregated");
    expect(tb.segments.map((s) => s.name)).toEqual([
      "ctx_preprocessing",
      "ctx_queue",
      "ctx_processing",
      "ctx_postprocessing",
      "decode",
    ]);
    expect(tb.segments[0].p50Ms).toBeCloseTo(2, 6);
    expect(tb.segments[1].p50Ms).toBeCloseTo(3, 6);
    expect(tb.segments[2].p50Ms).toBeCloseTo(20, 6);
    expect(tb.segments[3].p50Ms).toBeCloseTo(2, 6);
    // No last_token_time: decode is not recorded, never 0.
    expect(tb.segments[4]).toMatchObject({ count: 0, p50Ms: null, meanMs: null });
  });

  it("reads the pre-refactor disaggregated JSON array", async () => {
    const run = await analyzeTrtllm([fixture("time_breakdown_readme_disaggregated.json")]);
    const tb = run.result.timeBreakdown!;
    expect(tb.mode).toBe("disaggregated");
    const byName = Object.fromEntries(tb.segments.map((s) => [s.name, s]));
    expect(byName.disagg_preprocessing.p50Ms).toBeCloseTo(5, 6);
    expect(byName.ctx_queue.p50Ms).toBeCloseTo(5, 6);
    expect(byName.disagg_relay.p50Ms).toBeCloseTo(12, 6);
    expect(byName.disagg_postprocessing.p50Ms).toBeCloseTo(7, 6);
    // No KV transfer stamps in that README example: those spans are not recorded.
    expect(byName.gen_kv_transfer.count).toBe(0);
    expect(byName.gen_queue_wait.p50Ms).toBeNull();
    // Without them, gen arrival → first scheduling is the time-breakdown tool's gen_queue.
    expect(byName.gen_queue.p50Ms).toBeCloseTo(3, 6);
  });

  it("takes the illustrative gen worker's KV numbers", async () => {
    const run = await analyzeTrtllm([fixture("illustrative-perf_metrics-server-gen-worker.jsonl")]);
    const tb = run.result.timeBreakdown!;
    expect(tb.kvCacheHitRate).toBeCloseTo(90 / 95, 12);
    expect(tb.kvTransfer?.count).toBe(1);
    expect(tb.kvTransfer?.bytes?.p50).toBe(2048576);
    // 2,048,576 bytes over 5 ms = 0.4097152 GB/s
    expect(tb.kvTransfer?.bandwidthGBps?.p50).toBeCloseTo(2048576 / 0.005 / 1e9, 3);
  });

  it("reads a bare RequestPerfMetrics object as one decode-side record", async () => {
    const run = await analyzeTrtllm([fixture("dynamo_doc_request_perf_metrics.json")]);
    const tb = run.result.timeBreakdown!;
    expect(run.reports[0]).toMatchObject({ records: 1, skipped: 0, meta: { role: "decode" } });
    const byName = Object.fromEntries(tb.segments.map((s) => [s.name, s]));
    // Epoch-sized seconds keep only ~0.2 µs of precision.
    expect(byName.gen_queue_wait.p50Ms).toBeCloseTo(17, 2);
    expect(byName.gen_kv_transfer.p50Ms).toBeCloseTo(5, 2);
    // The doc's illustrative stamps schedule 10 ms before the transfer ends: excluded, not 0.
    expect(byName.gen_post_transfer.count).toBe(0);
    expect(run.result.warnings!.some((w) => /gen_post_transfer: 1 request/.test(w))).toBe(true);
    expect(byName.decode.p50Ms).toBeCloseTo(150, 2);
    expect(tb.kvCacheHitRate).toBeCloseTo(90 / 95, 12);
  });

  it("reads the post-refactor aggregated worker file with step metrics", async () => {
    const run = await analyzeTrtllm([fixture("perf_metrics-server-reconstructed-aggregated.jsonl")]);
    expect(run.result.timeBreakdown?.mode).toBe("aggregated");
    expect(run.result.requestCount).toBe(2);
    expect(run.result.collectors).toEqual({ returnPerfMetrics: true });
    expect(run.reports[0].meta?.role).toBe("combined");
    expect(run.result.endpoints).toEqual([
      {
        endpoint: "perf_metrics-server-reconstructed-aggregated",
        role: "combined",
        requestCount: 2,
        kvCacheHitRate: null,
      },
    ]);
  });
});

describe("trtllm analyzer on an absurd arrival stamp", () => {
  it("leaves a request whose arrival converts to Infinity out of the segment-share buckets", async () => {
    const record = (id: number, arrival: number) =>
      JSON.stringify({
        request_id: id,
        perf_metrics: {
          timing_metrics: {
            arrival_time: arrival,
            first_scheduled_time: 1.01,
            first_token_time: 1.02,
            last_token_time: 1.05,
          },
        },
      });
    // 1.8e301 s is finite, but in milliseconds it overflows to Infinity.
    const run = await analyzeTrtllm([
      trtllmTextFile("perf_metrics-0.jsonl", [record(1, 1.0), record(2, 1.8e301)].join("\n") + "\n"),
    ]);
    const share = run.result.charts!["trtllm-segment-share"] as { buckets: Array<{ requests: number }> };
    expect(share.buckets.reduce((a, b) => a + b.requests, 0)).toBe(1);
  });
});
