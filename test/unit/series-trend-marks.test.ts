/**
 * The series page says a verdict only with its uncertainty: a trend marks a run regressed or
 * improved only where the noise band of the runs before it is drawn (from run 6); a run judged
 * before then (run 4 of an 8-run series) is not a bare red dot, it keeps its verdict for the list
 * below, with its interval. A regression or improvement without an interval reads "not enough
 * runs to judge".
 */
import { describe, expect, it } from "vitest";
import type { MetricVerdictDto, SeriesRun } from "@/lib/api/regression-schemas";
import { BAND_DRAWN_FROM, trendRows } from "@/components/charts/chart-line-series-trend";
import { verdictWords } from "@/components/series/verdict-text";

const verdict = (v: MetricVerdictDto["verdict"], interval = true): MetricVerdictDto => ({
  metric: "ttft.p50",
  label: "TTFT p50",
  unit: "ms",
  direction: "lower",
  kind: "requests",
  verdict: v,
  effect: interval ? 0.26 : null,
  low: interval ? 0.2 : null,
  high: interval ? 0.31 : null,
  baseline: 70,
  value: 88,
  threshold: 0.05,
  method: "bootstrap",
  samples: { run: 1500, baseline: 4500, unit: "requests" },
  seed: 1,
  resamples: 2000,
});

const run = (i: number, v: MetricVerdictDto["verdict"] | null): SeriesRun => ({
  id: `r${i}`,
  name: `build ${i}`,
  createdAt: "2026-12-01T00:00:00Z",
  commit: null,
  branch: null,
  order: String(i),
  facts: {},
  metrics: { "ttft.p50": 70 },
  bands: { "ttft.p50": i >= 4 ? { low: 60, high: 80 } : null },
  verdicts: v ? [verdict(v)] : [],
});

describe("series trend marks", () => {
  // 8 runs: run 4 (index 3) and run 7 (index 6) judged regressed.
  const runs = Array.from({ length: 8 }, (_, i) =>
    run(i + 1, i === 3 || i === 6 ? "regressed" : i >= 3 ? "within noise" : null),
  );

  it("marks a regression only where its band is drawn, and keeps an earlier one unmarked", () => {
    expect(BAND_DRAWN_FROM).toBe(5);
    const rows = trendRows(runs, "ttft.p50");
    // Run 4: no band drawn, so no red dot; the verdict is kept for the list.
    expect(rows[3]).toMatchObject({ bandLow: null, bandHigh: null, regressed: null, unbanded: "regressed" });
    // Run 7: its band drawn beside its mark.
    expect(rows[6]).toMatchObject({ bandLow: 60, bandHigh: 80, regressed: 70, unbanded: null });
    // Every drawn mark has a band beside it.
    for (const r of rows) if (r.regressed !== null || r.improved !== null) expect(r.bandLow).not.toBeNull();
  });

  it("says 'not enough runs to judge' for a regression with no interval, the verdict otherwise", () => {
    expect(verdictWords(verdict("regressed", false))).toBe("not enough runs to judge");
    expect(verdictWords(verdict("improved", false))).toBe("not enough runs to judge");
    expect(verdictWords(verdict("regressed"))).toBe("regressed");
    expect(verdictWords(verdict("within noise", false))).toBe("within noise");
  });
});
