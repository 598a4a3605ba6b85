/**
 * Pareto frontiers of a sweep and reading them at one x (docs/metrics.md §Sweeps). Pure.
 *
 * A point is on the frontier unless another point is at least as good on both axes and strictly
 * better on one. Two identical points tie: neither dominates, both stay (the table shows both;
 * the line passes through them once). The frontier is drawn and read as a step: at any x, the
 * best y of the points at least as good in x.
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

export type Reading<T extends { x: number; y: number } = { x: number; y: number }> =
  | {
      y: number;
      /** exact: a point at x; step: the point the step takes between two; beyond: past the measured range */
      how: "exact" | "step" | "beyond";
      /** The frontier point that gives the reading */
      point: T;
    }
  | { y: null; how: "none"; reason: string };

const qualifies = (px: number, x: number, s: Sense) => (s === "max" ? px >= x : px <= x);

/**
 * The frontier's y at `x`, read as the step it is drawn as: the best y among the frontier points
 * at least as good as `x` on the x axis (interactivity at least `x`, latency at most `x`). Between
 * two points that is the one past `x`; outside the measured range on the side a point still
 * qualifies, the nearest end ("beyond": the sweep did not run there, so more may be possible); on
 * the other side no point reaches `x` and there is no reading. No value is made up between points:
 * a straight line between two loads is a configuration nobody ran.
 */
export function readFrontier<T extends { x: number; y: number }>(
  frontier: readonly T[],
  x: number,
  axes: Axes,
): Reading<T> {
  if (!Number.isFinite(x)) return { y: null, how: "none", reason: "no value to read at" };
  const pts = frontier.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (pts.length === 0) return { y: null, how: "none", reason: "the frontier has no points" };
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pts) {
    if (p.x < lo) lo = p.x;
    if (p.x > hi) hi = p.x;
  }
  let best: T | null = null;
  for (const p of pts)
    if (qualifies(p.x, x, axes.x) && (best === null || better(p.y, best.y, axes.y))) best = p;
  if (best === null) {
    const edge = axes.x === "max" ? hi : lo;
    return {
      y: null,
      how: "none",
      reason: `no point reaches it (the ${axes.x === "max" ? "highest" : "lowest"} is ${edge.toPrecision(4)})`,
    };
  }
  const how = best.x === x ? "exact" : x < lo || x > hi ? "beyond" : "step";
  return { y: best.y, how, point: best };
}

/**
 * The corners of the frontier drawn as a step, from its first point to its last in x order: from
 * each point the line keeps the y a reader at that x gets (readFrontier) until the next point.
 */
export function frontierSteps(frontier: ReadonlyArray<{ x: number; y: number }>, axes: Axes) {
  const pts = [...frontier]
    .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y))
    .sort((a, b) => a.x - b.x)
    .filter((p, i, all) => i === 0 || p.x !== all[i - 1].x);
  const out: Array<{ x: number; y: number }> = [];
  pts.forEach((p, i) => {
    out.push({ x: p.x, y: p.y });
    const next = pts[i + 1];
    if (!next) return;
    // Interactivity at least x (x maximised): just past a point the next one gives the reading;
    // latency at most x (x minimised): a point's y holds until the next point.
    out.push(axes.x === "max" ? { x: p.x, y: next.y } : { x: next.x, y: p.y });
  });
  return out;
}

export interface FrontierComparison<T extends { x: number; y: number }> {
  /** Each frontier's reading, in the order given (the first is the baseline) */
  readings: Reading<T>[];
  /** (y − baseline y) / |baseline y| for every frontier; null for the baseline or an unreadable one */
  deltas: Array<number | null>;
}

/** Every frontier read at the same x, each compared with the first. */
export function compareFrontiersAt<T extends { x: number; y: number }>(
  frontiers: ReadonlyArray<readonly T[]>,
  x: number,
  axes: Axes,
): FrontierComparison<T> {
  const readings = frontiers.map((f) => readFrontier(f, x, axes));
  const base = readings[0]?.y ?? null;
  const deltas = readings.map((r, i) =>
    i === 0 || r.y === null || base === null || base === 0 ? null : (r.y - base) / Math.abs(base),
  );
  return { readings, deltas };
}
