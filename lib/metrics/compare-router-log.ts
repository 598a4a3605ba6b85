/**
 * The router log's predicted hit rate beside the engines' delivered one, across compared runs
 * (docs/metrics.md §Predicted vs delivered across runs). The figures are the runs' stored ones
 * (Σ overlap / Σ prompt blocks, Σ cached / Σ prompt tokens); only the deltas are computed here,
 * in percentage points, since a hit rate's change in percent of itself reads as a different number.
 */
import type { RouterLogPayload } from "@/lib/api/router-log";

export interface CompareRouterLogRow {
  runId: string;
  /** Routing decisions counted in the run's window */
  decisions: number;
  predictedPct: number | null;
  deliveredPct: number | null;
  /** delivered − predicted, in percentage points */
  gapPoints: number | null;
}

export type CompareRouterLogKey = "predictedPct" | "deliveredPct" | "gapPoints";
export const COMPARE_ROUTER_LOG_KEYS: readonly CompareRouterLogKey[] = [
  "predictedPct",
  "deliveredPct",
  "gapPoints",
];

/** What the overlay draws: both rates of each run, or each run's gap between them. */
export const ROUTER_LOG_OVERLAYS = ["rates", "gap"] as const;
export type RouterLogOverlay = (typeof ROUTER_LOG_OVERLAYS)[number];

const pct = (v: number | null) => (v === null ? null : v * 100);

export function compareRouterLogRow(runId: string, p: RouterLogPayload): CompareRouterLogRow {
  return {
    runId,
    decisions: p.decisions,
    predictedPct: pct(p.predicted),
    deliveredPct: pct(p.delivered),
    gapPoints: p.gapPoints,
  };
}

/** Each row's change against the baseline's, in points; null on the baseline itself or a missing side. */
export function compareRouterLogDeltas(
  rows: readonly CompareRouterLogRow[],
  baselineId: string,
): Record<string, Record<CompareRouterLogKey, number | null>> {
  const base = rows.find((r) => r.runId === baselineId) ?? null;
  const out: ReturnType<typeof compareRouterLogDeltas> = {};
  for (const r of rows) {
    const d = (k: CompareRouterLogKey) => {
      const a = r[k];
      const b = base?.[k] ?? null;
      return r === base || a === null || b === null ? null : a - b;
    };
    out[r.runId] = {
      predictedPct: d("predictedPct"),
      deliveredPct: d("deliveredPct"),
      gapPoints: d("gapPoints"),
    };
  }
  return out;
}

export interface RouterLogLinePoint {
  /** Seconds from the run's first interval (or its first decision, without scrapes) */
  t: number;
  predicted: number | null;
  delivered: number | null;
  gap: number | null;
}

/**
 * One run's points for the overlay, in %: the gap only where an interval has both sides, so an
 * interval without routing decisions is a break in the line and never a gap of −delivered.
 */
export function routerLogLinePoints(p: RouterLogPayload): RouterLogLinePoint[] {
  return p.points.map((x) => {
    const predicted = pct(x.predicted);
    const delivered = pct(x.delivered);
    return {
      t: x.t,
      predicted,
      delivered,
      gap: predicted === null || delivered === null ? null : delivered - predicted,
    };
  });
}
