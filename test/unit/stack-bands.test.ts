/**
 * A stack's bands as drawn (lib/metrics/bar-labels.ts stackBandsPx): each band above 0 at least
 * MIN_BAR_PX long, the room taken from the stack's longest bands, so a stack ends exactly where
 * its total is on the axis, never past it; the page, the report's stacked rows and the server's
 * first figure all lay a stack out by it.
 */
import { describe, expect, it } from "vitest";
import type { FigureDescription } from "@/lib/api/figure";
import { MIN_BAR_PX, stackBandsPx } from "@/lib/metrics/bar-labels";
import { barsStillSvg } from "@/lib/runs/first-figures";
import { reportFigure } from "@/lib/runs/report/figure-kit";
import { REPORT_NARROW_PX, renderPlot } from "@/lib/runs/report/svg-plot";

// The p50 segments of a disaggregated TensorRT-LLM request, in pipeline order (ms): 13 short
// segments before 948 ms of decode, Σ 991.5 ms, as on the example runs' Breakdown.
const SEGMENTS = [0.9, 0.4, 2.1, 0.3, 0.2, 11.5, 0.6, 14.2, 0.8, 0.1, 9.7, 1.2, 1.5, 948];
const TOTAL = SEGMENTS.reduce((a, v) => a + v, 0);
// The stacked rows' plot at 390 px (beside "p50", left of "Σ 991.5 ms") and at 1440 px, on an
// axis to 1,000 ms.
const PLOTS = [
  { width: 390, plotPx: 230 },
  { width: 1440, plotPx: 1180 },
];
const sum = (xs: readonly number[]) => xs.reduce((a, v) => a + v, 0);

describe("a stack's bands as drawn", () => {
  for (const { width, plotPx } of PLOTS)
    it(`end at the total's length, each band at least ${MIN_BAR_PX} px, at ${width} px`, () => {
      const ppu = plotPx / 1000;
      const drawn = stackBandsPx(SEGMENTS, ppu);
      expect(drawn).toHaveLength(SEGMENTS.length);
      // The stack is as long as its total on the axis: never past it, never short of it.
      expect(sum(drawn)).toBeCloseTo(TOTAL * ppu, 9);
      for (const px of drawn) expect(px).toBeGreaterThanOrEqual(MIN_BAR_PX - 1e-9);
      // The room comes from the longest band only; the bands long enough keep their length.
      SEGMENTS.forEach((v, i) => {
        if (v * ppu >= MIN_BAR_PX && i !== SEGMENTS.length - 1) expect(drawn[i]).toBeCloseTo(v * ppu, 9);
      });
      expect(drawn.at(-1)!).toBeLessThan(948 * ppu);
    });

  it("takes the room from the longest bands down to one level, never below the minimum", () => {
    // Two long bands of 50 and 49 px and three of 1 px: 9 px owed, both long ones cut to 45 px.
    const drawn = stackBandsPx([50, 1, 49, 1, 1], 1);
    expect(drawn).toEqual([45, 4, 45, 4, 4]);
    expect(sum(drawn)).toBe(102);
  });

  it("leaves a stack alone when every band is long enough, and draws no band for 0 or not recorded", () => {
    expect(stackBandsPx([10, 20, 30], 2)).toEqual([20, 40, 60]);
    expect(stackBandsPx([0, null, undefined, Number.NaN, -3, 50], 1)).toEqual([0, 0, 0, 0, 0, 50]);
    expect(stackBandsPx([0.01, 0, 100], 1)).toEqual([MIN_BAR_PX, 0, 100.01 - MIN_BAR_PX]);
    expect(stackBandsPx([], 1)).toEqual([]);
  });

  it("shares a stack too short for every band's minimum equally, still its total's length", () => {
    // 3 bands in 9 px: 3 px each, not 12 px past the total.
    const drawn = stackBandsPx([8, 0.5, 0.5], 1);
    expect(drawn).toEqual([3, 3, 3]);
    expect(sum(drawn)).toBe(9);
  });
});

