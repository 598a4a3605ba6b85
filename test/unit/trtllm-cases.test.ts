import { describe, expect, it } from "vitest";
import { parseTrtllmRecord, type TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { segmentDurationMs, segmentStats } from "@/lib/metrics/time-breakdown";
import { estimateClockOffset } from "@/lib/metrics/trtllm-clock-offset";
import { BlockTally, requestHitRate, transferBandwidthGBps } from "@/lib/metrics/trtllm-kv";
import { analyzeTrtllm, trtllmTextFile } from "../generators/trtllm-ingest";

const worker = (timing: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ request_id: 1, perf_metrics: { timing_metrics: timing }, status: "complete", ...extra });

const full = {
  server_arrival_time: 10.0,
  arrival_time: 10.002,
  first_scheduled_time: 10.005,
  first_token_time: 10.025,
  server_first_token_time: 10.027,
  last_token_time: 10.5,
};

describe("segment durations", () => {
  it("treats absent, null, 0, negative and NaN timestamps as not recorded", () => {
    for (const bad of [undefined, null, 0, -1, "NaN"]) {
      const parsed = parseTrtllmRecord(JSON.parse(worker({ ...full, first_scheduled_time: bad })));
      const rec = (parsed as { record: TrtllmWorkerRecord }).record;
      expect(rec.timing.firstScheduled, String(bad)).toBeNull();
    }
  });

  it("clamps skew down to −5 ms to 0 and excludes anything more negative", () => {
    expect(segmentDurationMs(10, 10.003)).toBeCloseTo(3, 9);
    expect(segmentDurationMs(10.003, 10)).toBe(0);
    expect(segmentDurationMs(10.005, 10)).toBe(0);
    expect(segmentDurationMs(10.02, 10)).toEqual({ excludedMs: expect.closeTo(-20, 6) });
    expect(segmentDurationMs(null, 10)).toBeNull();
  });

  it("leaves excluded and not-recorded values out of the statistics and warns about large negatives", () => {
    const res = segmentStats("aggregated", [
      [1, 2, 10, null, 100],
      [3, { excludedMs: -50 }, 20, null, 200],
      [5, 4, 30, 0, 300],
    ]);
    expect(res.segments[0]).toMatchObject({ count: 3, meanMs: 3, p50Ms: 3 });
    expect(res.segments[1]).toMatchObject({ count: 2, meanMs: 3 });
    expect(res.segments[3]).toMatchObject({ count: 1, meanMs: 0 });
    // numpy: np.percentile([10,20,30], 90) == 28
    expect(res.segments[2].p90Ms).toBeCloseTo(28, 9);
    expect(res.excluded).toEqual([0, 1, 0, 0, 0]);
    expect(res.warnings).toHaveLength(1);
    expect(res.warnings[0]).toMatch(/ctx_queue: 1 request/);
  });

  it("excludes a null decode end in an ingested file instead of counting 0", async () => {
    const run = await analyzeTrtllm([
      trtllmTextFile(
        "a.jsonl",
        [
          worker(full),
          worker({ ...full, last_token_time: null }),
          worker({ ...full, last_token_time: 0 }),
        ].join("\n") + "\n",
      ),
    ]);
    const decode = run.result.timeBreakdown!.segments.find((s) => s.name === "decode")!;
    expect(decode).toMatchObject({ count: 1 });
    // From the server's first response (10.027) to the last token (10.5).
    expect(decode.p50Ms).toBeCloseTo(473, 6);
  });

  it("warns and excludes a large negative span from an ingested file", async () => {
    const run = await analyzeTrtllm([
      trtllmTextFile(
        "skew.jsonl",
        [worker(full), worker({ ...full, arrival_time: 9.997 }), worker({ ...full, arrival_time: 9.9 })].join(
          "\n",
        ) + "\n",
      ),
    ]);
    const pre = run.result.timeBreakdown!.segments[0];
    expect(pre.count).toBe(2);
    expect(pre.p50Ms).toBeCloseTo(1, 6); // values 2 and 0 (−3 ms clamped)
    expect(run.result.warnings!.some((w) => /ctx_preprocessing: 1 request/.test(w))).toBe(true);
  });
});

