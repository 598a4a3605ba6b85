"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, fetchJson } from "@/lib/api/fetch-json";
import { queryKeys } from "@/lib/api/query-keys";
import { runQueryOptions } from "@/lib/api/query-options";
import type { FactsPatch } from "@/lib/api/run-facts";
import { runSummarySchema } from "@/lib/api/schemas";
import type { SeriesFields } from "@/lib/api/series-fields";
import { authHeaders } from "./api-token";

/**
 * PATCH /api/runs/{id} ({name?, labels?, facts?, series fields?}); on success every cached view of the run is refreshed.
 * `needsToken`: the server asked for a write token, which the editors prompt for instead of
 * showing the error.
 */
export function usePatchRun(id: string) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (patch: { name?: string; labels?: string[]; facts?: FactsPatch } & SeriesFields) =>
      fetchJson(`/api/runs/${encodeURIComponent(id)}`, runSummarySchema, {
        method: "PATCH",
        headers: { "Content-Type": "application/json", ...authHeaders() },
        body: JSON.stringify(patch),
      }),
    onSuccess: (run) => {
      queryClient.setQueryData(runQueryOptions(id).queryKey, run);
      void queryClient.invalidateQueries({ queryKey: queryKeys.runs() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.comparisons() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.allSeries() });
    },
  });
  const needsToken = mutation.error instanceof ApiError && mutation.error.status === 401;
  return { ...mutation, needsToken };
}
