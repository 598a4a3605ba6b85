import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";
import { sweepListSchema, sweepRunSchema, sweepSchema } from "./sweeps";

/** One sweep with its points; a sweep changes only when it is regrouped (which invalidates it). */
export function sweepQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.sweep(id),
    queryFn: () => fetchJson(`/api/sweeps/${encodeURIComponent(id)}`, sweepSchema),
    staleTime: 60_000,
  });
}

export function sweepListQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.sweeps(),
    queryFn: () => fetchJson("/api/sweeps", sweepListSchema),
  });
}

/** A single run's point, marked on a sweep's charts. */
export function sweepRunPointQueryOptions(runId: string) {
  return queryOptions({
    queryKey: [...queryKeys.run(runId), "sweep-point"] as const,
    queryFn: () => fetchJson(`/api/runs/${encodeURIComponent(runId)}/sweep-point`, sweepRunSchema),
    staleTime: 60_000,
  });
}
