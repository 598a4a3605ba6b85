/**
 * Bar charts' value labels and minimum bar length (lib/metrics/bar-labels.ts): a value above 0 is
 * always a visible bar, a value not recorded is no bar (never 0), labels get the room they need
 * and are a line apart, and values spanning decades are offered a log axis.
 */
import { describe, expect, it } from "vitest";
import type { FigureDescription } from "@/lib/api/figure";
import { figureProps } from "@/components/charts/figure-props";
import { reportFigure } from "@/lib/runs/report/figure-kit";
import { renderPlot } from "@/lib/runs/report/svg-plot";
import {
  compactNumber,
  compactTickText,
  compactValueText,
  decadesSpanned,
  drawnLength,
  labelledBandPx,
  labelLinePx,
  labelRoomPx,
  labelsFitAbove,
  labelWidthPx,
  logFloor,
  MIN_BAR_PX,
  minBarPx,
  stackEnds,
  unitText,
  valueText,
  wantsLogOption,
} from "@/lib/metrics/bar-labels";
import { endpointHitRateFigure, endpointOffloadFigure } from "@/lib/metrics/figures/endpoints";

describe("minimum bar length", () => {
  it("draws a value above 0 at least MIN_BAR_PX long, however small on the axis", () => {
    // 5 MB/s beside 9.5 GB/s on a 300 px axis: 0.16 px.
    const px = (5e6 / 9.5e9) * 300;
    expect(px).toBeLessThan(1);
    expect(drawnLength(px, 5e6)).toBe(MIN_BAR_PX);
    expect(MIN_BAR_PX).toBeGreaterThanOrEqual(3);
    expect(drawnLength(250, 9.5e9)).toBe(250);
  });

  it("draws no bar for 0 or a value not recorded (never a 0 bar standing for missing)", () => {
    expect(drawnLength(0, 0)).toBe(0);
    expect(drawnLength(0, null)).toBe(0);
    expect(drawnLength(0, undefined)).toBe(0);
    expect(drawnLength(0, Number.NaN)).toBe(0);
  });

  it("gives the library's minPointSize only to a bar with a value above 0, a stack band by its own length", () => {
    expect(minBarPx(5e6)).toBe(MIN_BAR_PX);
    expect(minBarPx(0)).toBe(0);
    expect(minBarPx(null)).toBe(0);
    expect(minBarPx(undefined)).toBe(0);
    // A stack's empty slot: its band starts and ends at the running total.
    expect(minBarPx([120, 120])).toBe(0);
    expect(minBarPx([120, 120.01])).toBe(MIN_BAR_PX);
  });
});

describe("label placement", () => {
  it("keeps room right of horizontal bars for the widest label and its gap", () => {
    const texts = ["5.0 MB/s", "9.5 GB/s", "13.98 GB/s"];
    const room = labelRoomPx(texts);
    expect(room).toBeGreaterThan(labelWidthPx("13.98 GB/s"));
    expect(labelRoomPx([])).toBe(0);
    // Erring wide: 10 characters at 10 px are about 55 px drawn.
    expect(labelWidthPx("13.98 GB/s")).toBeGreaterThanOrEqual(60);
  });

  it("sizes a category's band so the labels of its bars are a line apart", () => {
    for (const slots of [1, 2, 3, 5, 8]) {
      const band = labelledBandPx(slots);
      // The library: 10 % of the band free each side, 4 px between bars.
      const bar = (0.8 * band - 4 * (slots - 1)) / slots;
      const centres = bar + 4;
      if (slots > 1) expect(centres).toBeGreaterThanOrEqual(labelLinePx());
      expect(band).toBeGreaterThanOrEqual(labelLinePx());
    }
  });

  it("writes labels above vertical bars only when each fits its bar's width", () => {
    const texts = ["178 tok/s", "106 tok/s"];
    // Two runs, one category, a 380 px plot: 152 px a bar.
    expect(labelsFitAbove(380, 1, 2, texts)).toBe(true);
    // Five runs, two categories on a phone's 240 px: 19 px a bar, the labels would overprint.
    expect(labelsFitAbove(240, 2, 5, texts)).toBe(false);
    expect(labelsFitAbove(240, 0, 0, [])).toBe(true);
  });
});

