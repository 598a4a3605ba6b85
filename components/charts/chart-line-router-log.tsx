"use client";

import { TimeLines } from "@/components/charts/time-lines";
import { ROUTER_LOG_PREDICTION } from "@/components/charts/definitions";
import type { RouterLogPayload } from "@/lib/api/router-log";
import type { TimeRow } from "@/lib/metrics/server-metrics/chart-rows";

function rowsOf(payload: RouterLogPayload): TimeRow[] {
  return payload.points.map((p) => ({
    t: p.t,
    predicted: p.predicted === null ? null : p.predicted * 100,
    delivered: p.delivered === null ? null : p.delivered * 100,
  }));
}

/** The router log's predicted hit rate beside what the engines delivered, per scrape interval. */
export function ChartLineRouterLog({ payload }: { payload: RouterLogPayload }) {
  const withDelivered = payload.points.some((p) => p.delivered !== null);
  return (
    <TimeLines
      title="Router log: predicted vs delivered hit rate over time"
      description={
        withDelivered
          ? "% per interval: the overlap the router logged for the workers it chose, and the share of prompt tokens the engines served from cache"
          : "% per interval: the overlap the router logged for the workers it chose (no engine counters to set beside it)"
      }
      exportName="router-log-predicted-vs-delivered"
      definition={ROUTER_LOG_PREDICTION}
      missing="No interval has a routing decision: the log's lines carry no time, or none fall within the scrapes."
      rows={rowsOf(payload)}
      series={{
        predicted: { label: "predicted (router log)", color: "var(--chart-1)" },
        ...(withDelivered ? { delivered: { label: "delivered (engines)", color: "var(--chart-2)" } } : {}),
      }}
      yTitle="hit rate"
      unit="%"
      yMax={100}
    />
  );
}
