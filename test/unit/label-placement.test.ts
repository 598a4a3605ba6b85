import { describe, expect, it } from "vitest";
import { labelPlacer, labelSize, overlapArea, type LabelBox } from "@/lib/metrics/label-placement";

const overlaps = (boxes: LabelBox[]) => {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) if (overlapArea(boxes[i], boxes[j]) > 0) out.push([i, j]);
  return out;
};

describe("point labels that never overlap", () => {
  it("two sweeps' points at nearly the same place: every label box apart from every other", () => {
    const p = labelPlacer(11);
    // Two sweeps of c1, c4, c16, c64 a few px apart (the sweep page overlaying similar configs),
    // and a marked run on top of one of them.
    const points: Array<[string, number, number, string]> = [];
    [0, 3].forEach((d, s) =>
      ["c1", "c4", "c16", "c64"].forEach((c, i) =>
        points.push([`s${s}:${i}`, 100 + i * 20 + d, 200 - i * 6 + d, c]),
      ),
    );
    points.push(["run:0", 120, 194, "c4"]);
    const boxes = points.map(([k, x, y, t]) => p.place(k, x, y, t));
    expect(overlaps(boxes)).toEqual([]);
    // The first label sits where a lone one would: centred above its point.
    const { w } = labelSize("c1", 11);
    expect(boxes[0].x).toBe(100 - w / 2);
    expect(boxes[0].y + boxes[0].h).toBeLessThan(200);
  });

  it("a label drawn again at the same point keeps its box; moved, it is placed anew", () => {
    const p = labelPlacer(11);
    const a = p.place("a", 50, 50, "c1");
    p.place("b", 50, 50, "c2");
    expect(p.place("a", 50, 50, "c1")).toEqual(a);
    const moved = p.place("a", 300, 50, "c1");
    expect(moved.x).toBe(300 - moved.w / 2);
    expect(overlaps([...p.boxes().values()])).toEqual([]);
  });
});
