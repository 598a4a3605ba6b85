import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { compareResponseSchema, type CompareStat } from "./compare-schemas";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

export interface CompareParams {
  runs: string[];
  baseline: string;
  stat: CompareStat;
  /** `last:N`: the noise-aware verdicts judge each run against the last N runs of its series */
  noise?: string;
  /** Differences accepted: "1" all, names ("model,gpu"), "" none (docs/metrics.md §Comparable runs) */
  allowDifferent?: string;
}

/** The comparison's query string, shared by the JSON and the offline report (/api/compare/report.html). */
export function compareSearch(p: CompareParams): URLSearchParams {
  const search = new URLSearchParams({ runs: p.runs.join(","), stat: p.stat });
  if (p.baseline) search.set("baseline", p.baseline);
  if (p.noise) search.set("noise", p.noise);
  if (p.allowDifferent) search.set("allowDifferent", p.allowDifferent);
  return search;
}

/** The query key is the URL state, so the server prefetch and the page share one cache entry. */
export function compareQueryOptions(p: CompareParams) {
  const search = compareSearch(p);
  return queryOptions({
    queryKey: queryKeys.compare(p.runs, p.baseline, p.stat, p.noise, p.allowDifferent),
    queryFn: () => fetchJson(`/api/compare?${search}`, compareResponseSchema),
    enabled: p.runs.length > 0,
    // Switching the statistic or baseline keeps the previous table on screen until the new one arrives.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
