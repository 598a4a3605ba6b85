import { describe, expect, it } from "vitest";
import {
  MARK_LABEL,
  markLabelRows,
  markLabelSide,
  markRowsHeight,
  mergedMarkLabels,
} from "@/lib/api/figure-mark-rows";
import { formatMs } from "@/lib/format-number";
import { percentileSorted } from "@/lib/metrics/stats";

const marks = (xs: number[]) => xs.map((x, i) => ({ x, label: ["p50", "p75", "p90", "p99"][i] }));

/** Each name's box in px on a plot `plotPx` wide, as markLabelRows reckons it. */
function boxes(xs: number[], domain: [number, number], plotPx: number) {
  return marks(xs).map((m) => {
    const at = ((m.x - domain[0]) / (domain[1] - domain[0])) * plotPx;
    const w = m.label.length * MARK_LABEL.charPx;
    return markLabelSide(m.x, domain) === "right" ? [at + 4, at + 4 + w] : [at - 4 - w, at - 4];
  });
}

describe("percentile names in the rows above the plot", () => {
  it("names far apart share the row just above the plot", () => {
    const rows = markLabelRows(marks([100, 400, 700, 950]), [0, 1000]);
    expect(rows).toEqual([0, 0, 0, 0]);
    expect(markRowsHeight(rows)).toBe(MARK_LABEL.rowPx);
  });

  it("close names (p90 ≈ p99 in a tight run) are staggered, and no two in a row meet on a phone's plot", () => {
    const xs = [500, 560, 980, 990];
    const domain: [number, number] = [0, 1000];
    const rows = markLabelRows(marks(xs), domain);
    expect(rows[2]).not.toBe(rows[3]);
    const b = boxes(xs, domain, 240);
    for (let i = 0; i < xs.length; i++)
      for (let j = i + 1; j < xs.length; j++)
        if (rows[i] === rows[j]) expect(b[i][1] <= b[j][0] || b[j][1] <= b[i][0]).toBe(true);
    // Four names on one spot take four rows, no more.
    expect(markRowsHeight(markLabelRows(marks([500, 500, 500, 500]), domain))).toBe(4 * MARK_LABEL.rowPx);
  });

  it("a name stays over the plot: right of its line in the left half, left of it in the right half", () => {
    expect(markLabelSide(10, [0, 100])).toBe("right");
    expect(markLabelSide(90, [0, 100])).toBe("left");
    for (const [lo, hi] of boxes([0, 1000], [0, 1000], 240)) {
      expect(lo).toBeGreaterThanOrEqual(0);
      expect(hi).toBeLessThanOrEqual(240);
    }
  });

  it("names that would stack more than two rows high are merged, none overlapping (3 requests)", () => {
    // Three requests (27, 78 and 95 ms TTFT): p75, p90 and p99 interpolate between the two
    // slowest, a few px apart on a phone; staggered they stood four names high over one spot.
    const sorted = [27, 78, 95];
    const at = (q: number) => percentileSorted(sorted, q);
    const ms = marks([at(50), at(75), at(90), at(99)]);
    const domain: [number, number] = [20, 100];
    expect(Math.max(...markLabelRows(ms, domain))).toBeGreaterThanOrEqual(2);
    const merged = mergedMarkLabels(ms, domain, formatMs);
    // Every line stays; the names close together are written once, by the group's outer line
    // (the leftmost here, its name left of it, in the plot's right half).
    expect(merged.map((m) => m.x)).toEqual(ms.map((m) => m.x));
    expect(merged.map((m) => m.label)).toEqual(["p50", "p75, p90, p99", "", ""]);
    const rows = markLabelRows(merged, domain);
    const shown = merged.map((m, i) => ({ ...m, row: rows[i] })).filter((m) => m.label !== "");
    const box = (m: { x: number; label: string }) => {
      const px = ((m.x - domain[0]) / (domain[1] - domain[0])) * 240;
      const w = m.label.length * MARK_LABEL.charPx;
      return markLabelSide(m.x, domain) === "right" ? [px + 4, px + 4 + w] : [px - 4 - w, px - 4];
    };
    for (let i = 0; i < shown.length; i++)
      for (let j = i + 1; j < shown.length; j++)
        if (shown[i].row === shown[j].row) {
          const [a, b] = [box(shown[i]), box(shown[j])];
          expect(a[1] <= b[0] || b[1] <= a[0]).toBe(true);
        }
    expect(markRowsHeight(rows)).toBeLessThanOrEqual(2 * MARK_LABEL.rowPx);
  });

  it("percentiles at one value say it once; names that fit in two rows keep their own", () => {
    expect(
      mergedMarkLabels(
        [
          { x: 2, label: "p50" },
          { x: 12, label: "p90" },
          { x: 12, label: "p99" },
        ],
        [0, 100],
        formatMs,
      ).map((m) => m.label),
    ).toEqual(["p50", "", "p90, p99 = 12 ms"]);
    for (const xs of [
      [100, 400, 700, 950],
      [500, 560, 980, 990],
    ])
      expect(mergedMarkLabels(marks(xs), [0, 1000], formatMs).map((m) => m.label)).toEqual([
        "p50",
        "p75",
        "p90",
        "p99",
      ]);
  });
});
