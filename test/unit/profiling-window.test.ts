/**
 * Placing aiperf's profiling phase on the epoch clock (docs/metrics.md §Server metrics, "The
 * window"). aiperf writes `start_time` / `end_time` with `datetime.fromtimestamp(ns / 1e9)`
 * (`server_metrics/json_exporter.py`; the run summary likewise): the host's local time, no zone.
 */
import { describe, expect, it } from "vitest";
import { wallClockNs, wallClockSpanS } from "@/lib/formats/aiperf-wall-clock";
import { ProfilingClock } from "@/lib/metrics/profiling-window";

const S = 1e9;
/** 2026-12-01T08:15:19Z in ns. */
const T = Date.UTC(2026, 11, 1, 8, 15, 19) * 1e6;

describe("wall-clock times", () => {
  it("reads microseconds, and a zone when the text has one", () => {
    expect(wallClockNs("2026-12-01T08:15:19.272328")).toEqual({ ns: T + 272_328_000, zoned: false });
    expect(wallClockNs("2026-12-01T08:15:19Z")).toEqual({ ns: T, zoned: true });
    expect(wallClockNs("2026-12-01T10:15:19+02:00")).toEqual({ ns: T, zoned: true });
    expect(wallClockNs("yesterday")).toBeNull();
  });

  it("a span is exact to the microsecond whatever the zone", () => {
    expect(wallClockSpanS("2026-12-01T08:15:19.272328", "2026-12-01T08:15:53.648953")).toBe(34.376625);
    expect(wallClockSpanS("2026-12-01T08:15:19Z", "2026-12-01T08:15:18")).toBeNull();
  });
});

describe("ProfilingClock", () => {
  it("places a zone-less summary written at UTC−5 by the first request", () => {
    const clock = new ProfilingClock();
    // Local 03:15:19.5 at UTC−5 = 08:15:19.5 UTC; the first request leaves 2 ms after the phase starts.
    clock.noteSummary(
      "2026-12-01T03:15:19.500000",
      "2026-12-01T03:15:49.500000",
      "profile_export_aiperf.json",
    );
    clock.noteRequest(T + 0.502 * S, T + 1 * S);
    clock.noteRequest(T + 10 * S, T + 29.4 * S);
    const w = clock.resolve()!;
    expect((w.startNs - T) / S).toBeCloseTo(0.5, 6);
    expect((w.endNs - T) / S).toBeCloseTo(30.5, 6);
    expect(w.source).toContain("profile_export_aiperf.json");
  });

  it("without records, the one quarter-hour offset that puts the phase inside the scrapes", () => {
    const clock = new ProfilingClock();
    clock.noteSummary("2026-12-01T09:45:20.000000", "2026-12-01T09:45:40.000000", "s.json");
    const w = clock.resolve({ firstNs: T, lastNs: T + 25 * S })!;
    // Only a +01:30 offset puts 09:45:20 local inside the scrapes: 08:15:20 UTC.
    expect((w.startNs - T) / S).toBeCloseTo(1, 6);
    // Scrapes spanning more than 15 minutes fit two offsets: no guess.
    const long = new ProfilingClock();
    long.noteSummary("2026-12-01T09:45:20.000000", "2026-12-01T09:45:40.000000", "s.json");
    expect(long.resolve({ firstNs: T - 3600 * S, lastNs: T + 25 * S })).toBeNull();
  });

  it("records alone: first request start → last request end", () => {
    const clock = new ProfilingClock();
    clock.noteRequest(T + 2 * S, T + 3 * S);
    clock.noteRequest(T + 1 * S, T + 9 * S);
    expect(clock.resolve()).toMatchObject({ startNs: T + 1 * S, endNs: T + 9 * S });
    expect(new ProfilingClock().resolve()).toBeNull();
  });
});
