import { describe, expect, it } from "vitest";
import { labelWidthPx } from "@/lib/metrics/bar-labels";
import { segmentWords } from "@/lib/metrics/segment-words";
import { hasMarks, legendLayout, PALETTE, renderPlot, type Plot } from "@/lib/runs/report/svg-plot";
import { DISAGG_SEGMENTS } from "../generators/trtllm.mjs";

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

  it("writes every legend entry whole, laid out by its width: none cut short, none over another or past the edge", () => {
    // Every segment of a disaggregated TensorRT-LLM request, in words: the longest ones
    // ("generation postprocessing", 25 characters) were cut to 24.
    const names = DISAGG_SEGMENTS.map(segmentWords);
    expect(names).toContain("generation postprocessing");
    const svg = renderPlot(
      {
        kind: "stacked",
        categories: ["request id 1", "request id 2"],
        category: { title: "requests", unit: "" },
        value: { title: "time", unit: "ms" },
        series: names.map((label, i) => ({ label, values: [i + 1, i + 2] })),
      },
      "Per-request breakdown",
    );
    expect(svg).not.toContain("…");
    for (const n of names) expect(svg).toContain(`>${n}</text>`);
    // Where the entries go, by the width their words are drawn (erring wide): inside the drawing,
    // no two on one row overlapping, and the drawing tall enough for every row.
    const { entries, rows } = legendLayout(names);
    const boxes = entries.map((e, i) => ({
      row: e.row,
      from: e.x,
      to: e.x + 16 + labelWidthPx(names[i], 11),
    }));
    for (const b of boxes) expect(b.to).toBeLessThanOrEqual(720);
    for (const a of boxes)
      for (const b of boxes)
        if (a !== b && a.row === b.row) expect(a.to <= b.from || b.to <= a.from).toBe(true);
    const height = Number(/height="(\d+)"/.exec(svg)![1]);
    const lastRowY = Math.max(
      ...[...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)" fill="#111827">/g)].map((m) => Number(m[1])),
    );
    expect(lastRowY).toBeLessThanOrEqual(height - 4);
    expect(rows).toBe(Math.max(...entries.map((e) => e.row)) + 1);
  });

  it("breaks a legend entry wider than a row at its spaces, every word still written", () => {
    const long =
      "a series named with many words that together are far wider than the drawing is across, so it takes two lines";
    const { entries, rows } = legendLayout(["short", long]);
    expect(entries[1].lines.length).toBeGreaterThan(1);
    expect(entries[1].lines.join(" ")).toBe(long);
    for (const l of entries[1].lines) expect(64 + 16 + labelWidthPx(l, 11)).toBeLessThanOrEqual(720);
    expect(rows).toBe(1 + entries[1].lines.length);
  });
});
