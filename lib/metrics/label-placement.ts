/**
 * Point labels that never overlap (the sweep page's "c4 ×3" beside each point): each label takes
 * the first of a few places around its point (above, below, right, left, then the corners and a
 * row further out) whose box overlaps no label placed before it. A label with no free place keeps
 * the one that overlaps least. Pure: the chart's labels call `place` in the order they are drawn,
 * each with its own key, and a label drawn again at the same point keeps its place.
 */

export interface LabelBox {
  /** Left edge, px */
  x: number;
  /** Top edge, px */
  y: number;
  w: number;
  h: number;
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

/** The places tried around a point, in order: the box's left and top for a point at (0, 0). */
function candidates(w: number, h: number, gap: number): Array<[number, number]> {
  const above: [number, number] = [-w / 2, -gap - h];
  const below: [number, number] = [-w / 2, gap];
  const right: [number, number] = [gap, -h / 2];
  const left: [number, number] = [-gap - w, -h / 2];
  const out: Array<[number, number]> = [above, below, right, left];
  out.push([gap * 0.5, -gap - h], [-w - gap * 0.5, -gap - h], [gap * 0.5, gap], [-w - gap * 0.5, gap]);
  // Further out: a row above and below, then beside.
  for (const k of [1, 2, 3]) {
    out.push([-w / 2, -gap - h - k * h], [-w / 2, gap + k * h]);
    out.push([gap + k * (w / 2), -h / 2], [-gap - w - k * (w / 2), -h / 2]);
  }
  return out;
}

export interface LabelPlacer {
  /**
   * The box of the label `key` with `text`, for its point at (px, py): its left and top edge.
   * The same key at the same point gets the same box.
   */
  place(key: string, px: number, py: number, text: string): LabelBox;
  /** Every box placed, by key */
  boxes(): ReadonlyMap<string, LabelBox>;
}

/** A placer for one chart's labels, `fontPx` high, `gap` px from their point. */
export function labelPlacer(fontPx: number, gap = 8): LabelPlacer {
  const placed = new Map<string, { px: number; py: number; text: string; box: LabelBox }>();
  return {
    place(key, px, py, text) {
      const prior = placed.get(key);
      if (prior && prior.px === px && prior.py === py && prior.text === text) return prior.box;
      placed.delete(key);
      const { w, h } = labelSize(text, fontPx);
      let best: LabelBox | null = null;
      let bestOverlap = Number.POSITIVE_INFINITY;
      for (const [dx, dy] of candidates(w, h, gap)) {
        const box = { x: px + dx, y: py + dy, w, h };
        let overlap = 0;
        for (const other of placed.values()) overlap += overlapArea(box, other.box);
        if (overlap < bestOverlap) {
          best = box;
          bestOverlap = overlap;
          if (overlap === 0) break;
        }
      }
      placed.set(key, { px, py, text, box: best! });
      return best!;
    },
    boxes: () => new Map([...placed].map(([k, v]) => [k, v.box])),
  };
}
