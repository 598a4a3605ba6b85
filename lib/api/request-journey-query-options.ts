import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";
import { journeySummarySchema, requestJourneySchema } from "./request-journey";

/** The run's client↔server gap; a ready run's stored files never change, so it is fetched once. */
export function journeySummaryQueryOptions(runId: string) {
  return queryOptions({
    queryKey: queryKeys.journeySummary(runId),
    queryFn: () => fetchJson(`/api/runs/${encodeURIComponent(runId)}/journey`, journeySummarySchema),
    staleTime: Infinity,
  });
}

/** One timeline request (its drill-down id) from client to engine. */
export function requestJourneyQueryOptions(runId: string, rid: number) {
  return queryOptions({
    queryKey: queryKeys.requestJourney(runId, rid),
    queryFn: () =>
      fetchJson(
        `/api/runs/${encodeURIComponent(runId)}/timeline/requests/${rid}/journey`,
        requestJourneySchema,
      ),
    staleTime: Infinity,
  });
}
