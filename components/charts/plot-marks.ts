import type { AxisSpec, Mark, SeriesConfig } from "./plot-types";

/** What a plot would paint: nothing, only zero-length bars, or at least one visible mark. */
export type PlotMarks = "none" | "zeros" | "some";

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * Whether a chart has anything to draw, decided before drawing so that a chart with no data shows
 * a line saying what is missing instead of bare axes. A line or area needs two points (one point
 * draws nothing unless dots are on); a bar of 0 has no length; a scatter point needs its y value.
 */
export function plotMarks<R extends object>(
  kind: Mark,
  data: readonly R[],
  series: SeriesConfig<R>,
  y: AxisSpec | undefined,
): PlotMarks {
  let zeros = false;
  for (const [key, s] of Object.entries(series)) {
    if (s.hidden) continue;
    const mark = s.mark ?? kind;
    const rows = (s.data ?? data) as readonly Record<string, unknown>[];
    const field = mark === "scatter" ? (y?.key ?? s.dataKey ?? key) : (s.dataKey ?? key);
    let points = 0;
    for (const r of rows) {
      const v = r[field];
      if (!finite(v)) continue;
      if (mark === "bar" && v === 0) {
        zeros = true;
        continue;
      }
      points++;
    }
    const needed = mark === "line" || mark === "area" ? (s.dots ? 1 : 2) : 1;
    if (points >= needed) return "some";
  }
  return zeros ? "zeros" : "none";
}
