"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { ChartDef } from "@/lib/api/chart-catalog";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions, runQueryOptions } from "@/lib/api/query-options";

/**
 * One chart payload of a run, fetched under the run's chart version (taken from the run summary
 * the page already holds) so the browser may keep it as immutable; `chart` null = not needed.
 * The chart (lib/api/chart-catalog.ts) brings its key and the schema its payload is read with.
 */
/** Stands in for a chart not needed (the query is disabled then, never fetched). */
const NONE = { key: "-", schema: undefined as never, version: 0, title: "" } as ChartDef<never>;

export function useRunChart<S extends z.ZodType>(runId: string, chart: ChartDef<S> | null, enabled = true) {
  // Only the version is read: the summary is in the cache already and is not refetched for it.
  const { data: version } = useQuery({
    ...runQueryOptions(runId),
    select: chartVersion,
    refetchOnMount: false,
  });
  return useQuery({
    ...runChartQueryOptions(runId, chart ?? NONE, version),
    enabled: enabled && chart !== null && version !== undefined,
    retry: false,
  });
}
