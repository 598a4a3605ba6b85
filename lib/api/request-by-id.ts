/**
 * A run's request by its own id (`GET /api/runs/{id}/requests/by-id?rid=`): the position its
 * drill-down opens it by. The run page's `?rid=` link is answered through it (docs/http-api.md).
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** A request's own id: TensorRT-LLM's `disagg_request_id` or `request_id`, aiperf's `x_request_id`. */
export const requestByIdQuerySchema = z.object({ rid: z.string().min(1).max(200) });

export const requestByIdSchema = z.object({
  /** Whose drill-down opens it: TensorRT-LLM's (`position` is its `idx`) or aiperf's (the timeline bar's id). */
  source: z.enum(["trtllm", "aiperf"]),
  position: z.number().int().min(0),
  /** How many requests carry the id, counted to 2: above 1, the first by position is the one answered. */
  matches: z.number().int().min(1).max(2),
});
export type RequestByIdAnswer = z.infer<typeof requestByIdSchema>;

/** The 404's words for an id no drill-down opens. */
export function noRequestWithId(rid: string, noDrilldown = false): string {
  return noDrilldown
    ? `the request with id ${rid} has no drill-down: it is a warm-up request or records no start or end`
    : `no request with id ${rid} in this run`;
}

/** The request the URL's `rid` names; a ready run's requests never change, so it is asked once. */
export function requestByIdQueryOptions(runId: string, rid: string) {
  return queryOptions({
    queryKey: queryKeys.requestById(runId, rid),
    queryFn: () =>
      fetchJson(
        `/api/runs/${encodeURIComponent(runId)}/requests/by-id?${new URLSearchParams({ rid })}`,
        requestByIdSchema,
      ),
    staleTime: Infinity,
    retry: false,
  });
}
