import { describe, expect, it } from "vitest";
import { computeDistribution } from "@/lib/metrics/aiperf-distribution";
import { inFlightMax, niceBucketMs, timelinePayload } from "@/lib/metrics/aiperf-timeline";
import { energyDeltaJ, GpuTelemetry } from "@/lib/metrics/gpu-telemetry";
import { computeRequestsBlock } from "@/lib/metrics/requests";
import { FLAG_ERROR, FLAG_WARMUP, RequestLog, type RequestEntry } from "@/lib/metrics/requests-log";

const ms = (v: number) => BigInt(Math.round(v * 1e6)) + 1_700_000_000_000_000_000n;
function entry(startMs: number, endMs: number, extra: Partial<RequestEntry> = {}): RequestEntry {
  return {
    startNs: ms(startMs),
    endNs: ms(endMs),
    ttftMs: 10,
    e2eMs: endMs - startMs,
    itlMs: 1,
    inputTokens: 5,
    outputTokens: 4,
    flags: 0,
    ...extra,
  };
}

describe("requests block", () => {
  it("excludes warmup and error records from statistics but counts them", () => {
    const log = new RequestLog();
    log.push(entry(0, 1000, { flags: FLAG_WARMUP, e2eMs: 99999 }));
    log.push(entry(1000, 2000));
    log.push(entry(2000, 2500, { flags: FLAG_ERROR, e2eMs: 20000 }));
    log.push(entry(2500, 5000));
    const b = computeRequestsBlock(log);
    expect(b).toMatchObject({ count: 3, errorCount: 1, warmupCount: 0 + 1, durationS: 4 });
    expect(b.e2eMs).toMatchObject({ count: 2, mean: 1750, min: 1000, max: 2500 });
    // 2 successful requests in the 4 s window from the first profiling start to the last end.
    expect(b.requestThroughputPerS).toBe(0.5);
    expect(b.outputTokenThroughputPerS).toBe(2);
  });
});

