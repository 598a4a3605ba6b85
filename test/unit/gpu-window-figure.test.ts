/**
 * The GPU view draws only the profiling window: a telemetry sample from before the first request
 * or after the last says nothing about the benchmark, and drawn beside the others it read as part
 * of it while the view warned it was not. Each figure says how many samples it left out.
 */
import { describe, expect, it } from "vitest";
import { upgradeGpuPayload } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { GpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import { GPU_METRICS, gpuFigure, gpuOutsideWindowText } from "@/lib/metrics/figures/gpu";
import { GpuTelemetry } from "@/lib/metrics/gpu-telemetry";

const sample = (powerW: number): GpuSample => ({
  timestampNs: 0n,
  source: "http://node:9400/metrics",
  gpuIndex: 0,
  gpuUuid: "GPU-a",
  gpuModel: "H100",
  hostname: "node",
  powerW,
  utilizationPct: 50,
  memoryUsedGb: 10,
  energyMj: null,
});

/** One sample a second from −5 s to 14 s; the profiling window is 0–10 s. */
function telemetry(window: [number, number]) {
  const g = new GpuTelemetry();
  for (let s = -5; s < 15; s++) g.add(sample(100 + s), s * 1000);
  return g.payload(0, window, 1000);
}

describe("GPU figures over the profiling window", () => {
  it("draws only the samples inside the window and says how many it left out", () => {
    const payload = telemetry([0, 10_000]);
    expect(payload.window).toEqual({ fromS: 0, toS: 10, samples: 20, outside: 9, firstS: -5, lastS: 14 });
    // Some samples are in the window: the charts draw them, no notice in their place.
    expect(gpuOutsideWindowText(payload)).toBeNull();
    for (const m of GPU_METRICS) {
      const f = gpuFigure(payload, m);
      const xs = f.series.flatMap((s) => s.points.map(([x]) => x));
      expect(xs).toHaveLength(11);
      expect(Math.min(...xs)).toBe(0);
      expect(Math.max(...xs)).toBe(10);
      expect(f.description).toContain("9 of 20 samples outside the profiling window (0–10 s) left out");
    }
  });

  it("draws nothing when every sample is outside, and says so in place of the chart", () => {
    const payload = telemetry([60_000, 70_000]);
    expect(payload.overlapsWindow).toBe(false);
    const f = gpuFigure(payload, "powerW");
    expect(f.series.every((s) => s.points.length === 0)).toBe(true);
    expect(f.missing).toContain("Every telemetry sample (20) is from before the first or after the last");
  });

  it("says once, for the whole view, how many samples there are and where they lie against the window", () => {
    // Samples from −5 s to 14 s, the window 60–70 s on the same axis: all before the first request.
    expect(gpuOutsideWindowText(telemetry([60_000, 70_000]))).toBe(
      "None of the run's 20 GPU telemetry samples is in its profiling window: they were taken from −5 s to 14 s, all before the first profiling request, and the window runs from 60 s to 70 s (time from the first request). They say nothing about this benchmark, so there is no power, utilisation, memory or energy to show.",
    );
    expect(gpuOutsideWindowText(telemetry([-30_000, -20_000]))).toContain(
      "they were taken from −5 s to 14 s, all after the last profiling request, and the window runs from −30 s to −20 s",
    );
    // A payload stored before the samples' span was kept: read with the span of the points it holds.
    const old: Record<string, unknown> = structuredClone(telemetry([60_000, 70_000]));
    delete (old.window as Record<string, unknown>).firstS;
    delete (old.window as Record<string, unknown>).lastS;
    const upgraded = upgradeGpuPayload(old) as { payload: ChartPayload<typeof AIPERF_CHARTS.gpu> };
    expect(upgraded.payload.window).toMatchObject({ firstS: -5, lastS: 14 });
    expect(gpuOutsideWindowText(upgraded.payload)).toContain("they were taken from −5 s to 14 s");
  });

  it("draws every sample of a run with no requests (no window)", () => {
    expect(gpuFigure({ ...telemetry([0, 10_000]), window: null }, "powerW").series[0].points).toHaveLength(
      20,
    );
  });

  it("reads a payload stored before the window was kept only where nothing is lost", () => {
    const old: Record<string, unknown> = { ...telemetry([0, 10_000]) };
    delete old.window;
    // With records, the old payload cannot say which samples lie outside: recomputed, never drawn whole.
    const withRecords = upgradeGpuPayload(old);
    expect(withRecords).toEqual({ recompute: expect.stringContaining("re-ingest the run") });
    // Without records there was no window to keep: the current shape, window null.
    const noRecords = upgradeGpuPayload({ ...old, overlapsWindow: null });
    expect(noRecords).toEqual({ payload: { ...old, overlapsWindow: null, window: null } });
    expect(AIPERF_CHARTS.gpu.schema.parse((noRecords as { payload: unknown }).payload).window).toBeNull();
    // A payload of the current shape passes as it is.
    const current = telemetry([0, 10_000]);
    expect(upgradeGpuPayload(current)).toEqual({ payload: current });
  });
});