/** The segments figure of a statistic, as the Breakdown view and the report describe it. */
const segmentsFigure: FigureDescription = {
  id: "segments",
  exportName: "time-breakdown-p50",
  kind: "stacked",
  horizontal: true,
  stackTotal: "Σ",
  title: "Where the time goes (p50)",
  description: "",
  definition: {},
  missing: "",
  x: { label: "statistic", unit: "" },
  y: { label: "time at the statistic", unit: "ms" },
  categories: ["p50"],
  series: SEGMENTS.map((v, i) => ({ key: `s${i}`, name: `s${i}`, colour: "chart-1", points: [[0, v]] })),
  legend: false,
};

describe("the report's stacked rows", () => {
  it("draw each band at least MIN_BAR_PX long and end the stack at its total", () => {
    const svg = renderPlot(reportFigure(segmentsFigure).plot, "t");
    const rects = [...svg.matchAll(/<rect class="mark" x="([\d.]+)"[^>]* width="([\d.]+)"/g)].map((m) => ({
      x: Number(m[1]),
      w: Number(m[2]),
    }));
    expect(rects).toHaveLength(SEGMENTS.length);
    // Each band is at least MIN_BAR_PX on a 390 px phone, where the SVG's width (its viewBox's)
    // is drawn at REPORT_NARROW_PX: a 4-unit band there was 1.9 px.
    const viewW = Number(/viewBox="0 0 ([\d.]+) /.exec(svg)![1]);
    for (const r of rects) expect((r.w * REPORT_NARROW_PX) / viewW).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.05);
    // The axis: ticks from 0 to 1,000 ms, the stack's end where 991.5 ms is on it.
    const ticks = [
      ...svg.matchAll(/<line x1="([\d.]+)" x2="[\d.]+" y1="\d+" y2="\d+" stroke="#e5e7eb"\/>/g),
    ].map((m) => Number(m[1]));
    const [x0, x1000] = [ticks[0], ticks.at(-1)!];
    const end = rects.at(-1)!.x + rects.at(-1)!.w;
    expect(end).toBeCloseTo(x0 + ((x1000 - x0) * TOTAL) / 1000, 0);
    expect(end).toBeLessThanOrEqual(x1000);
    // Bands follow one another: no gap, no overlap (to the drawing's 0.1 px).
    rects.slice(1).forEach((r, i) => expect(Math.abs(r.x - (rects[i].x + rects[i].w))).toBeLessThan(0.15));
  });
});

describe("the server's first figure of stacked rows", () => {
  it("lays each band out by the same rule for the wide plot and the phone's, the stack ending at its total", () => {
    const svg = barsStillSvg(segmentsFigure);
    for (const set of ["first-figure-wide", "first-figure-narrow"]) {
      // The set's groups: its ticks' and its bands'.
      const group = [...svg.matchAll(new RegExp(`<g class="${set}">(.*?)</g>`, "g"))]
        .map((m) => m[1])
        .join("");
      const bands = [
        ...group.matchAll(
          /style="x:calc\(([-\d.]+)% \+ ([-\d.]+)px\);width:calc\(([-\d.]+)% \+ ([-\d.]+)px\)"/g,
        ),
      ].map((m) => ({ xPct: Number(m[1]), xPx: Number(m[2]), wPct: Number(m[3]), wPx: Number(m[4]) }));
      expect(bands, set).toHaveLength(SEGMENTS.length);
      const last = bands.at(-1)!;
      // The stack's end: its total's share of the axis (991.5 of 1,000 ms), and no px added.
      expect(last.xPct + last.wPct, set).toBeCloseTo((100 * TOTAL) / 1000, 1);
      expect(Math.abs(last.xPx + last.wPx), set).toBeLessThan(0.05);
      // At the width the set is laid out for, each band is at least MIN_BAR_PX.
      const plotPx = set === "first-figure-wide" ? 1000 : 230;
      for (const b of bands)
        expect((b.wPct / 100) * plotPx + b.wPx, set).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.05);
    }
  });
});
