/**
 * GPU energy is power integrated over the exact profiling window, the edges interpolated
 * (docs/metrics.md §GPU telemetry). Samples: a hand-made track, and the real aiperf 0.6.0 GPU
 * telemetry in test/fixtures/aiperf-real-c4 (aiperf `gpu_telemetry/` JSONL export: one line per
 * GPU per scrape, `gpu_power_usage` in W and the cumulative `energy_consumption` in MJ).
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { gpuPayloadSchema } from "@/lib/api/aiperf-charts";
import { energyDeltaJ, powerIntegralJ } from "@/lib/metrics/gpu-telemetry";
import { analyze, diskFile } from "./aiperf-helpers";

const REAL = "test/fixtures/aiperf-real-c4";

describe("power integral over a window", () => {
  const track = { tMs: [0, 1000, 2000], powerW: [100, 200, 300], energyMj: [0, 0.00015, 0.0004] };
  const order = [0, 1, 2];

  it("interpolates power at both edges (trapezoids, W × s = J)", () => {
    // p(0.5 s) = 150 W, p(1.5 s) = 250 W: (150 + 200) / 2 × 0.5 + (200 + 250) / 2 × 0.5 = 200 J.
    expect(powerIntegralJ(track, order, [500, 1500])).toBeCloseTo(200, 12);
    // Over the samples' own span: (100 + 200) / 2 + (200 + 300) / 2 = 400 J.
    expect(powerIntegralJ(track, order, null)).toBeCloseTo(400, 12);
    // A window wider than the samples is cut to them, never extrapolated.
    expect(powerIntegralJ(track, order, [-1000, 3000])).toBeCloseTo(400, 12);
  });

  it("reads the energy counter the same way when it is all there is", () => {
    // E(0.5 s) = 75 J, E(1.5 s) = 275 J on a counter that grows 150 J then 250 J.
    expect(energyDeltaJ(track, order, [500, 1500])).toBeCloseTo(200, 9);
  });
});

describe("real aiperf 0.6.0 GPU telemetry (aiperf-real-c4)", () => {
  /** Restated from the file: per GPU, the energy counter interpolated at the window edges, and only inside. */
  function fromCounters(window: [number, number]) {
    const byGpu = new Map<string, [number, number][]>();
    for (const line of fs.readFileSync(`${REAL}/gpu_telemetry_export.jsonl`, "utf8").trim().split("\n")) {
      const r = JSON.parse(line);
      const list = byGpu.get(r.gpu_uuid) ?? [];
      list.push([r.timestamp_ns / 1e6, r.telemetry_data.energy_consumption * 1e6]);
      byGpu.set(r.gpu_uuid, list);
    }
    let edges = 0;
    let inside = 0;
    for (const pts of byGpu.values()) {
      pts.sort((a, b) => a[0] - b[0]);
      const at = (x: number) => {
        const i = pts.findIndex((p) => p[0] >= x);
        const [t0, e0] = pts[i - 1];
        const [t1, e1] = pts[i];
        return e0 + ((e1 - e0) * (x - t0)) / (t1 - t0);
      };
      edges += at(window[1]) - at(window[0]);
      const kept = pts.filter((p) => p[0] >= window[0] && p[0] <= window[1]);
      inside += kept[kept.length - 1][1] - kept[0][1];
    }
    return { edges, inside };
  }

  it("agrees with the GPUs' own energy counters over the same window, where inside samples alone read ~1.3% low", async () => {
    const { result, handle } = await analyze([
      diskFile(`${REAL}/profile_export.jsonl`, "profile_export.jsonl", 0),
      diskFile(`${REAL}/gpu_telemetry_export.jsonl`, "gpu_telemetry_export.jsonl", 1),
    ]);
    await handle.close();
    const gpu = gpuPayloadSchema.parse(result.charts!["aiperf-gpu"]);
    const records = fs
      .readFileSync(`${REAL}/profile_export.jsonl`, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).metadata);
    const window: [number, number] = [
      Math.min(...records.map((m) => m.request_start_ns)) / 1e6,
      Math.max(...records.map((m) => m.request_end_ns)) / 1e6,
    ];
    const counters = fromCounters(window);
    expect(gpu.energyJ! / counters.edges).toBeCloseTo(1, 3);
    expect(gpu.energyJ! / counters.inside).toBeGreaterThan(1.01);
  });
});
