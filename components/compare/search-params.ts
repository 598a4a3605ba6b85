import { createSearchParamsCache, parseAsArrayOf, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { LATENCY_METRICS } from "@/lib/api/aiperf-charts";
import { COMPARE_STATS } from "@/lib/api/compare-schemas";

/**
 * URL state of the compare page, shared by the server page (prefetch) and the client: the
 * compared runs, the baseline, the statistic and the latency metric of the CDF overlay.
 */
export const compareSearchParams = {
  runs: parseAsArrayOf(parseAsString, ",").withDefault([]),
  baseline: parseAsString.withDefault(""),
  stat: parseAsStringLiteral(COMPARE_STATS).withDefault("p50"),
  metric: parseAsStringLiteral(LATENCY_METRICS).withDefault("ttftMs"),
};

export const compareSearchParamsCache = createSearchParamsCache(compareSearchParams);
