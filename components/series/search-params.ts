import { parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { urlState } from "@/components/url-state";
import { COMPARE_STATS } from "@/lib/api/compare-schemas";

/**
 * URL state of a series page: the latency statistic its trends show, the window of earlier runs
 * each run is judged against, the SLOs of its goodput trend and the verdicts' thresholds. Each is a discrete choice, so
 * each is a step of history.
 */
const STEP = { history: "push" } as const;

export const seriesSearchParams = {
  stat: parseAsStringLiteral(COMPARE_STATS).withDefault("p50").withOptions(STEP),
  window: parseAsInteger.withDefault(10).withOptions(STEP),
  /** The goodput trend's SLOs, written as the sweep page writes them (lib/api/slo.ts) */
  slo: parseAsString.withDefault("").withOptions(STEP),
  /** The smallest change that counts, per metric (`ttft.p99:5%,throughput:3%`; docs/metrics.md) */
  thresholds: parseAsString.withDefault("").withOptions(STEP),
};

const { cache, serialize: serializeSeries } = urlState(seriesSearchParams);

export const seriesSearchParamsCache = cache;

/** The link to a series page; each part of the name is encoded, the slashes between them kept. */
export function seriesHref(name: string, state: Parameters<typeof serializeSeries>[1] = {}): string {
  return serializeSeries(`/series/${name.split("/").map(encodeURIComponent).join("/")}`, state);
}
