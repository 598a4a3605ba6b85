/**
 * Point labels that never overlap another label or cover a marker (the sweep page's "c4 ×3"
 * beside each point). Every marker of the chart is an obstacle, told to the placer before any
 * label (`markers`), not only the labels placed so far: placed one by one, a label could take the
 * free spot right over a point whose own label came later. Each label takes the first of a few
 * places next to its point (above, below, right, left, then the corners) that overlaps no label
 * and no marker; else the first free place a row or two further out, joined to its point by a
 * leader line that crosses no other marker; else it is left out (`null`), and the point's
 * tooltip names it. Pure: the chart's labels call `place` in the order they are drawn, each with
 * its own key, and a label drawn again at the same point keeps its place.
 */

export interface LabelBox {
  /** Left edge, px */
  x: number;
  /** Top edge, px */
  y: number;
  w: number;
  h: number;
}

/** A label's box, and where its leader line ends when it sits away from its point. */
export interface PlacedLabel extends LabelBox {
  /** Where a line from its point meets the box's edge: draw the line from the point to it */
  leader?: { x: number; y: number };
}

/** The text's box of a label of `chars` characters at `fontPx`: an estimate on the wide side. */
export function labelSize(text: string, fontPx: number): { w: number; h: number } {
  // Digits and lower-case letters average ~0.55 em in Geist and system sans; 0.62 em leaves room
  // for the halo and a wide glyph ("×").
  return { w: Math.ceil(text.length * fontPx * 0.62) + 4, h: Math.ceil(fontPx * 1.25) };
}

/** How much two boxes overlap, px²; 0 when apart or only touching. */
export function overlapArea(a: LabelBox, b: LabelBox): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The square a marker of `radius` px covers around its centre. */
export function markerBox(px: number, py: number, radius: number): LabelBox {
  return { x: px - radius, y: py - radius, w: 2 * radius, h: 2 * radius };
}

/** The places right next to a point, in order: the box's left and top for a point at (0, 0). */
function nextTo(w: number, h: number, gap: number): Array<[number, number]> {
  return [
    [-w / 2, -gap - h],
    [-w / 2, gap],
    [gap, -h / 2],
    [-gap - w, -h / 2],
    [gap * 0.5, -gap - h],
    [-w - gap * 0.5, -gap - h],
    [gap * 0.5, gap],
    [-w - gap * 0.5, gap],
  ];
}

/**
 * Places further out, each joined to its point by a leader line: 16 directions (from straight
 * above, clockwise and anticlockwise in turn) on three rings, the box's centre that far from the
 * point and its near edge clear of it.
 */
function furtherOut(w: number, h: number, gap: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const ring of [1, 2, 3]) {
    const r = gap + ring * h;
    for (let i = 0; i < 16; i++) {
      const step = Math.ceil(i / 2) * (i % 2 === 0 ? -1 : 1);
      const a = -Math.PI / 2 + (step * Math.PI) / 8;
      const cx = Math.cos(a) * (r + w / 2);
      const cy = Math.sin(a) * (r + h / 2);
      out.push([cx - w / 2, cy - h / 2]);
    }
  }
  return out;
}

/**
 * Where the line from (px, py) to the centre of `box` meets the box's edge: the leader's end. Aimed
 * at the centre, the line keeps the direction the place was chosen in, between the markers round
 * the point (to the box's nearest corner it could cut across one).
 */
function edgeToward(box: LabelBox, px: number, py: number): { x: number; y: number } {
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const dx = px - cx;
  const dy = py - cy;
  const t = Math.min(
    dx === 0 ? Infinity : box.w / 2 / Math.abs(dx),
    dy === 0 ? Infinity : box.h / 2 / Math.abs(dy),
  );
  return { x: cx + dx * Math.min(t, 1), y: cy + dy * Math.min(t, 1) };
}

/** Whether the segment from a to b passes through `box` (sampled every px: boxes are ≥ 6 px). */
function crosses(a: { x: number; y: number }, b: { x: number; y: number }, box: LabelBox): boolean {
  const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y)));
  for (let i = 0; i <= n; i++) {
    const x = a.x + ((b.x - a.x) * i) / n;
    const y = a.y + ((b.y - a.y) * i) / n;
    if (x > box.x && x < box.x + box.w && y > box.y && y < box.y + box.h) return true;
  }
  return false;
}

export interface LabelPlacer {
  /**
   * Every marker of the chart, px (labelled or not, of every series), with its radius where it
   * is not the placer's (a star): the obstacles no label covers. Told before the labels; a
   * different list places every label anew.
   */
  markers(points: ReadonlyArray<readonly [number, number] | readonly [number, number, number]>): void;
  /**
   * The box of the label `key` with `text`, for its point at (px, py): its left and top edge,
   * with a leader line's end when it sits away from its point; `null` when no place is free (the
   * label is left out). The same key at the same point gets the same answer.
   */
  place(key: string, px: number, py: number, text: string): PlacedLabel | null;
  /** Every box placed, by key (a label left out has none) */
  boxes(): ReadonlyMap<string, PlacedLabel>;
}

/**
 * A placer for one chart's labels, `fontPx` high, `gap` px from their point, keeping clear of
 * markers `markerRadius` px in radius (a scatter's default symbol is some 4.5 px).
 */
export function labelPlacer(fontPx: number, gap = 8, markerRadius = 5): LabelPlacer {
  const placed = new Map<string, { px: number; py: number; text: string; box: PlacedLabel | null }>();
  let obstacles: LabelBox[] = [];
  let markersKey = "";
  return {
    markers(points) {
      const key = points.map((p) => p.join(",")).join(";");
      if (key === markersKey) return;
      markersKey = key;
      obstacles = points.map(([x, y, r]) => markerBox(x, y, r ?? markerRadius));
      placed.clear();
    },
    place(key, px, py, text) {
      const prior = placed.get(key);
      if (prior && prior.px === px && prior.py === py && prior.text === text) return prior.box;
      placed.delete(key);
      const { w, h } = labelSize(text, fontPx);
      const own = markerBox(px, py, markerRadius);
      // The label's own point is a marker too, told or not.
      const blocks = [own, ...obstacles];
      const free = (box: LabelBox) =>
        blocks.every((m) => overlapArea(box, m) === 0) &&
        [...placed.values()].every((o) => o.box === null || overlapArea(box, o.box) === 0);
      let best: PlacedLabel | null = null;
      for (const [dx, dy] of nextTo(w, h, gap)) {
        const box = { x: px + dx, y: py + dy, w, h };
        if (free(box)) {
          best = box;
          break;
        }
      }
      if (!best)
        for (const [dx, dy] of furtherOut(w, h, gap)) {
          const box = { x: px + dx, y: py + dy, w, h };
          if (!free(box)) continue;
          const end = edgeToward(box, px, py);
          // The line starts at the marker's edge and passes over no other marker.
          if (obstacles.some((m) => overlapArea(m, own) === 0 && crosses({ x: px, y: py }, end, m))) continue;
          best = { ...box, leader: end };
          break;
        }
      placed.set(key, { px, py, text, box: best });
      return best;
    },
    boxes: () =>
      new Map(
        [...placed].flatMap(([k, v]): Array<[string, PlacedLabel]> => (v.box === null ? [] : [[k, v.box]])),
      ),
  };
}
