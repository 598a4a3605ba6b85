"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions, runQueryOptions } from "@/lib/api/query-options";

/**
 * One chart payload of a run, fetched under the run's chart version (taken from the run summary
 * the page already holds) so the browser may keep it as immutable; `key` null = not needed.
 */
export function useRunChart<S extends z.ZodType>(
  runId: string,
  key: string | null,
  schema: S,
  enabled = true,
) {
  // Only the version is read: the summary is in the cache already and is not refetched for it.
  const { data: version } = useQuery({
    ...runQueryOptions(runId),
    select: chartVersion,
    refetchOnMount: false,
  });
  return useQuery({
    ...runChartQueryOptions(runId, key ?? "-", schema, {}, version),
    enabled: enabled && key !== null && version !== undefined,
    retry: false,
  });
}
