"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useCallback } from "react";
import { requestByIdQueryOptions } from "@/lib/api/request-by-id";
import { runSearchParams } from "./search-params";

/** The request's own id, known at the click or read once its detail is in (a timeline bar carries only its position). */
export type OwnId = string | null | (() => Promise<string | null>);

/**
 * The request opened in detail, from the URL (docs/http-api.md §A request's link): `rid`, the
 * request's own id, found by `requests/by-id`; or `req`, its position in the run. `position` is
 * what the drill-down routes open it by, null while none is open or its id is being looked up.
 */
export interface RequestLink {
  position: number | null;
  /** The URL's `rid`, while it names the request open. */
  rid: string | null;
  /** The lookup of `rid` is under way. */
  finding: boolean;
  /** Why `rid` opens nothing ("no request with id … in this run"), null otherwise. */
  missing: string | null;
  /**
   * Opens the request at `position`: at once by its position (`req`), then, once its own id is
   * known and opens this same request (an id two requests carry opens the first), by that id
   * (`rid`) in the same history entry.
   */
  open: (position: number, ownId: OwnId) => void;
  close: () => void;
}

export function useRequestLink(runId: string): RequestLink {
  const [{ req, rid }, setUrl] = useQueryStates({ req: runSearchParams.req, rid: runSearchParams.rid });
  const client = useQueryClient();
  const byId = useQuery({ ...requestByIdQueryOptions(runId, rid ?? ""), enabled: rid !== null });
  const open = useCallback(
    (position: number, ownId: OwnId) => {
      const written = setUrl({ req: position, rid: null });
      void (async () => {
        const id = typeof ownId === "function" ? await ownId().catch(() => null) : ownId;
        if (id === null) return;
        const found = await client.fetchQuery(requestByIdQueryOptions(runId, id)).catch(() => null);
        await written;
        // Another click, or Back, since: the URL is no longer this request's.
        if (new URLSearchParams(window.location.search).get("req") !== String(position)) return;
        if (found?.position === position) void setUrl({ req: null, rid: id }, { history: "replace" });
      })();
    },
    [client, runId, setUrl],
  );
  const close = useCallback(() => void setUrl({ req: null, rid: null }), [setUrl]);
  if (rid === null) return { position: req, rid: null, finding: false, missing: null, open, close };
  return {
    position: byId.data?.position ?? null,
    rid,
    finding: byId.isPending,
    missing: byId.error ? byId.error.message : null,
    open,
    close,
  };
}
