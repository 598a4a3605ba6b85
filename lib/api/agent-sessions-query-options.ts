import { queryOptions } from "@tanstack/react-query";
import { agentSessionPageWireSchema } from "./agent-sessions";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** One page of every agent session of a run; a ready run's stored pages never change. */
export function agentSessionPageQueryOptions(runId: string, page: number) {
  return queryOptions({
    queryKey: queryKeys.agentSessionPage(runId, page),
    queryFn: () =>
      fetchJson(
        `/api/runs/${encodeURIComponent(runId)}/agent-sessions?page=${page}`,
        agentSessionPageWireSchema,
      ),
    staleTime: Infinity,
  });
}
