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
 * The row of each mark's name, 0 just above the plot and counting up: each name takes the lowest
 * row where it keeps `gapPx` from every name already there, on a plot `plotPx` wide.
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
