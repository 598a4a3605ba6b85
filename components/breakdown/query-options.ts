import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/api/fetch-json";
import { queryKeys } from "@/lib/api/query-keys";
import { requestDetailSchema, requestSampleSchema, type SampleSort } from "@/lib/api/trtllm-charts";

/** Sorted request sample for the per-request chart; a ready run's rows never change. */
export function requestSampleQueryOptions(
  runId: string,
  sort: SampleSort,
  order: "asc" | "desc",
  limit: number,
) {
  const qs = new URLSearchParams({ sort, order, limit: String(limit) });
  return queryOptions({
    queryKey: queryKeys.trtllmRequestSample(runId, sort, order, limit),
    queryFn: () =>
      fetchJson(`/api/runs/${encodeURIComponent(runId)}/trtllm/requests?${qs}`, requestSampleSchema),
    staleTime: Infinity,
  });
}

export function requestDetailQueryOptions(runId: string, idx: number) {
  return queryOptions({
    queryKey: queryKeys.trtllmRequest(runId, idx),
    queryFn: () =>
      fetchJson(`/api/runs/${encodeURIComponent(runId)}/trtllm/requests/${idx}`, requestDetailSchema),
    staleTime: Infinity,
  });
}