describe("file forms", () => {
  it("unwraps {record: …} lines and skips a partial last line with its number, keeping the rest", async () => {
    const text = [
      JSON.stringify({ record: JSON.parse(worker(full)) }),
      "not json",
      worker(full),
      '{"request_id":3,"perf',
    ].join("\n");
    const run = await analyzeTrtllm([trtllmTextFile("wrapped.jsonl", text)]);
    expect(run.reports[0].records).toBe(2);
    expect(run.reports[0].skipped).toBe(2);
    expect(run.reports[0].warnings).toEqual([
      { line: 2, message: "skipped line: not valid JSON" },
      { line: 4, message: "skipped line: partial last line (file ends mid-record)" },
    ]);
    expect(run.result.timeBreakdown!.requestCount).toBe(2);
  });

  it("reads a pre-refactor /perf_metrics JSON array", async () => {
    const arr = [JSON.parse(worker(full)), JSON.parse(worker({ ...full, arrival_time: 10.004 }))];
    const run = await analyzeTrtllm([trtllmTextFile("perf.json", JSON.stringify(arr, null, 2))]);
    expect(run.result.timeBreakdown!.segments[0]).toMatchObject({ count: 2 });
    expect(run.result.timeBreakdown!.segments[0].meanMs).toBeCloseTo(3, 6);
  });
});