describe("log-scale option", () => {
  it("is offered when the values above 0 span more than two decades", () => {
    expect(decadesSpanned([5e6, 9.5e9, null])).toBeCloseTo(3.28, 2);
    expect(wantsLogOption([5e6, 9.5e9])).toBe(true);
    expect(wantsLogOption([0.9, 1.2, 5.8])).toBe(false);
    // 0 and missing values do not count: one value spans nothing.
    expect(wantsLogOption([0, null, 5])).toBe(false);
  });

  it("starts the log axis at the power of ten at or below the smallest value", () => {
    expect(logFloor([5e6, 9.5e9])).toBe(1e6);
    expect(logFloor([0.05, 2000])).toBeCloseTo(0.01, 10);
    expect(logFloor([0, null])).toBe(1);
  });

  it("puts a stack's log floor below its first band's end", () => {
    // Segments in pipeline order, one not recorded: the first band ends at 0.3 ms.
    const ends = stackEnds([0.3, null, 12, 1800]);
    expect(ends).toEqual([0.3, 0.3, 12.3, 1812.3]);
    expect(logFloor(ends)).toBeCloseTo(0.1, 10);
  });
});

describe("value text", () => {
  it("writes a value in its unit, as the tooltip and table do", () => {
    expect(unitText("")(1234)).toBe("1,234");
    expect(unitText("GB/s")(9.5)).toBe("9.5 GB/s");
    expect(unitText("%")(45)).toBe("45.0%");
    expect(unitText("s")(3.14159)).toBe("3.1 s");
  });
});

