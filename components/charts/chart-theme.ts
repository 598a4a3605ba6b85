/**
 * The look every chart shares, in one place: colours are CSS variables from app/globals.css
 * (--chart-N, --seg-*, --role-*), so the light and dark themes need no code.
 */
export const CHART_MARGIN = { top: 16, right: 16, bottom: 4, left: 4 } as const;

export const TOOLTIP_STYLE = {
  background: "var(--card)",
  borderColor: "var(--border)",
  fontSize: 12,
} as const;

/** Tooltip rows in the text colour, not the series colour (light fills are unreadable as text). */
export const TOOLTIP_ITEM_STYLE = { color: "var(--fg)" } as const;

export const LEGEND_STYLE = { fontSize: 11 } as const;

/** Ticks, axis lines and axis titles. */
export const AXIS_STYLE = { stroke: "var(--muted)", fontSize: 11 } as const;

/**
 * Text drawn over marks (point and bar labels, reference-line labels): haloed in the card colour
 * the charts sit on, the stroke painted under the fill, so another series' line, point or bar
 * passing under a label never overprints it.
 */
export const LABEL_HALO = { stroke: "var(--card)", strokeWidth: 3, paintOrder: "stroke" } as const;

/** The n-th colour of the categorical palette (8 colours, then round again). */
export function paletteColor(index: number): string {
  return `var(--chart-${(index % 8) + 1})`;
}
