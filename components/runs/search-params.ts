import { createSearchParamsCache, createSerializer, parseAsString } from "nuqs/server";

/**
 * URL state of the runs page (the search box and the label filter), shared by the server page
 * (first page of runs) and the client table. It lives with the components rather than in the
 * page folder because components may not import app/.
 */
export const runsSearchParams = {
  q: parseAsString.withDefault(""),
  label: parseAsString.withDefault(""),
};

export const runsSearchParamsCache = createSearchParamsCache(runsSearchParams);

const serializeRuns = createSerializer(runsSearchParams);

/** The link to the runs page filtered as given. */
export function runsHref(state: Parameters<typeof serializeRuns>[1] = {}): string {
  return serializeRuns("/", state);
}

/** Runs per page of the runs table. */
export const RUNS_PAGE_SIZE = 50;
