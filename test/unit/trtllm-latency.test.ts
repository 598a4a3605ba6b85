/**
 * TTFT, E2E and TPOT of TensorRT-LLM runs (docs/metrics.md §Request latency from perf metrics).
 * Runs come from test/generators/trtllm-latency.mjs (records as tensorrt_llm/serve/perf_metrics.py
 * builds them, steps as the time-breakdown tool reads them) and test/generators/trtllm.mjs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Distribution } from "@/lib/api/aiperf-charts";
import { type TrtllmLatencyOverTimePayload } from "@/lib/api/trtllm-charts";
import { computeStats } from "@/lib/metrics/stats";
import { outputTokensOf, tpotMs, TrtllmLatencyColumns } from "@/lib/metrics/trtllm-latency";
import { writeLatencyRun, type RequestSpec } from "../generators/trtllm-latency.mjs";
import { DISAGG_SEGMENTS, generateTrtllmRun } from "../generators/trtllm.mjs";
import { analyzeTrtllm, trtllmDiskFile } from "../generators/trtllm-ingest";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-latency-"));

// Five requests. Sorted TTFT 80, 100, 120, 200, 500; sorted E2E 600, 880, 1,120, 2,200, 5,500.
// Output tokens = 1 + steps (+ accepted drafts): TPOT = (E2E − TTFT) / (tokens − 1) =
// 1,000/100 = 10, 800/40 = 20, none (no steps), 500/125 = 4, 5,000/(100 + 400) = 10.
const REQUESTS: RequestSpec[] = [
  { ttftMs: 120, e2eMs: 1120, steps: 100 },
  { ttftMs: 80, e2eMs: 880, steps: 40 },
  { ttftMs: 200, e2eMs: 2200, steps: 0 },
  { ttftMs: 100, e2eMs: 600, steps: 125 },
  { ttftMs: 500, e2eMs: 5500, steps: 100, acceptedDraftTokens: 400 },
];

async function analyzeSpec(mode: "aggregated" | "disaggregated", requests = REQUESTS) {
  const file = writeLatencyRun({ dir: tmp(), mode, requests });
  return analyzeTrtllm([trtllmDiskFile(file)]);
}

describe("request latency from perf metrics", () => {
  for (const mode of ["disaggregated", "aggregated"] as const) {
    it(`pins TTFT, E2E and TPOT p50/p75/p99 by hand (${mode})`, async () => {
      const run = await analyzeSpec(mode);
      const l = run.result.timeBreakdown!.latency!;
      // Linear interpolation between closest ranks: p75 of 5 is rank 3; p99 is rank 3.96.
      expect(l.ttftMs!.count).toBe(5);
      expect(l.ttftMs!.p50).toBeCloseTo(120, 6);
      expect(l.ttftMs!.p75).toBeCloseTo(200, 6);
      expect(l.ttftMs!.p99).toBeCloseTo(200 + 0.96 * 300, 6);
      expect(l.e2eMs!.p50).toBeCloseTo(1120, 6);
      expect(l.e2eMs!.p75).toBeCloseTo(2200, 6);
      expect(l.e2eMs!.p99).toBeCloseTo(2200 + 0.96 * 3300, 6);
      // TPOT over 4 requests, sorted 4, 10, 10, 20: p50 rank 1.5, p75 rank 2.25, p99 rank 2.97.
      expect(l.tpotMs!.count).toBe(4);
      expect(l.tokensKnown).toBe(4);
      expect(l.tpotMs!.p50).toBeCloseTo(10, 6);
      expect(l.tpotMs!.p75).toBeCloseTo(12.5, 6);
      expect(l.tpotMs!.p99).toBeCloseTo(19.7, 6);
    });
  }

  it("stores the distribution in the aiperf payload shape, and each request's point at its arrival", async () => {
    const run = await analyzeSpec("disaggregated");
    const dist = run.result.charts![TRTLLM_CHARTS.latencyDistribution.key] as {
      metrics: Record<string, Distribution | null>;
    };
    const ttft = dist.metrics.ttftMs!;
    expect(ttft.count).toBe(5);
    expect([ttft.min, ttft.max]).toEqual([expect.closeTo(80, 6), expect.closeTo(500, 6)]);
    expect(ttft.p75).toBeCloseTo(200, 6);
    expect(ttft.bins.reduce((a, b) => a + b.count, 0)).toBe(5);
    expect(ttft.cdf.at(-1)!.fraction).toBe(1);
    expect(dist.metrics.tpotMs!.count).toBe(4);
    const over = run.result.charts![TRTLLM_CHARTS.latencyOverTime.key] as TrtllmLatencyOverTimePayload;
    expect(over.total).toBe(5);
    expect(over.points.map((p) => p.tS)).toEqual([0, 0.25, 0.5, 0.75, 1].map((t) => expect.closeTo(t, 6)));
    // The request without steps has TTFT and E2E but no TPOT: null, never 0.
    expect(over.points[2]).toMatchObject({ ttftMs: expect.closeTo(200, 6), tpotMs: null });
  });

  it("has no TPOT at all when no request carries generation steps, and says so by null", async () => {
    const run = await analyzeSpec(
      "disaggregated",
      REQUESTS.map((r) => ({ ttftMs: r.ttftMs, e2eMs: r.e2eMs, steps: 0 })),
    );
    const l = run.result.timeBreakdown!.latency!;
    expect(l.ttftMs!.count).toBe(5);
    expect(l.tpotMs).toBeNull();
    expect(l.tokensKnown).toBe(0);
    const dist = run.result.charts![TRTLLM_CHARTS.latencyDistribution.key] as {
      metrics: Record<string, Distribution | null>;
    };
    expect(dist.metrics.tpotMs).toBeNull();
  });

  it("TPOT needs more than one output token; tokens are unknown without steps", () => {
    expect(outputTokensOf(0, null)).toBeNull();
    expect(outputTokensOf(9, null)).toBe(10);
    expect(outputTokensOf(9, { acceptedDraftTokens: 5, draftTokens: 12 })).toBe(15);
    expect(tpotMs(100, 1100, 11)).toBe(100);
    expect(tpotMs(100, 1100, 1)).toBeNull();
    expect(tpotMs(null, 1100, 11)).toBeNull();
    expect(tpotMs(100, 1100, null)).toBeNull();
  });

  it("matches the generator's truth on a 300-request disaggregated run (TTFT = the tiled segments)", async () => {
    const dir = tmp();
    const steps = 8;
    const gen = generateTrtllmRun({
      dir,
      mode: "disaggregated",
      requests: 300,
      seed: 7,
      stepsPerRequest: steps,
    });
    const run = await analyzeTrtllm(gen.files.map((f, i) => trtllmDiskFile(f, i)));
    const s = gen.truth.segments as Record<string, number[]>;
    // test/generators/trtllm.mjs lays each request out stamp after stamp: the disagg server's
    // first token closes the tiled segments, and the gen server's last token comes `decode` after
    // its first response.
    // Every tiled segment up to gen_post_transfer (gen_queue stands in for the three transfer
    // spans only where those stamps are absent, so it is not added beside them).
    const tiled = DISAGG_SEGMENTS.slice(0, DISAGG_SEGMENTS.indexOf("gen_post_transfer") + 1).filter(
      (k) => k !== "gen_queue",
    );
    const upToGenSched = (i: number) => tiled.reduce((a, k) => a + s[k][i], 0);
    const ttft = s.decode.map(
      (_, i) => upToGenSched(i) + s.gen_postprocessing[i] + s.disagg_postprocessing[i],
    );
    // E2E = TTFT + the gen server's first response → its last token, which is `decode`.
    const e2e = s.decode.map((_, i) => ttft[i] + s.decode[i]);
    const tpot = e2e.map((e, i) => (e - ttft[i]) / steps);
    const l = run.result.timeBreakdown!.latency!;
    for (const [got, values] of [
      [l.ttftMs, ttft],
      [l.e2eMs, e2e],
      [l.tpotMs, tpot],
    ] as const) {
      const want = computeStats(values)!;
      expect(got!.count).toBe(300);
      expect(got!.p50).toBeCloseTo(want.p50, 6);
      expect(got!.p75).toBeCloseTo(want.p75, 6);
      expect(got!.p99).toBeCloseTo(want.p99, 6);
    }
  });

  it("keeps the over-time sample at 2,000 points on a large run, spread over its arrivals", () => {
    const n = 50_000;
    const cols = new TrtllmLatencyColumns(n);
    const arrivals = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      // Stored out of arrival order: the sample must follow arrivals, not storage.
      arrivals[i] = ((i * 7919) % n) * 10;
      cols.set(i, 100, 1000, i % 2 ? 10 : null);
    }
    const over = cols.overTime(arrivals);
    expect(over.total).toBe(n);
    expect(over.points).toHaveLength(2000);
    const t = over.points.map((p) => p.tS);
    expect(t).toEqual([...t].sort((a, b) => a - b));
    expect(t[0]).toBe(0);
    expect(t.at(-1)).toBeCloseTo(((n - 25) * 10) / 1000, 6);
    const { block } = cols.summarize();
    expect(block.tpotMs!.count).toBe(n / 2);
    expect(block.tpotMs!.p50).toBeCloseTo(100, 9);
  });
});