describe("joins and roles", () => {
  const disagg = (extra: Record<string, unknown>) =>
    JSON.stringify({
      ctx_server: "http://ctx0:8001",
      gen_server: "http://gen0:8002",
      disagg_server_arrival_time: 100,
      disagg_server_first_token_time: 100.05,
      ctx_perf_metrics: {
        request_id: 7,
        ctx_request_id: 7,
        perf_metrics: {
          timing_metrics: { arrival_time: 100.002, first_token_time: 100.02, last_token_time: 100.02 },
        },
      },
      gen_perf_metrics: {
        request_id: 9,
        ctx_request_id: 7,
        perf_metrics: {
          timing_metrics: { arrival_time: 100.03, first_token_time: 100.045, last_token_time: 100.3 },
        },
      },
      status: "complete",
      ...extra,
    });
  const ctxWorker = (extra: Record<string, unknown>) =>
    JSON.stringify({
      request_id: 7,
      ctx_request_id: 7,
      perf_metrics: {
        timing_metrics: {
          server_arrival_time: 100.001,
          arrival_time: 100.002,
          first_token_time: 100.02,
          last_token_time: 100.02,
        },
        kv_cache_metrics: {
          num_total_allocated_blocks: 10,
          num_new_allocated_blocks: 4,
          num_reused_blocks: 6,
          num_missed_blocks: 4,
        },
      },
      status: "complete",
      ...extra,
    });
  const genWorker = (extra: Record<string, unknown>) =>
    JSON.stringify({
      request_id: 9,
      ctx_request_id: 7,
      perf_metrics: {
        timing_metrics: {
          arrival_time: 100.03,
          kv_cache_size: 4_000_000,
          kv_cache_transfer_start: 100.032,
          kv_cache_transfer_end: 100.034,
          first_token_time: 100.045,
          last_token_time: 100.3,
        },
        kv_cache_metrics: {
          num_total_allocated_blocks: 10,
          num_new_allocated_blocks: 10,
          num_reused_blocks: 0,
          num_missed_blocks: 10,
        },
      },
      status: "complete",
      ...extra,
    });

  for (const [how, ids] of [
    ["disagg_request_id", { disagg_request_id: 55 }],
    ["ctx_request_id", {}],
  ] as const) {
    it(`joins worker records to the disagg record by ${how}`, async () => {
      const run = await analyzeTrtllm([
        trtllmTextFile("perf_metrics-server-a.jsonl", genWorker(ids) + "\n", 0),
        trtllmTextFile("perf_metrics-disagg-x.jsonl", disagg(ids) + "\n", 1),
        trtllmTextFile("perf_metrics-server-b.jsonl", ctxWorker(ids) + "\n", 2),
      ]);
      const tb = run.result.timeBreakdown!;
      expect(tb.requestCount).toBe(1);
      // Prefill-side blocks only: 6 / (6 + 4), not (6 + 0) / (6 + 4 + 0 + 10).
      expect(tb.kvCacheHitRate).toBeCloseTo(0.6, 12);
      // 4 MB in 2 ms = 2 GB/s
      expect(tb.kvTransfer!.bandwidthGBps!.p50).toBeCloseTo(2, 6);
      // ctx server arrival came from the worker file: disagg_preprocessing = 1 ms.
      expect(tb.segments[0].p50Ms).toBeCloseTo(1, 6);
      expect(run.reports.map((r) => r.meta?.role)).toEqual(["decode", "disagg-server", "prefill"]);
      expect(run.result.endpoints).toEqual([
        { endpoint: "ctx0:8001", role: "prefill", requestCount: 1, kvCacheHitRate: 0.6 },
        { endpoint: "gen0:8002", role: "decode", requestCount: 1, kvCacheHitRate: 0 },
      ]);
      const joins = run.result.info?.["TRT-LLM joins"];
      expect(joins).toBe(
        how === "disagg_request_id"
          ? "2 by disagg_request_id, 0 by ctx_request_id"
          : "0 by disagg_request_id, 2 by ctx_request_id",
      );
    });
  }

  it("leaves aggregated records out of a disaggregated run, with a warning", async () => {
    const run = await analyzeTrtllm([
      trtllmTextFile("perf_metrics-disagg-x.jsonl", disagg({ disagg_request_id: 1 }) + "\n", 0),
      trtllmTextFile("perf_metrics-server-agg.jsonl", [worker(full), worker(full)].join("\n") + "\n", 1),
    ]);
    expect(run.result.timeBreakdown!.mode).toBe("disaggregated");
    expect(run.result.timeBreakdown!.requestCount).toBe(1);
    expect(run.result.requestCount).toBe(3);
    expect(run.result.warnings!.some((w) => /2 aggregated worker records.*left out/.test(w))).toBe(true);
  });
});

describe("KV and clock formulas", () => {
  it("hit rate per request and block-weighted over requests", () => {
    expect(requestHitRate({ total: 0, newlyAllocated: 0, reused: 0, missed: 0 })).toBe(0);
    expect(requestHitRate({ total: 4, newlyAllocated: 1, reused: 3, missed: 1 })).toBe(0.75);
    const t = new BlockTally();
    t.add({ total: 4, newlyAllocated: 1, reused: 3, missed: 1 });
    t.add({ total: 96, newlyAllocated: 96, reused: 0, missed: 96 });
    // Mean of ratios would be 0.375; block-weighted is 3/100.
    expect(t.hitRate()).toBeCloseTo(0.03, 12);
    expect(new BlockTally().hitRate()).toBeNull();
  });

  it("bandwidth needs bytes and a positive duration", () => {
    expect(transferBandwidthGBps(2e9, 1, 2)).toBe(2);
    expect(transferBandwidthGBps(2e9, 2, 2)).toBeNull();
    expect(transferBandwidthGBps(null, 1, 2)).toBeNull();
    expect(transferBandwidthGBps(2e9, null, 2)).toBeNull();
  });

  it("clock offset is the median of at least 3 samples", () => {
    expect(estimateClockOffset([5, 5])).toBeNull();
    expect(estimateClockOffset([294065.985, 294065.98501, 300000])).toBeCloseTo(294065.98501, 9);
  });
});
