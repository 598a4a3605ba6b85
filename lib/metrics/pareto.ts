/**
 * Pareto frontiers of a sweep and reading them at one x (docs/metrics.md §Sweeps). Pure.
 *
 * A point is on the frontier unless another point is at least as good on both axes and strictly
 * better on one. Two identical points tie: neither dominates, both stay (the table shows both;
 * the line passes through them once). The frontier is read by linear interpolation between its
 * neighbours in x; outside its x range the end segment is extended and the answer says so.
 */

export type Sense = "max" | "min";

export interface ParetoInput<T = unknown> {
  x: number;
  y: number;
  item: T;
}

export interface Axes {
  x: Sense;
  y: Sense;
}

const better = (a: number, b: number, s: Sense) => (s === "max" ? a > b : a < b);
const noWorse = (a: number, b: number, s: Sense) => (s === "max" ? a >= b : a <= b);

export function dominates(a: { x: number; y: number }, b: { x: number; y: number }, axes: Axes): boolean {
  return (
    noWorse(a.x, b.x, axes.x) &&
    noWorse(a.y, b.y, axes.y) &&
    (better(a.x, b.x, axes.x) || better(a.y, b.y, axes.y))
  );
}

/** The points no other point dominates, sorted by x ascending (then y); non-finite points never count. */
export function paretoFrontier<T>(points: ParetoInput<T>[], axes: Axes): ParetoInput<T>[] {
  const finite = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  // O(n²): a sweep has tens of points, and the plain definition is the easiest to check.
  return finite
    .filter((p) => !finite.some((q) => q !== p && dominates(q, p, axes)))
    .sort((a, b) => a.x - b.x || a.y - b.y);
}

export type Reading =
  | { y: number; how: "exact" | "interpolated" | "extrapolated"; from: [number, number] }
  | { y: null; how: "none"; reason: string };

/**
 * The frontier's y at `x`: exact on a point, interpolated between the two frontier points around
 * it, or extrapolated along the nearest end segment (flagged: the sweep did not measure there).
 * `from` gives the x range of the points used. A one-point frontier answers only at its own x.
 */
export function readFrontier(frontier: Array<{ x: number; y: number }>, x: number): Reading {
  if (!Number.isFinite(x)) return { y: null, how: "none", reason: "no value to read at" };
  // Tied points share an x: keep one per x so a segment never has zero width.
  const pts = frontier.filter((p, i) => i === 0 || p.x !== frontier[i - 1].x);
  if (pts.length === 0) return { y: null, how: "none", reason: "the frontier has no points" };
  const hit = pts.find((p) => p.x === x);
  if (hit) return { y: hit.y, how: "exact", from: [hit.x, hit.x] };
  if (pts.length === 1)
    return { y: null, how: "none", reason: "a one-point frontier cannot be read away from its point" };
  let i = pts.findIndex((p) => p.x > x);
  const how = i <= 0 ? "extrapolated" : "interpolated";
  if (i === -1) i = pts.length - 1;
  if (i === 0) i = 1;
  const a = pts[i - 1];
  const b = pts[i];
  const y = a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
  return { y, how, from: [a.x, b.x] };
}

export interface FrontierComparison {
  /** Each frontier's reading, in the order given (the first is the baseline) */
  readings: Reading[];
  /** (y − baseline y) / |baseline y| for every frontier; null for the baseline or an unreadable one */
  deltas: Array<number | null>;
}

/** Every frontier read at the same x, each compared with the first. */
export function compareFrontiersAt(
  frontiers: Array<Array<{ x: number; y: number }>>,
  x: number,
): FrontierComparison {
  const readings = frontiers.map((f) => readFrontier(f, x));
  const base = readings[0]?.y ?? null;
  const deltas = readings.map((r, i) =>
    i === 0 || r.y === null || base === null || base === 0 ? null : (r.y - base) / Math.abs(base),
  );
  return { readings, deltas };
}
