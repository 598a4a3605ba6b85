"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatValue } from "@/components/compare/format-value";
import type { SeriesRun } from "@/lib/api/regression-schemas";
import { formatNumber } from "@/lib/format-number";

export interface TrendRow {
  run: number;
  id: string;
  name: string;
  commit: string;
  value: number | null;
  bandLow: number | null;
  bandHigh: number | null;
  regressed: number | null;
  improved: number | null;
  /** A verdict left undrawn: the run has no band drawn to read it against (listed with its interval) */
  unbanded: "regressed" | "improved" | null;
}

/**
 * The band is drawn from the sixth run on: over fewer earlier runs it is many times wider than the
 * runs' own scatter (docs/metrics.md §Regressions) and would squash every other line flat.
 */
export const BAND_DRAWN_FROM = 5;

/**
 * Rows of one metric's trend: a run's value, the band of the runs before it, its mark. A run is
 * marked regressed or improved only where its band is drawn: a red dot with no band beside it is
 * a verdict without its uncertainty. A run judged before then (runs 4 and 5) keeps its verdict in
 * `unbanded`, and the page lists it with its interval.
 */
export function trendRows(runs: SeriesRun[], metric: string, scale = 1): TrendRow[] {
  return runs.map((r, i) => {
    const value = r.metrics[metric] ?? null;
    const band = i >= BAND_DRAWN_FROM ? (r.bands[metric] ?? null) : null;
    const judged = r.verdicts.find((v) => v.metric === metric)?.verdict;
    const marked = judged === "regressed" || judged === "improved" ? judged : null;
    const verdict = band ? marked : null;
    const v = value === null ? null : value * scale;
    return {
      run: i + 1,
      id: r.id,
      name: r.name,
      commit: r.commit ?? "",
      value: v,
      bandLow: band && band.low * scale,
      bandHigh: band && band.high * scale,
      regressed: verdict === "regressed" ? v : null,
      improved: verdict === "improved" ? v : null,
      unbanded: band ? null : marked,
    };
  });
}

interface Props {
  title: string;
  metric: string;
  unit: string;
  runs: SeriesRun[];
  missing: string;
  /** What the line is, when it is not a stored figure with a noise band */
  description?: string;
  /** false: a figure without band or verdicts (goodput under the page's SLO), the value line alone */
  judged?: boolean;
}

/** The tooltip's names of the band's edges; the legend names the band once. */
const TOOLTIP_NAMES: Record<string, string> = {
  bandLow: "noise band, low",
  bandHigh: "noise band, high",
  regressed: "regressed",
  improved: "improved",
};

/**
 * One metric over a series' runs: the value, the noise band of the runs before each one (median
 * ± the band of docs/metrics.md §Regressions), and the runs judged regressed or improved.
 */
export function ChartLineSeriesTrend({
  title,
  metric,
  unit,
  runs,
  missing,
  description,
  judged = true,
}: Props) {
  // Ratios are drawn in percent, as everywhere else.
  const [scale, axisUnit] = unit === "ratio" ? [100, "%"] : [1, unit];
  const rows = trendRows(runs, metric, scale);
  const fmt = (v: number) => (unit === "ratio" ? `${formatNumber(v, 1)}%` : formatValue(v, unit));
  const unbanded = judged
    ? rows.filter((r) => r.unbanded !== null).map((r) => `${r.run} (${r.unbanded})`)
    : [];
  const early = unbanded.length
    ? `; run ${unbanded.join(", ")}, judged before a band is drawn: not marked here, listed below with ${unbanded.length > 1 ? "their intervals" : "its interval"}`
    : "";
  return (
    <ChartContainer
      title={title}
      description={
        description ??
        `Each run of the series in series order; from run ${BAND_DRAWN_FROM + 1} on, the noise band of the runs before it and the runs judged outside it${early}`
      }
      exportName={`series-${metric}`}
      missing={missing}
      kind="line"
      data={rows}
      series={{
        value: { label: title, color: "var(--chart-1)", dots: true, format: fmt },
        ...(judged
          ? {
              bandLow: { label: "noise band of the runs before", color: "var(--chart-8)", format: fmt },
              bandHigh: { label: "noise band, high", color: "var(--chart-8)", format: fmt, legend: false },
              regressed: {
                label: "run judged regressed",
                color: "var(--danger)",
                noStroke: true,
                format: fmt,
              },
              improved: { label: "run judged improved", color: "var(--ok)", noStroke: true, format: fmt },
            }
          : {}),
      }}
      x={{
        key: "run",
        numeric: true,
        integers: true,
        title: "run in series",
        domain: [1, Math.max(2, rows.length)],
      }}
      y={{ title, unit: axisUnit }}
      csv={{
        run: "run",
        id: "id",
        name: "name",
        commit: "commit",
        value: "value",
        bandLow: "bandLow",
        bandHigh: "bandHigh",
        regressed: "regressed",
        improved: "improved",
        unbanded: "unbanded",
      }}
      tooltip={{
        value: (v, key) => [fmt(v), key === "value" ? title : (TOOLTIP_NAMES[key] ?? key)],
        label: (x) => {
          const r = rows[Number(x) - 1];
          return r ? `run ${r.run}: ${r.name}${r.commit ? ` (${r.commit})` : ""}` : String(x);
        },
      }}
      legend
    />
  );
}
