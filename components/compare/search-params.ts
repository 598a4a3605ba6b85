import { parseAsArrayOf, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { urlState } from "@/components/url-state";
import { LATENCY_FIELD_IDS } from "@/lib/api/metric-catalog";
import { COMPARE_STATS } from "@/lib/api/compare-schemas";
import { ROUTER_LOG_OVERLAYS } from "@/lib/metrics/compare-router-log";
import { TURN_COMPARE_METRIC_IDS } from "@/lib/metrics/turn-chart-rows";

/**
 * URL state of the compare page, shared by the server page (prefetch), the client (run list,
 * statistic, CDF metric) and every link that opens a comparison: the compared runs, the baseline,
 * the statistic and the latency metric of the CDF overlay. It lives with the components rather
 * than in the page folder because components may not import app/.
 */
/** A change of runs, baseline, statistic or metric is a step Back can undo (a new history entry). */
const STEP = { history: "push" } as const;

export const NOISE_BASELINES = ["", "last:3", "last:5", "last:10"] as const;

export const compareSearchParams = {
  runs: parseAsArrayOf(parseAsString, ",").withDefault([]).withOptions(STEP),
  baseline: parseAsString.withDefault("").withOptions(STEP),
  stat: parseAsStringLiteral(COMPARE_STATS).withDefault("p50").withOptions(STEP),
  metric: parseAsStringLiteral(LATENCY_FIELD_IDS).withDefault("ttftMs").withOptions(STEP),
  /** The metric of the turn curves overlaid for multi-turn runs (docs/metrics.md §Turns) */
  turnMetric: parseAsStringLiteral(TURN_COMPARE_METRIC_IDS).withDefault("ttftP50").withOptions(STEP),
  /** What the router-log overlay draws: both hit rates of each run, or their gap */
  routerOverlay: parseAsStringLiteral(ROUTER_LOG_OVERLAYS).withDefault("rates").withOptions(STEP),
  /** The noise-aware verdicts' baseline: "" (the baseline run) or `last:N` of each run's series */
  noise: parseAsStringLiteral(NOISE_BASELINES).withDefault("").withOptions(STEP),
  /**
   * Differences the user accepts (docs/metrics.md §Comparable runs): "" none, "1"/"true" all, or
   * names ("model,gpu"); a run not comparable with the baseline gets verdicts once its blocking
   * differences are accepted
   */
  allowDifferent: parseAsString.withDefault("").withOptions(STEP),
  /** The run whose noise-aware verdicts the delta table's verdict column shows ("" = the first judged) */
  judge: parseAsString.withDefault("").withOptions(STEP),
};

const { cache, serialize: serializeCompare } = urlState(compareSearchParams);

export const compareSearchParamsCache = cache;

/** The link to a comparison; state left at its default stays out of the URL. */
export function compareHref(state: Parameters<typeof serializeCompare>[1]): string {
  return serializeCompare("/compare", state);
}
