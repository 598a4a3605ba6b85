import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import type { ChartDef } from "./chart-catalog";
import { DRILLDOWN_POLL_MS, drilldownBuilding } from "./drilldown";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";
import { runListSchema, runSummarySchema } from "./schemas";
import { goodputSchema } from "./slo";

export interface RunListParams {
  q?: string;
  label?: string;
  model?: string;
  gpu?: string;
  backend?: string;
  gpus?: number;
  concurrency?: number;
  sort?: string;
  dir?: string;
  cursor?: string;
  limit?: number;
}

export function runListQueryOptions(params: RunListParams) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") search.set(k, String(v));
  return queryOptions({
    queryKey: queryKeys.runList(params),
    queryFn: () => fetchJson(`/api/runs?${search}`, runListSchema),
  });
}

/** The runs table: newest first, pages joined by cursor ("Load more"). */
export function runListInfiniteQueryOptions(params: Omit<RunListParams, "cursor">) {
  return infiniteQueryOptions({
    queryKey: queryKeys.runListInfinite(params),
    queryFn: ({ pageParam }) =>
      runListQueryOptions({ ...params, cursor: pageParam ?? undefined }).queryFn!({} as never),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function runQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.run(id),
    queryFn: () => fetchJson(`/api/runs/${encodeURIComponent(id)}`, runSummarySchema),
    // A ready run only changes by rename/relabel (which invalidates it) or re-ingest.
    staleTime: 60_000,
    // ...and once, when its drill-down is stored: asked again until then.
    refetchInterval: (query) =>
      query.state.data && drilldownBuilding(query.state.data) ? DRILLDOWN_POLL_MS : false,
  });
}

/**
 * Chart payloads computed at ingest; a ready run's charts never change until re-ingest, so they
 * are cached for good. The chart's schema (lib/api/chart-catalog.ts) validates its payload. `version` (the run's
 * `chartVersion`) goes into the URL, which the server then answers as immutable, and into the key,
 * so a re-ingested run's charts are fetched anew.
 */
export function runChartQueryOptions<S extends z.ZodType>(id: string, chart: ChartDef<S>, version?: string) {
  const qs = version === undefined ? "" : `?${new URLSearchParams({ v: version })}`;
  return queryOptions({
    queryKey: queryKeys.runChart(id, chart, version ?? null),
    queryFn: () =>
      fetchJson(
        `/api/runs/${encodeURIComponent(id)}/charts/${encodeURIComponent(chart.key)}${qs}`,
        chart.schema,
      ),
    staleTime: Infinity,
  });
}

/** Goodput under the `slo` parameter's SLOs (docs/metrics.md §Goodput). */
export function runGoodputQueryOptions(id: string, slo: string) {
  return queryOptions({
    queryKey: queryKeys.runGoodput(id, slo),
    queryFn: () =>
      fetchJson(`/api/runs/${encodeURIComponent(id)}/goodput?slo=${encodeURIComponent(slo)}`, goodputSchema),
    staleTime: 60_000,
  });
}
