import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/api/fetch-json";
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
    queryKey: ["run", runId, "trtllm-requests", sort, order, limit],
    queryFn: () =>
      fetchJson(`/api/runs/${encodeURIComponent(runId)}/trtllm/requests?${qs}`, requestSampleSchema),
    staleTime: Infinity,
  });
}

export function requestDetailQueryOptions(runId: string, idx: number) {
  return queryOptions({
    queryKey: ["run", runId, "trtllm-request", idx],
    queryFn: () =>
      fetchJson(`/api/runs/${encodeURIComponent(runId)}/trtllm/requests/${idx}`, requestDetailSchema),
    staleTime: Infinity,
  });
}
