"use client";

import { ChartFigure } from "@/components/charts/chart-figure";
import type { FigureDescription } from "@/lib/api/figure";

/**
 * Latency CDFs of several runs on one axis: a shift left is faster at every percentile. Drawn from
 * the description the comparison's report draws too (lib/metrics/figures/compare-cdf.ts).
 */
export function ChartLineCompareCdf({
  figure,
  actions,
}: {
  figure: FigureDescription;
  actions?: React.ReactNode;
}) {
  return <ChartFigure figure={figure} actions={actions} />;
}
