"use client";

import type { ReactNode } from "react";
import { ChartContainer, type SeriesConfig } from "@/components/charts/chart-container";
import { ROUTER_LOG_PREDICTION } from "@/components/charts/definitions";
import { formatNumber, formatPoints } from "@/lib/format-number";
import type { RouterLogLinePoint, RouterLogOverlay } from "@/lib/metrics/compare-router-log";

export interface RouterLogRunLine {
  runId: string;
  run: string;
  color: string;
  points: RouterLogLinePoint[];
}

/**
 * Each compared run's router-predicted hit rate (solid) and the engines' delivered one (dashed,
 * same colour) on one time axis, or each run's gap; every run's time starts at its own first interval.
 */
export function ChartLineCompareRouterLog({
  runs,
  overlay,
  actions,
}: {
  runs: RouterLogRunLine[];
  overlay: RouterLogOverlay;
  actions?: ReactNode;
}) {
  const line = (r: RouterLogRunLine, key: keyof RouterLogLinePoint, label: string, dashed = false) => [
    `${r.runId}:${key}`,
    {
      label: `${r.run} · ${label}`,
      color: r.color,
      data: r.points,
      dataKey: key,
      dashed,
      unit: overlay === "gap" ? " pp" : "%",
    },
  ];
  const hasDelivered = (r: RouterLogRunLine) => r.points.some((p) => p.delivered !== null);
  const series: SeriesConfig = Object.fromEntries(
    runs.flatMap((r) =>
      overlay === "gap"
        ? hasDelivered(r)
          ? [line(r, "gap", "gap")]
          : []
        : [
            line(r, "predicted", "predicted"),
            ...(hasDelivered(r) ? [line(r, "delivered", "delivered", true)] : []),
          ],
    ),
  );
  return (
    <ChartContainer
      title={
        overlay === "gap"
          ? "Router log: delivered − predicted hit rate over time, per run"
          : "Router log: predicted vs delivered hit rate over time, per run"
      }
      description={
        overlay === "gap"
          ? "percentage points per interval: below 0, the engines served less from cache than the router expected"
          : "% per interval: solid, the overlap the router logged for the workers it chose; dashed, the share of prompt tokens the engines served from cache"
      }
      definition={{
        ...ROUTER_LOG_PREDICTION,
        window:
          "each run's scrape intervals, time from its own first interval (the log's span when it has no scrapes)",
      }}
      csvRows={() =>
        runs.flatMap((r) =>
          r.points.map((p) => ({
            run: r.run,
            "t (s)": p.t,
            "predicted %": p.predicted,
            "delivered %": p.delivered,
            "gap (pp)": p.gap,
          })),
        )
      }
      exportName={`compare-router-log-${overlay}`}
      missing={
        overlay === "gap"
          ? "No compared run has routing decisions and engine counters in the same interval: upload the engines' server metrics with the frontend's log."
          : "No compared run's router log has a routing decision in an interval: its lines carry no time, or none fall within the scrapes."
      }
      actions={actions}
      kind="line"
      series={series}
      x={{
        key: "t",
        numeric: true,
        overlaid: true,
        title: "time from the run's first interval",
        unit: "s",
        tickUnit: " s",
      }}
      y={
        overlay === "gap"
          ? { title: "delivered − predicted", unit: "pp", format: formatPoints }
          : { title: "hit rate", unit: "%", tickUnit: "%", domain: [0, 100] }
      }
      tooltip={{
        label: (t) => `${formatNumber(Number(t), 0)} s`,
        value: (v) => (overlay === "gap" ? formatPoints(v) : `${formatNumber(v, 1)}%`),
      }}
      legend
    />
  );
}
