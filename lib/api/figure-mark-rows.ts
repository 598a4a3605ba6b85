/**
 * Where the names of a figure's x marks (a distribution's p50 … p99) go: in a label row above the
 * plot, never inside it, where a name sat on the tallest bar or on the CDF's top. Names that would
 * meet in one row are staggered onto rows further up. The page's chart kit
 * (components/charts/reference-marks.tsx) and the server's drawing of a first figure
 * (lib/runs/first-figures.ts) both place them from here, so the drawing the page opens with and
 * the chart that replaces it agree. A leaf: the browser bundles it.
 */

/** The label font (11 px), a row's height, and about how wide a character of it is (erring wide). */
export const MARK_LABEL = { fontPx: 11, rowPx: 14, charPx: 7, offsetPx: 4, gapPx: 6 } as const;

/**
 * The plot width the rows are fitted to: a phone's (a 390 px screen leaves about 250 px of plot).
 * Names apart there are further apart on any wider plot, so one set of rows serves every width,
 * and the server, which does not know the width, places them as the browser does.
 */
export const MARK_ROWS_PLOT_PX = 240;

/**
 * The side of a vertical mark its name goes on so it stays over the plot: right of the line in
 * the x axis's left half, left of it in the right half.
 */
export function markLabelSide(x: number, domain: readonly [number, number]): "left" | "right" {
  return x > (domain[0] + domain[1]) / 2 ? "left" : "right";
}

/**
 * The marks with the names of lines too close together merged, so that no name overlaps another
 * and they take at most `maxRows` label rows on the phone's plot. Names of one value at `format`'s
 * precision are always one name ("p90, p99 = 12 ms"); then, while the names would need more rows
 * than `maxRows` (a run of 3 requests: p75, p90 and p99 a few px apart stacked four names high over
 * one spot), the two neighbouring groups whose lines are closest merge ("p75, p90, p99"). Names
 * that fit are staggered as before (markLabelRows). Every line stays; a group's name is written
 * once, by its outer line on the side names go there (so the text crosses none of its lines); its
 * other marks get an empty name, which takes no row. Marks are in ascending x, as percentiles are.
 */
export function mergedMarkLabels<M extends { x: number; label: string }>(
  marks: readonly M[],
  domain: readonly [number, number],
  format: (v: number) => string,
  plotPx: number = MARK_ROWS_PLOT_PX,
  maxRows = 2,
): M[] {
  const [lo, hi] = domain;
  const px = (x: number) => (hi > lo ? ((x - lo) / (hi - lo)) * plotPx : plotPx / 2);
  // Groups of neighbouring marks, as [first, last] indexes; marks at one shown value start as one.
  const groups: Array<[number, number]> = [];
  marks.forEach((m, i) => {
    const last = groups.at(-1);
    if (last && format(marks[last[1]].x) === format(m.x)) last[1] = i;
    else groups.push([i, i]);
  });
  const labelled = () => {
    const out = marks.map((m) => ({ ...m }));
    for (const [first, last] of groups) {
      if (first === last) continue;
      const members = marks.slice(first, last + 1);
      const values = new Set(members.map((m) => format(m.x)));
      const text = members.map((m) => m.label).join(", ") + (values.size === 1 ? ` = ${[...values][0]}` : "");
      // Its leftmost line where names go left of their lines (the plot's right half), else its rightmost.
      const carrier = markLabelSide(marks[first].x, domain) === "left" ? first : last;
      for (let j = first; j <= last; j++) out[j].label = j === carrier ? text : "";
    }
    return out;
  };
  for (;;) {
    const out = labelled();
    if (groups.length < 2 || markRowsHeight(markLabelRows(out, domain, plotPx)) <= maxRows * MARK_LABEL.rowPx)
      return out;
    let closest = 1;
    for (let g = 2; g < groups.length; g++)
      if (
        px(marks[groups[g][0]].x) - px(marks[groups[g - 1][1]].x) <
        px(marks[groups[closest][0]].x) - px(marks[groups[closest - 1][1]].x)
      )
        closest = g;
    groups[closest - 1][1] = groups[closest][1];
    groups.splice(closest, 1);
  }
}

/**
 * The row of each mark's name, 0 just above the plot and counting up: each name takes the lowest
 * row where it keeps `gapPx` from every name already there, on a plot `plotPx` wide. An empty
 * name (a mark whose name a neighbour writes, mergedMarkLabels) takes none: row 0.
 */
export function markLabelRows(
  marks: ReadonlyArray<{ x: number; label: string }>,
  domain: readonly [number, number],
  plotPx: number = MARK_ROWS_PLOT_PX,
): number[] {
  const [lo, hi] = domain;
  const { charPx, offsetPx, gapPx } = MARK_LABEL;
  const rows: Array<Array<readonly [number, number]>> = [];
  return marks.map((m) => {
    if (m.label === "") return 0;
    const at = hi > lo ? ((m.x - lo) / (hi - lo)) * plotPx : plotPx / 2;
    const width = m.label.length * charPx;
    const box =
      markLabelSide(m.x, domain) === "right"
        ? ([at + offsetPx, at + offsetPx + width] as const)
        : ([at - offsetPx - width, at - offsetPx] as const);
    let row = rows.findIndex((taken) => taken.every(([a, b]) => box[1] + gapPx <= a || b + gapPx <= box[0]));
    if (row < 0) row = rows.push([]) - 1;
    rows[row].push(box);
    return row;
  });
}

/** The height the label rows need above the plot: as many rows as the names took. */
export function markRowsHeight(rows: readonly number[]): number {
  let top = -1;
  for (const r of rows) top = Math.max(top, r);
  return (top + 1) * MARK_LABEL.rowPx;
}
