"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authHeaders } from "@/components/run/api-token";
import { ApiError, fetchJson } from "@/lib/api/fetch-json";
import { queryKeys } from "@/lib/api/query-keys";
import { sweepSchema } from "@/lib/api/sweeps";

const send = (url: string, method: string, body: unknown) =>
  fetchJson(url, sweepSchema, {
    method,
    headers: { "Content-Type": "application/json", ...authHeaders() },
    body: JSON.stringify(body),
  });

/** POST /api/sweeps: groups runs into a new sweep. `needsToken` when the server asks for one. */
export function useCreateSweep() {
  const queryClient = useQueryClient();
  const m = useMutation({
    mutationFn: (b: { name: string; runIds: string[] }) => send("/api/sweeps", "POST", b),
    onSuccess: (sweep) => {
      queryClient.setQueryData(queryKeys.sweep(sweep.id), sweep);
      void queryClient.invalidateQueries({ queryKey: queryKeys.sweeps(), exact: true });
    },
  });
  return { ...m, needsToken: m.error instanceof ApiError && m.error.status === 401 };
}

/** PATCH /api/sweeps/{id}: rename, or add and remove runs. */
export function usePatchSweep(id: string) {
  const queryClient = useQueryClient();
  const m = useMutation({
    mutationFn: (b: { name?: string; addRunIds?: string[]; removeRunIds?: string[] }) =>
      send(`/api/sweeps/${encodeURIComponent(id)}`, "PATCH", b),
    onSuccess: (sweep) => queryClient.setQueryData(queryKeys.sweep(id), sweep),
  });
  return { ...m, needsToken: m.error instanceof ApiError && m.error.status === 401 };
}
