import { describe, expect, it } from "vitest";
import { MARK_LABEL, markLabelRows, markLabelSide, markRowsHeight } from "@/lib/api/figure-mark-rows";

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
});
