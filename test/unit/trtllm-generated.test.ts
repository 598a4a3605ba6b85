import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { computeStats } from "@/lib/metrics/stats";
import { unpackSteps } from "@/lib/metrics/trtllm-steps";
import { type KvHitRatePayload, type StepsPayload } from "@/lib/api/trtllm-charts";
import { generateTrtllmRun, type GenerateOptions } from "../generators/trtllm.mjs";
import { analyzeTrtllm, trtllmDiskFile, type TrtllmRun } from "../generators/trtllm-ingest";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { storedTrtllmRows } from "../helpers/trtllm-request-rows";

async function generateAndAnalyze(opts: Omit<GenerateOptions, "dir">) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-gen-"));
  const gen = generateTrtllmRun({ dir, ...opts });
  // Worker files first: the analyzer must not depend on file order.
  const files = [...gen.files].reverse().map((f, i) => trtllmDiskFile(f, i));
  const run = await analyzeTrtllm(files);
  return { gen, run };
}

function expectSegmentsMatchTruth(truth: Record<string, Array<number | null>>, r: TrtllmRun) {
  const tb = r.result.timeBreakdown!;
  expect(tb.segments.map((s) => s.name)).toEqual(Object.keys(truth));
  for (const s of tb.segments) {
    const known = truth[s.name].filter((v): v is number => v !== null);
    expect(s.count, s.name).toBe(known.length);
    // A segment no request recorded (gen_queue beside transfer stamps) has no statistics.
    const want = computeStats(known);
    if (!want) {
      expect(s.meanMs, s.name).toBeNull();
      continue;
    }
    expect(s.meanMs!, s.name).toBeCloseTo(want.mean, 6);
    expect(s.p50Ms!, s.name).toBeCloseTo(want.p50, 6);
    expect(s.p90Ms!, s.name).toBeCloseTo(want.p90, 6);
    expect(s.p99Ms!, s.name).toBeCloseTo(want.p99, 6);
  }
}