describe("page and report write the same bars", () => {
  it("labels each bar of a figure description with the same text, and draws a small value as long", () => {
    const f: FigureDescription = {
      id: "t",
      exportName: "t",
      kind: "bars",
      title: "Offload",
      description: "",
      definition: {},
      missing: "",
      x: { label: "endpoint", unit: "" },
      y: { label: "bandwidth", unit: "GB/s" },
      series: [
        {
          key: "v",
          name: "bandwidth",
          colour: "chart-1",
          points: [
            [0, 9.5],
            [1, 0.005],
            [2, null],
          ],
        },
      ],
      legend: false,
      categories: ["a", "b", "c"],
    };
    const page = figureProps(f);
    const s = page.series.v;
    expect(s.valueLabels).toBe(true);
    const pageTexts = page.data.flatMap((r) => (typeof r.v === "number" ? [s.format!(r.v)] : []));
    const svg = renderPlot(reportFigure(f).plot, "t");
    const reportTexts = [...svg.matchAll(/<text class="value-label"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(reportTexts).toEqual(pageTexts);
    // Each value in its own unit, as the tooltip writes it: 5 MB/s, never "0.005 GB/s".
    expect(pageTexts).toEqual(["9.5 GB/s", "5 MB/s"]);
    // The 0.005 bar: MIN_BAR_PX wide in the report; the missing one: no bar at all.
    const widths = [...svg.matchAll(/<rect class="mark"[^>]* width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(2);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(MIN_BAR_PX);
    // The page keeps room right of the bars for the widest label.
    expect("marginRight" in page && page.marginRight).toBe(labelRoomPx(pageTexts));
  });
});

describe("a bar's value in its own unit", () => {
  it("writes a byte rate or a byte count in the unit it reads in, whatever the axis's unit", () => {
    expect(valueText("GB/s")(0.005)).toBe("5 MB/s");
    expect(valueText("GB/s")(9.5)).toBe("9.5 GB/s");
    expect(valueText("MB/s")(2500)).toBe("2.5 GB/s");
    expect(valueText("B/s")(512)).toBe("512 B/s");
    expect(valueText("GB")(0.01)).toBe("10 MB");
    expect(valueText("KB")(1.5)).toBe("1.5 KB");
  });

  it("writes any other unit as the axis's ticks do", () => {
    for (const [unit, v] of [
      ["ms", 1234.5],
      ["s", 12.34],
      ["%", 42.25],
      ["tokens", 131072],
      ["", 7],
    ] as const)
      expect(valueText(unit)(v)).toBe(unitText(unit)(v));
  });
});

describe("the log option of a figure's bars", () => {
  const offload = (gpuToCpu: ReadonlyArray<number | null>) =>
    gpuToCpu.map(
      (v, i) =>
        ({
          endpoint: `e${i}:8000`,
          role: "combined",
          offloadBandwidthGpuToCpuBytesPerSecond: v,
          offloadBandwidthCpuToGpuBytesPerSecond: null,
          offloadBandwidthMethod: "bytes / transfer time",
        }) as unknown as Parameters<typeof endpointOffloadFigure>[0][number],
    );

  it("is offered where an endpoint's value is more than two decades from another's, and drawn linear first", () => {
    // 9.5 GB/s beside 5 MB/s: 3.3 decades.
    const wide = endpointOffloadFigure(offload([9.5e9, 5e6, null]), "gpuToCpu");
    expect(wide.y.logOption).toBe(true);
    // The page draws it linear until asked, as the report does.
    const linear = figureProps(wide);
    expect(linear.x.log).toBeUndefined();
    expect(reportFigure(wide).plot).not.toHaveProperty("log");
    const log = figureProps(wide, "log");
    expect(log.x.log).toBe(true);
    // From the power of ten at or below the smallest value (5 MB/s in GB/s: 0.005 → 0.001).
    expect((log.x.domain as [number, unknown])[0]).toBeCloseTo(0.001, 12);
    // Each bar's label in its own unit on either axis.
    expect(log.series.value.format!(0.005)).toBe("5 MB/s");
    // Two decades apart or less: no log axis, even when asked.
    const near = endpointOffloadFigure(offload([9.5e9, 1e8]), "gpuToCpu");
    expect(near.y.logOption).toBeUndefined();
    expect(figureProps(near, "log").x.log).toBeUndefined();
  });

  it("keeps the top of a bounded axis (a hit rate's 100 %) on the log scale", () => {
    const rows = [0.56, 0.002].map(
      (hitRate, i) =>
        ({ endpoint: `e${i}:8000`, role: "combined", hitRate }) as unknown as Parameters<
          typeof endpointHitRateFigure
        >[0][number],
    );
    const f = endpointHitRateFigure(rows);
    expect(f.y.logOption).toBe(true);
    expect(figureProps(f, "log").x.domain).toEqual([0.1, 100]);
  });
});

describe("a phone's compact counts (issue 29)", () => {
  it("counts read 1.28 B tokens; durations, percentages and bytes keep their own forms", () => {
    expect(compactNumber(1_280_000_000)).toBe("1.28 B");
    expect(compactNumber(9_600)).toBe("9.6 K");
    expect(compactNumber(640)).toBe("640");
    expect(compactValueText("tokens")(1_280_000_000)).toBe("1.28 B tokens");
    expect(compactTickText("tokens")(1_500_000_000)).toBe("1.5 B");
    expect(compactValueText("GB/s")(0.005)).toBe(valueText("GB/s")(0.005));
    expect(compactValueText("ms")(1234.5)).toBe(valueText("ms")(1234.5));
  });

  it("a figure's bars on a phone: compact labels, names above the bars; the same figure wide is unchanged", () => {
    const f = endpointHitRateFigure([]);
    const capacity: FigureDescription = {
      ...f,
      y: { label: "KV capacity", unit: "tokens", integers: true, logOption: true },
      categories: ["10.1.0.1:8000", "10.1.0.4:8000"],
      categoryColours: undefined,
      categoryNotes: undefined,
      series: [
        {
          key: "value",
          name: "KV capacity",
          colour: "chart-8",
          points: [
            [0, 16_000],
            [1, 1_280_000_000],
          ],
        },
      ],
    };
    const phone = figureProps(capacity, "linear", true);
    const wide = figureProps(capacity, "linear", false);
    expect(phone.series.value.format!(1_280_000_000)).toBe("1.28 B tokens");
    expect(wide.series.value.format!(1_280_000_000)).toBe("1,280,000,000 tokens");
    expect((phone as { marginRight: number }).marginRight).toBeLessThan(
      (wide as { marginRight: number }).marginRight,
    );
    expect((phone.y as { namesAbove?: boolean }).namesAbove).toBe(true);
  });
});
