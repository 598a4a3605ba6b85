import { createSearchParamsCache, parseAsString } from "nuqs/server";

/** URL state of the runs page, shared by the server page and the client table. */
export const runsSearchParams = {
  q: parseAsString.withDefault(""),
  label: parseAsString.withDefault(""),
};

export const runsSearchParamsCache = createSearchParamsCache(runsSearchParams);

/** Runs per page of the runs table. */
export const RUNS_PAGE_SIZE = 50;