describe("distribution", () => {
  it("bins 1..10 at round edges with the max in the last bin and exact markers", () => {
    const d = computeDistribution([10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 3)!;
    // Span 9 in at most 3 bins → a round width of 5 from 0: [0, 5) holds 1–4, [5, 10] holds 5–10.
    expect(d.bins.map((b) => [b.start, b.count])).toEqual([
      [0, 4],
      [5, 6],
    ]);
    expect(d.bins[1].end).toBe(10);
    expect(d.p50).toBe(5.5);
    expect(d.p90).toBeCloseTo(9.1, 12);
    expect(d.cdf[0]).toEqual({ value: 1, fraction: 0.1 });
    expect(d.cdf[d.cdf.length - 1]).toEqual({ value: 10, fraction: 1 });
  });
  it("keeps the CDF under 202 points for large inputs", () => {
    const d = computeDistribution(Array.from({ length: 100_000 }, (_, i) => i))!;
    expect(d.cdf.length).toBeLessThanOrEqual(202);
    expect(d.bins.reduce((a, b) => a + b.count, 0)).toBe(100_000);
  });
});

describe("timeline", () => {
  it("time-weights the in-flight average and finds the exact maximum", () => {
    // Two requests overlapping in [500, 1000) ms; with 1 ms buckets over 1.5 s.
    const log = new RequestLog();
    log.push(entry(0, 1000));
    log.push(entry(500, 1500));
    const t = timelinePayload(log, log.cols.startMs[0]);
    expect(t.bucketS).toBe(0.005);
    const at = (s: number) => t.points.find((p) => Math.abs(p.tS - s) < 1e-9)!;
    expect(at(0.2).inFlightAvg).toBeCloseTo(1, 9);
    expect(at(0.7).inFlightAvg).toBeCloseTo(2, 9);
    expect(at(0.7).inFlightMax).toBe(2);
    expect(at(1.2).inFlightMax).toBe(1);
  });
  it("spreads each request over its lifetime: a steady run reads 1 / E2E per slot, not a comb of completions", () => {
    // Concurrency 1, back to back: each request takes 1 s, so the server completes 1 req/s at
    // every instant. Counted where each ends, 5 ms buckets read 200 req/s at each end and 0 between.
    const log = new RequestLog();
    for (let i = 0; i < 4; i++) log.push(entry(i * 1000, (i + 1) * 1000));
    // A 2 s request that failed: 0.5 errors/s over its lifetime, never a request.
    log.push(entry(1000, 3000, { flags: FLAG_ERROR }));
    // A warm-up request counts in neither.
    log.push(entry(0, 500, { flags: FLAG_WARMUP }));
    const t = timelinePayload(log, log.cols.startMs[0]);
    expect(t.bucketS).toBe(0.02);
    const inside = t.points.filter((p) => p.tS < 3.98);
    expect(inside.every((p) => Math.abs(p.requestsPerS - 1) < 1e-9)).toBe(true);
    const at = (s: number) => t.points.find((p) => Math.abs(p.tS - s) < 1e-9)!;
    expect(at(0.5).errorsPerS).toBe(0);
    expect(at(1.5).errorsPerS).toBeCloseTo(0.5, 9);
    expect(at(3.5).errorsPerS).toBe(0);
    // The area is every request once: 4 successful, 1 failed.
    expect(t.points.reduce((a, p) => a + p.requestsPerS * t.bucketS, 0)).toBeCloseTo(4, 9);
    expect(t.points.reduce((a, p) => a + p.errorsPerS * t.bucketS, 0)).toBeCloseTo(1, 9);
  });
  // aiperf's dispersed throughput: ai-dynamo/aiperf src/aiperf/plot/core/data_preparation.py,
  // calculate_throughput_events — each request decodes at output tokens / (end − (start + TTFT))
  // from start + TTFT (the start when TTFT is absent) to its end; the plot is the sum of the rates.
  it("spreads output tokens over each request's decode window (dispersed throughput)", () => {
    const log = new RequestLog();
    // A: decodes 90 tokens over [102, 1002) ms = 100 tok/s. B: 40 tokens over [700, 1500) = 50 tok/s.
    log.push(entry(0, 1002, { ttftMs: 102, outputTokens: 90 }));
    log.push(entry(500, 1500, { ttftMs: 200, outputTokens: 40 }));
    // Neither a warm-up nor a failed request produces throughput.
    log.push(entry(100, 900, { flags: FLAG_WARMUP, outputTokens: 1000 }));
    log.push(entry(100, 900, { flags: FLAG_ERROR, outputTokens: 1000 }));
    const t = timelinePayload(log, log.cols.startMs[0]);
    expect(t.bucketS).toBe(0.005);
    const at = (s: number) => t.points.find((p) => Math.abs(p.tS - s) < 1e-9)!.outputTokensPerS;
    expect(at(0.05)).toBe(0); // A is still in prefill
    expect(at(0.1)).toBeCloseTo(60, 9); // [100, 105): A decodes 3 of the 5 ms → 100 × 3/5
    expect(at(0.4)).toBeCloseTo(100, 9); // A alone
    expect(at(0.8)).toBeCloseTo(150, 9); // A and B overlap: 100 + 50
    expect(at(1.0)).toBeCloseTo(90, 9); // [1000, 1005): A for 2 of the 5 ms (40) + B throughout (50)
    expect(at(1.2)).toBeCloseTo(50, 9); // B alone
    // Every token once: ∫ rate dt = 90 + 40.
    expect(t.points.reduce((a, p) => a + p.outputTokensPerS * t.bucketS, 0)).toBeCloseTo(130, 9);
  });
  it("reads exactly 0 where nothing decodes, never a float residue below it", () => {
    const log = new RequestLog();
    // The vLLM KV-offload example's records: rates such as 50 / 0.97 s and 40 / 0.768 s do not
    // cancel exactly in binary, and nothing decodes from 2.3 s to 2.535 s.
    log.push(entry(0, 1000, { ttftMs: 30, outputTokens: 50 }));
    log.push(entry(1500, 2700, { ttftMs: 35, outputTokens: 60 }));
    log.push(entry(500, 1300, { ttftMs: 32, outputTokens: 40 }));
    log.push(entry(2000, 3500, { ttftMs: 40, outputTokens: 70 }));
    log.push(entry(3000, 4100, { ttftMs: 33, outputTokens: 55 }));
    const t = timelinePayload(log, log.cols.startMs[0]);
    const gap = t.points.filter((p) => p.tS >= 1.3 && p.tS < 1.52);
    expect(gap.length).toBeGreaterThan(0);
    expect(gap.every((p) => p.outputTokensPerS === 0)).toBe(true);
    expect(t.points.every((p) => p.outputTokensPerS >= 0)).toBe(true);
  });
  it("decodes from the request start when TTFT is not recorded (non-streaming)", () => {
    const log = new RequestLog();
    log.push(entry(0, 1000, { ttftMs: null, outputTokens: 10 }));
    const t = timelinePayload(log, log.cols.startMs[0]);
    expect(t.points[0].outputTokensPerS).toBeCloseTo(10, 9);
    expect(t.points.at(-2)!.outputTokensPerS).toBeCloseTo(10, 9);
  });
  it("counts an end before a start at the same instant", () => {
    expect(Array.from(inFlightMax(Float64Array.of(0, 10), Float64Array.of(10, 20), 100, 1))).toEqual([1]);
  });
  it("picks 1-2-5 bucket widths", () => {
    expect([niceBucketMs(0.3), niceBucketMs(3), niceBucketMs(17), niceBucketMs(4000)]).toEqual([
      1, 5, 20, 5000,
    ]);
  });
});

describe("GPU energy", () => {
  it("sums energy over the window, counting a GPU seen by two exporters once", () => {
    const g = new GpuTelemetry();
    // Power agrees with each GPU's counter (GPU-1 +2 kJ/s, GPU-2 +1 kJ/s): either gives the energy.
    const powerOf: Record<string, number> = { "GPU-1": 2000, "GPU-2": 1000 };
    const sample = (src: string, uuid: string, mj: number) => ({
      timestampNs: 0n,
      source: src,
      gpuIndex: 0,
      gpuUuid: uuid,
      gpuModel: null,
      hostname: null,
      powerW: powerOf[uuid],
      utilizationPct: 50,
      memoryUsedGb: 10,
      energyMj: mj,
    });
    g.add(sample("http://a:9400/metrics", "GPU-1", 1.0), 0);
    g.add(sample("http://a:9400/metrics", "GPU-1", 1.002), 1000);
    g.add(sample("http://a:9400/metrics", "GPU-1", 1.004), 2000);
    g.add(sample("http://a:9402/metrics", "GPU-1", 1.0), 0);
    g.add(sample("http://a:9402/metrics", "GPU-1", 1.004), 2000);
    g.add(sample("http://a:9400/metrics", "GPU-2", 5.0), 0);
    g.add(sample("http://a:9400/metrics", "GPU-2", 5.001), 1000);
    // Window [0, 1000]: GPU-1 2 kJ + GPU-2 1 kJ = 3,000 J over 600 output tokens = 5 J/token.
    const p = g.payload(0, [0, 1000], 600);
    expect(p.energyJ).toBeCloseTo(3000, 6);
    expect(p.energyPerOutputTokenJ).toBeCloseTo(5, 9);
    expect(p.duplicateGpus).toBe(1);
    expect(p.gpus).toHaveLength(3);
    expect(p.distinctGpus).toBe(2);
    expect(p.overlapsWindow).toBe(true);
    // Samples at 0…2,000 ms: a window after them, or before them, does not overlap.
    expect(g.payload(0, [2001, 3000], 600).overlapsWindow).toBe(false);
    expect(g.payload(0, [-500, -1], 600).overlapsWindow).toBe(false);
    expect(g.payload(0, [2000, 3000], 600).overlapsWindow).toBe(true);
    expect(g.payload(0, null, null).overlapsWindow).toBeNull();
    expect(energyDeltaJ({ tMs: [0, 1], energyMj: [2, 1] }, [0, 1], null)).toBeNull();
  });
});
