import { describe, expect, it } from "vitest";
import { hasMarks, PALETTE, renderPlot, type Plot } from "@/lib/runs/report/svg-plot";

const line = (points: Array<[number, number | null]>): Plot => ({
  kind: "line",
  x: { title: "Time", unit: "s" },
  y: { title: "Throughput", unit: "tok/s" },
  series: [{ label: "a", points }],
});

describe("report SVG plotter", () => {
  it("has marks by the chart kit's rule: a line of two points, a point, a bar of non-zero length", () => {
    expect(hasMarks(line([[0, 1]]))).toBe(false);
    expect(
      hasMarks(
        line([
          [0, 1],
          [1, null],
        ]),
      ),
    ).toBe(false);
    expect(
      hasMarks(
        line([
          [0, 1],
          [1, 2],
        ]),
      ),
    ).toBe(true);
    const bars = (values: Array<number | null>): Plot => ({
      kind: "bars",
      categories: values.map((_, i) => `c${i}`),
      value: { title: "Hit rate", unit: "%" },
      series: [{ label: "s", values }],
    });
    expect(hasMarks(bars([0, null]))).toBe(false);
    expect(hasMarks(bars([0, 3]))).toBe(true);
    expect(
      hasMarks({
        kind: "histogram",
        x: { title: "TTFT", unit: "ms" },
        y: { title: "Requests", unit: "" },
        bins: [{ lo: 0, hi: 1, count: 0 }],
      }),
    ).toBe(false);
  });

  it("titles axes with units, ticks round numbers with separators, never scientific notation", () => {
    const svg = renderPlot(
      line([
        [0, 0.0001],
        [120, 16_000],
        [240, 12_500],
      ]),
      "throughput",
    );
    expect(svg).toContain(">Time (s)</text>");
    expect(svg).toContain(">Throughput (tok/s)</text>");
    const ticks = [...svg.matchAll(/text-anchor="end" fill="#374151">([^<]+)</g)].map((m) => m[1]);
    expect(ticks).toEqual(["0", "5,000", "10,000", "15,000", "20,000"]);
    const xTicks = [...svg.matchAll(/text-anchor="middle" fill="#374151">([^<]+)</g)].map((m) => m[1]);
    expect(xTicks).toEqual(["0", "50", "100", "150", "200", "250"]);
    expect(svg).not.toMatch(/(>|=")-?[\d.]+e[+-]?\d/);
  });

  it("breaks a line where a value was not recorded instead of bridging it", () => {
    const svg = renderPlot(
      line([
        [0, 1],
        [1, 2],
        [2, null],
        [3, 2],
        [4, 1],
      ]),
      "gap",
    );
    expect(svg.match(/<polyline/g)).toHaveLength(2);
  });

  it("draws no bar for a value not recorded, and escapes category names", () => {
    const svg = renderPlot(
      {
        kind: "bars",
        categories: ["<b>ep</b>", "other"],
        value: { title: "KV capacity", unit: "tokens" },
        series: [{ label: "capacity", values: [100, null] }],
      },
      "capacity",
    );
    expect(svg.match(/<rect class="mark"/g)).toHaveLength(1);
    expect(svg).toContain("&lt;b&gt;ep&lt;/b&gt;");
    expect(svg).not.toContain("<b>");
  });

  it("keeps each series' colour when another has nothing recorded, so a run looks the same in every chart", () => {
    const svg = renderPlot(
      {
        kind: "bars",
        categories: ["offload"],
        value: { title: "Bytes", unit: "GB" },
        series: [
          { label: "run a", values: [null] },
          { label: "run b", values: [3] },
        ],
      },
      "offload",
    );
    expect(svg).toContain(`fill="${PALETTE[1]}"><title>run b`);
    expect(svg).not.toContain("run a");
  });
});
