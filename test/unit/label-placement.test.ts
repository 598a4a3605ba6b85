import { describe, expect, it } from "vitest";
import { labelPlacer, labelSize, markerBox, overlapArea, type LabelBox } from "@/lib/metrics/label-placement";

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
    const boxes = points.map(([k, x, y, t]) => p.place(k, x, y, t)).filter((b) => b !== null);
    expect(overlaps(boxes)).toEqual([]);
    // The first label sits where a lone one would: centred above its point.
    const { w } = labelSize("c1", 11);
    expect(boxes[0].x).toBe(100 - w / 2);
    expect(boxes[0].y + boxes[0].h).toBeLessThan(200);
  });

  it("a label drawn again at the same point keeps its box; moved, it is placed anew", () => {
    const p = labelPlacer(11);
    const a = p.place("a", 50, 50, "c1");
    expect(a).not.toBeNull();
    p.place("b", 50, 50, "c2");
    expect(p.place("a", 50, 50, "c1")).toEqual(a);
    const moved = p.place("a", 300, 50, "c1");
    expect(moved!.x).toBe(300 - moved!.w / 2);
    expect(overlaps([...p.boxes().values()])).toEqual([]);
  });
});

/** The markers (radius 5 px) a label box covers, by index. */
const covered = (box: LabelBox, markers: ReadonlyArray<readonly [number, number]>) =>
  markers.flatMap(([x, y], i) => (overlapArea(box, markerBox(x, y, 5)) > 0 ? [i] : []));

describe("point labels that cover no marker", () => {
  // A sweep's c1 at (100, 100) and its c2 just above it at (100, 84), labelled in that order: the
  // first free place for "c1" (centred above its point) is right over c2's marker.
  const stacked: Array<[string, number, number, string]> = [
    ["s0:0", 100, 100, "c1"],
    ["s0:1", 100, 84, "c2"],
  ];

  it("keeps every label off every marker of the chart, the ones labelled later included", () => {
    const p = labelPlacer(11);
    const markers = stacked.map(([, x, y]) => [x, y] as const);
    p.markers(markers);
    for (const [k, x, y, t] of stacked) {
      const box = p.place(k, x, y, t);
      expect(box, `${t} has a place`).not.toBeNull();
      expect(covered(box!, markers), `markers under ${t}`).toEqual([]);
    }
  });

  it("an unlabelled point of another sweep is an obstacle too", () => {
    const p = labelPlacer(11);
    // The second sweep's points are not labelled (three sweeps overlaid), but are drawn.
    const markers: Array<[number, number]> = [
      [200, 200],
      [200, 184],
      [200, 216],
      [214, 200],
    ];
    p.markers(markers);
    const box = p.place("s0:0", 200, 200, "c8");
    expect(box).not.toBeNull();
    expect(covered(box!, markers)).toEqual([]);
  });

  it("a label with no free place next to its point sits further out, with a leader line that crosses no marker", () => {
    const p = labelPlacer(11);
    // A point hemmed in by other points 18 px away on every side and corner.
    const ring: Array<[number, number]> = [];
    for (const dx of [-18, 0, 18]) for (const dy of [-18, 0, 18]) ring.push([300 + dx, 300 + dy]);
    p.markers(ring);
    const box = p.place("s0:4", 300, 300, "c16");
    expect(box).not.toBeNull();
    expect(covered(box!, ring)).toEqual([]);
    expect(box!.leader).toBeDefined();
    // The line ends on the box's edge.
    const { x, y } = box!.leader!;
    expect(x >= box!.x && x <= box!.x + box!.w && y >= box!.y && y <= box!.y + box!.h).toBe(true);
  });

  it("a label with no free place at all is left out, not drawn over a marker", () => {
    const p = labelPlacer(11);
    // A dense grid of markers 6 px apart, 180 px square around the point.
    const grid: Array<[number, number]> = [];
    for (let dx = -90; dx <= 90; dx += 6)
      for (let dy = -90; dy <= 90; dy += 6) grid.push([400 + dx, 400 + dy]);
    p.markers(grid);
    expect(p.place("s0:0", 400, 400, "c64")).toBeNull();
    expect(p.boxes().has("s0:0")).toBe(false);
  });

  it("a marker wider than a dot (the marked run's star) keeps labels off its own radius", () => {
    const p = labelPlacer(11);
    // The star 28 px above the point: clear of the label above it at a dot's 5 px, not at its 8.
    p.markers([
      [500, 500],
      [500, 472, 8],
    ]);
    const box = p.place("s0:0", 500, 500, "c1")!;
    expect(overlapArea(box, markerBox(500, 472, 8))).toBe(0);
  });

  it("a new list of markers places every label anew", () => {
    const p = labelPlacer(11);
    p.markers([[100, 100]]);
    const alone = p.place("a", 100, 100, "c1")!;
    // Above its point when nothing is there.
    expect(alone.y + alone.h).toBeLessThan(100);
    p.markers([
      [100, 100],
      [100, 84],
    ]);
    const moved = p.place("a", 100, 100, "c1")!;
    expect(covered(moved, [[100, 84]])).toEqual([]);
  });
});
