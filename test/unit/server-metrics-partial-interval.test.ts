/**
 * The last interval of a window rarely ends on a slice boundary: aiperf's server-metrics JSON
 * export cuts it at the window end and marks it `is_complete: false` (`server_metrics/
 * export_stats.py`, `_compute_timeslice_boundaries`), and raw JSONL scrapes cut to the profiling
 * phase end the same way. Its counts cover less time: charts read it per second, never as a
 * collapse. Sample: the real aiperf 0.6.0 run in test/fixtures/aiperf-real-c4 (5 s timeslices
 * over a 34.4 s window: the last covers 4.4 s).
 */
import { describe, expect, it } from "vitest";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { partialIntervalNote, perSecondRows } from "@/lib/metrics/server-metrics/chart-rows";
import { analyzeFiles } from "./server-metrics-helpers";

const REAL = "test/fixtures/aiperf-real-c4";

describe("partial last interval", () => {
  it("JSON timeslices: the last interval keeps its 4.4 s, and per second it is not a collapse", async () => {
    const r = await analyzeFiles([`${REAL}/server_metrics_export.json`]);
    const all = r.charts!["sm-series-all"] as SmSeriesPayload;
    expect(all.sliceS).toBe(5);
    const last = all.points[all.points.length - 1];
    // 49.272328095 → 53.678567760, :8002's last scrape (aiperf ends each endpoint's window at the
    // later of the phase end and its last scrape; the group takes the longer).
    expect(last.durationS).toBeCloseTo(4.406239665, 6);
    expect(all.points.slice(0, -1).every((p) => p.durationS === 5)).toBe(true);
    expect(partialIntervalNote(all)).toBe("the last interval covers 4.4 s of 5 s (partial)");
    const rows = perSecondRows(all, ["promptTokens"]);
    const full = rows.slice(1, -1).map((x) => x.promptTokens!);
    const mean = full.reduce((a, b) => a + b, 0) / full.length;
    // Hand check: each rate is the interval's tokens over its own seconds.
    expect(rows[rows.length - 1].promptTokens).toBeCloseTo(last.promptTokens! / last.durationS!, 9);
    expect(rows[rows.length - 1].promptTokens! / mean).toBeGreaterThan(0.5);
  });

  it("a full last interval is not called partial", () => {
    const p = { t: 0, durationS: 5 } as SmSeriesPayload["points"][number];
    expect(
      partialIntervalNote({
        id: "a",
        label: "a",
        sliceS: 5,
        kvCapacityTokens: null,
        startEpochMs: null,
        points: [p],
      }),
    ).toBeNull();
  });
});