describe("trtllm analyzer against generated runs with known truth", () => {
  it("disaggregated, 2 ctx + 2 gen workers, some ctx server_first_token_time not recorded", async () => {
    const { gen, run: r } = await generateAndAnalyze({
      mode: "disaggregated",
      requests: 600,
      seed: 7,
      ctxWorkers: 2,
      genWorkers: 2,
      dropServerFirstTokenRate: 0.1,
    });
    const tb = r.result.timeBreakdown!;
    expect(tb.mode).toBe("disaggregated");
    expect(tb.requestCount).toBe(600);
    expect(r.result.requestCount).toBe(600);
    expectSegmentsMatchTruth(gen.truth.segments, r);
    // Not-recorded values are excluded, never 0: those two segments have fewer values.
    const post = tb.segments.find((s) => s.name === "ctx_postprocessing")!;
    expect(post.count).toBeLessThan(600);
    expect(post.count).toBeGreaterThan(450);

    expect(tb.kvCacheHitRate).toBeCloseTo(gen.truth.kvHitRate, 12);
    const bytes = computeStats(gen.truth.transferBytes)!;
    const bw = computeStats(gen.truth.bandwidthGBps)!;
    expect(tb.kvTransfer!.count).toBe(600);
    expect(tb.kvTransfer!.bytes!.p50).toBeCloseTo(bytes.p50, 6);
    expect(tb.kvTransfer!.bandwidthGBps!.p90).toBeCloseTo(bw.p90, 3);

    // Roles come from content and joins, not file names.
    const roles = Object.fromEntries(
      r.reports.map((rep, i) => [path.basename([...gen.files].reverse()[i]), rep.meta?.role]),
    );
    for (const [name, role] of Object.entries(roles)) {
      if (name.includes("-ctx")) expect(role, name).toBe("prefill");
      if (name.includes("-gen")) expect(role, name).toBe("decode");
      if (name.includes("-disagg-")) expect(role, name).toBe("disagg-server");
    }

    const endpoints = Object.fromEntries(r.result.endpoints!.map((e) => [e.endpoint, e]));
    expect(Object.keys(endpoints).sort()).toEqual(["ctx0:8001", "ctx1:8001", "gen0:8002", "gen1:8002"]);
    expect(endpoints["ctx0:8001"]).toMatchObject({ role: "prefill", requestCount: 300 });
    const ctx0 = gen.truth.perWorker["perf_metrics-server-ctx0-100-20260101T000000Z"];
    expect(endpoints["ctx0:8001"].kvCacheHitRate).toBeCloseTo(ctx0.reused / (ctx0.reused + ctx0.missed), 12);
    expect(endpoints["gen1:8002"]).toMatchObject({ role: "decode", requestCount: 300, kvCacheHitRate: 0 });

    const hit = r.result.charts![TRTLLM_CHARTS.kvHitRate.key] as KvHitRatePayload;
    expect(hit.byRole.map((x) => x.role).sort()).toEqual(["decode", "prefill"]);
    expect(hit.byRole.find((x) => x.role === "prefill")!.hitRate).toBeCloseTo(gen.truth.kvHitRate, 12);

    // Each worker's step clock offset is recovered before steps are placed.
    const steps = r.result.charts![TRTLLM_CHARTS.steps.key] as StepsPayload;
    for (const o of steps.offsets)
      expect(o.offsetS!, o.source).toBeCloseTo(gen.truth.clockOffsetsS[o.source], 6);
    const fwd = computeStats(gen.truth.stepForwardMs)!;
    expect(steps.steps.forwardMs!.p50).toBeCloseTo(fwd.p50, 5);
    expect(steps.steps.forwardMs!.count).toBe(fwd.count);
    expect(r.result.collectors).toEqual({ returnPerfMetrics: true });

    // A step placed on the timeline lands inside its request's decode.
    const row = (await storedTrtllmRows(r.handle.db, r.ctx.runId))[3];
    const times = JSON.parse(row.times_json);
    const stepEntries = unpackSteps(JSON.parse(row.steps_json));
    const firstStep = stepEntries.find((s) => s.kind === "step")!;
    expect(firstStep.startMs).toBeGreaterThan(times.genFirstToken);
    expect(firstStep.startMs).toBeLessThan(times.genLastToken);
  });

  it("joins on ctx_request_id when disagg_request_id is absent", async () => {
    const { gen, run: r } = await generateAndAnalyze({
      mode: "disaggregated",
      requests: 200,
      seed: 3,
      joinBy: "ctx_request_id",
    });
    expectSegmentsMatchTruth(gen.truth.segments, r);
    expect(r.result.timeBreakdown!.kvCacheHitRate).toBeCloseTo(gen.truth.kvHitRate, 12);
    expect(r.result.info?.["TRT-LLM joins"]).toBe("0 by disagg_request_id, 400 by ctx_request_id");
  });

  it("aggregated, two workers", async () => {
    const { gen, run: r } = await generateAndAnalyze({ mode: "aggregated", requests: 300, seed: 11 });
    expect(r.result.timeBreakdown!.mode).toBe("aggregated");
    expectSegmentsMatchTruth(gen.truth.segments, r);
    expect(r.result.timeBreakdown!.kvCacheHitRate).toBeCloseTo(gen.truth.kvHitRate, 12);
    expect(r.result.timeBreakdown!.kvTransfer).toBeNull();
    expect(r.reports.map((x) => x.meta?.role)).toEqual(["combined", "combined"]);
    expect(r.result.endpoints!.map((e) => e.role)).toEqual(["combined", "combined"]);
    const steps = r.result.charts![TRTLLM_CHARTS.steps.key] as StepsPayload;
    for (const o of steps.offsets) expect(o.offsetS!).toBeCloseTo(gen.truth.clockOffsetsS[o.source], 6);
  });
});
