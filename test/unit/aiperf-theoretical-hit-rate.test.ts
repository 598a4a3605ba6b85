import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { theoreticalCacheHitRate } from "@/lib/metrics/aiperf-theoretical-hit-rate";
import { theoreticalPrefixCacheHit } from "../generators/aiperf-theoretical-prefix";
import { fixture, idParams, uploadRequest, useTestApp } from "../helpers/test-app";

describe("aiperf theoretical prefix-cache hit rate", () => {
  // Four profiled turns, hit / total blocks: 0/4, 3/4, 6/8, 8/8 → Σ 17 / 24 = 0.708333…
  const turns = [
    { hit: 0, total: 4 },
    { hit: 3, total: 4 },
    { hit: 6, total: 8 },
    { hit: 8, total: 8 },
  ];

  it("is Σ hit blocks / Σ total blocks (sum / count) from schema 1.1 on, though the unit is %", () => {
    const entry = theoreticalPrefixCacheHit(turns)!;
    expect(entry).toEqual({ unit: "%", avg: (100 * 17) / 24, count: 24, sum: 17 });
    expect(theoreticalCacheHitRate(entry)).toBeCloseTo(17 / 24, 12);
  });

  it("is the avg in percent / 100 on schema 1.0, which has no sum or count", () => {
    const entry = theoreticalPrefixCacheHit(turns, { schema: "1.0" })!;
    expect(entry).toEqual({ unit: "%", avg: (100 * 17) / 24 });
    expect(theoreticalCacheHitRate(entry)).toBeCloseTo(17 / 24, 12);
    // Below 1 %, as percent: 1 hit block of 400 is 0.25 %, a rate of 0.0025.
    expect(
      theoreticalCacheHitRate(theoreticalPrefixCacheHit([{ hit: 1, total: 400 }], { schema: "1.0" })),
    ).toBe(0.0025);
  });

  it("a loader's miscount above the total (accumulators before the per-turn clamp) is 100 %, not 1 %", () => {
    // 26 hit blocks stamped on 24: sum / count = 1.083…, which the later accumulator clamps per turn.
    const over = [...turns.slice(0, 3), { hit: 17, total: 8 }];
    const entry = theoreticalPrefixCacheHit(over, { clampTurns: false })!;
    expect(entry.sum! / entry.count!).toBeCloseTo(26 / 24, 12);
    expect(theoreticalCacheHitRate(entry)).toBe(1);
    // What the clamping accumulator writes for the same turns: (0 + 3 + 6 + 8) / 24.
    expect(theoreticalCacheHitRate(theoreticalPrefixCacheHit(over))).toBeCloseTo(17 / 24, 12);
  });

  it("reads the avg in the unit it states, and gives no rate for a unit aiperf never writes", () => {
    expect(theoreticalCacheHitRate({ unit: "ratio", avg: 0.42 })).toBeCloseTo(0.42, 12);
    expect(theoreticalCacheHitRate({ unit: undefined, avg: 42 })).toBeNull();
    expect(theoreticalCacheHitRate({ unit: "blocks", avg: 42 })).toBeNull();
  });

  it("is null when absent", () => {
    expect(theoreticalPrefixCacheHit([{ hit: 0, total: 0 }])).toBeUndefined();
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
