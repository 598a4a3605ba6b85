"use client";

import { TimeLines } from "@/components/charts/time-lines";
import type { TimeRow } from "@/lib/metrics/server-metrics/chart-rows";
import type { RouterPredictionPayload } from "@/lib/api/router-prediction";
import { ROUTER_PREDICTION } from "@/components/charts/definitions";
import type { SeriesConfig } from "@/components/charts/chart-container";

/** More pools than this and the chart would be a tangle: the table carries them. */
const MAX_POOLS = 4;
const PREDICTED = ["var(--chart-1)", "var(--chart-3)", "var(--chart-5)", "var(--chart-7)"];
const DELIVERED = ["var(--chart-2)", "var(--chart-4)", "var(--chart-6)", "var(--chart-8)"];

/** One row per interval start, a predicted and a delivered column per pool (pools share the grid). */
function rowsOf(payload: RouterPredictionPayload): TimeRow[] {
  const byT = new Map<number, TimeRow>();
  payload.series.slice(0, MAX_POOLS).forEach((s, i) => {
    for (const p of s.points) {
      const row = byT.get(p.t) ?? { t: p.t };
      row[`p${i}`] = p.predicted === null ? null : p.predicted * 100;
      row[`d${i}`] = p.delivered === null ? null : p.delivered * 100;
      byT.set(p.t, row);
    }
  });
  return [...byT.values()].sort((a, b) => a.t - b.t);
}

/** The router's predicted hit rate beside what the pool's engines delivered, per scrape interval. */
export function ChartLineRouterPrediction({ payload }: { payload: RouterPredictionPayload }) {
  const shown = payload.series.slice(0, MAX_POOLS);
  const one = shown.length === 1;
  const series: SeriesConfig = {};
  shown.forEach((s, i) => {
    series[`p${i}`] = { label: one ? "predicted (router)" : `${s.label} predicted`, color: PREDICTED[i] };
    series[`d${i}`] = { label: one ? "delivered (engines)" : `${s.label} delivered`, color: DELIVERED[i] };
  });
  return (
    <TimeLines
      title="Router predicted vs delivered hit rate over time"
      description="% per interval: the router's predicted overlap for the workers it chose, and the share of prompt tokens those workers served from cache"
      exportName="router-predicted-vs-delivered"
      definition={ROUTER_PREDICTION}
      missing="No interval has a prediction: the router's histogram needs its count per interval (aiperf timeslices or raw scrapes over time)."
      rows={rowsOf(payload)}
      series={series}
      yTitle="hit rate"
      unit="%"
      yMax={100}
    />
  );
}
