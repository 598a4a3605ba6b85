"use client";

import { useQueryState } from "nuqs";
import { useAfterPaint } from "@/components/charts/use-after-paint";
import { useRunChart } from "@/components/charts/use-run-chart";
import { runSearchParams } from "@/components/run/search-params";
import { seriesChart } from "@/lib/metrics/server-metrics/chart-rows";

import { SM_CHARTS } from "@/lib/api/chart-catalog";

/** The endpoint picker's choice, kept in the URL: "all" | "role:<role>" | "<endpoint>". */
export function useEndpointChoice() {
  return useQueryState("endpoint", runSearchParams.endpoint);
}

/**
 * The endpoints payload and the time series of the endpoint (or role) picked in the URL. The
 * series (hundreds of KB on a big run) is fetched once the endpoint charts have painted, so
 * parsing it does not hold the view's first chart back.
 */
export function useSmData(runId: string, enabled: boolean) {
  const endpoints = useRunChart(runId, enabled ? SM_CHARTS.endpoints : null);
  const [choice] = useEndpointChoice();
  const afterFirst = useAfterPaint(endpoints.data !== undefined);
  const chart = endpoints.data && afterFirst ? seriesChart(endpoints.data, choice) : null;
  const series = useRunChart(runId, chart);
  return { endpoints, series };
}
