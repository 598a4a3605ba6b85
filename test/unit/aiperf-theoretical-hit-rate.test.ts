import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { theoreticalCacheHitRate } from "@/lib/metrics/aiperf-theoretical-hit-rate";
import { fixture, idParams, uploadRequest, useTestApp } from "../helpers/test-app";

describe("aiperf theoretical prefix-cache hit rate", () => {
  it("is sum / count when aiperf gives both (schema 1.1+), in the unit's scale", () => {
    // 40 requests whose per-request hits add up to 30 (ratio) or 3,000 (percent): 0.75 either way.
    expect(theoreticalCacheHitRate({ unit: "ratio", avg: 0.7, count: 40, sum: 30 })).toBeCloseTo(0.75, 12);
    expect(theoreticalCacheHitRate({ unit: "%", avg: 70, count: 40, sum: 3000 })).toBeCloseTo(0.75, 12);
  });
  it("reads aiperf's block counts (sum = hit blocks, count = blocks) as a fraction though the unit is %", () => {
    // post_processors/theoretical_prefix_cache_accumulator.py: avg = 100 × hit / total, sum = hit, count = total.
    expect(theoreticalCacheHitRate({ unit: "%", avg: 90.75, count: 4000, sum: 3630 })).toBeCloseTo(
      0.9075,
      12,
    );
  });
  it("is the average, read as percent when the unit says so or it exceeds 1", () => {
    expect(theoreticalCacheHitRate({ unit: "%", avg: 97.45 })).toBeCloseTo(0.9745, 12);
    expect(theoreticalCacheHitRate({ unit: "ratio", avg: 0.42 })).toBeCloseTo(0.42, 12);
    expect(theoreticalCacheHitRate({ unit: undefined, avg: 42 })).toBeCloseTo(0.42, 12);
  });
  it("is null when absent", () => {
    expect(theoreticalCacheHitRate(undefined)).toBeNull();
    expect(theoreticalCacheHitRate({ unit: "%" })).toBeNull();
  });
});

describe("the run shows it beside the server-side rate", () => {
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ cleanup } = await useTestApp());
  });
  afterEach(async () => cleanup());

  it("lands in the run's info", async () => {
    const summary = JSON.parse(
      fs.readFileSync(fixture("aiperf/qwen-c4__profile_export_aiperf.json"), "utf8"),
    );
    summary.theoretical_prefix_cache_hit = { unit: "%", avg: 83.15 };
    const res = await upload(
      uploadRequest([{ name: "profile_export_aiperf.json", content: JSON.stringify(summary) }]),
    );
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const run = await (await getRun(new Request("http://localhost/x"), idParams(id))).json();
    expect(run.info.theoreticalCacheHitRate).toBeCloseTo(0.8315, 12);
  });
});
