/** The compared runs' colours, by position: the theme's --chart-N variables (8 runs at most). */
export function runColor(index: number): string {
  return `var(--chart-${(index % 8) + 1})`;
}

/** Segment colours follow the run page: --seg-<segment name in kebab case>. */
export function segmentColor(name: string): string {
  return `var(--seg-${name.replace(/_/g, "-")})`;
}
