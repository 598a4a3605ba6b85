import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { CompareStat } from "./compare-schemas";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";
import { seriesDetailSchema } from "./regression-schemas";

/**
 * A series page's data; the name's parts are encoded one by one so its slashes stay path
 * separators. `judge=run` is the fast half (stored figures, run-level verdicts), `all` adds the
 * latency verdicts that read every run's requests. `thresholds` is the page's own, as the URL
 * writes it (empty: each metric's default).
 */
export function seriesQueryOptions(
  name: string,
  stat: CompareStat,
  window: number,
  judge: "run" | "all",
  thresholds = "",
) {
  const path = name.split("/").map(encodeURIComponent).join("/");
  const q = new URLSearchParams({ stat, window: String(window), judge });
  if (thresholds) q.set("thresholds", thresholds);
  return queryOptions({
    queryKey: queryKeys.series(name, stat, window, judge, thresholds),
    queryFn: () => fetchJson(`/api/series/${path}?${q}`, seriesDetailSchema),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
