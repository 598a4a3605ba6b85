/**
 * The errors-by-type figure of aiperf's records, as a renderer-neutral description
 * (lib/api/figure.ts): failed profiling requests per error type and code, one bar each. The
 * Throughput view (components/aiperf/throughput-view.tsx) and the offline report both draw it.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { FigureDescription } from "@/lib/api/figure";
import type { RequestsBlock } from "@/lib/api/schemas";
import { formatCount, formatRate, plural } from "@/lib/format-number";

/**
 * The profiling requests the errors are a share of (failed ones included, warm-up excluded): the
 * run's request count, or the records' own where they are a sample of what aiperf summarised
 * (the errors are then counted in that sample). Null: not known.
 */
export function errorsDenominator(requests: RequestsBlock | null): number | null {
  if (!requests) return null;
  return requests.recordsSample?.records ?? requests.count;
}

/**
 * `profilingRequests` (errorsDenominator): the value axis runs to it, so 2 failures of 200
 * requests are a sliver of the axis with "1% of requests" beside their type, not a bar across the
 * whole plot on a 0–2 axis that reads as every request failing. Unknown, the axis counts the
 * failures alone, and the description says the run's count is not known.
 */
export function aiperfErrorsFigure(
  payload: ChartPayload<typeof AIPERF_CHARTS.errors>,
  profilingRequests: number | null,
): FigureDescription {
  const of =
    profilingRequests !== null && profilingRequests >= payload.total && profilingRequests > 0
      ? profilingRequests
      : null;
  return {
    id: AIPERF_CHARTS.errors.key,
    exportName: "errors-by-type",
    kind: "bars",
    title: "Errors by type",
    description:
      of !== null
        ? `${formatCount(payload.total)} of ${plural(of, "profiling request")} failed (${formatRate(payload.total / of)}), warm-up excluded`
        : `${plural(payload.total, "failed profiling request")}, warm-up excluded; the run's request count is not known`,
    definition: {
      window: "profiling phase",
      requests:
        of !== null
          ? `failed profiling requests, by error type and code; the axis runs to the run's ${formatCount(of)} profiling requests, each bar's share of them beside its type`
          : "failed profiling requests, by error type and code",
    },
    missing: "No profiling request failed.",
    x: { label: "error", unit: "" },
    y: {
      label: of !== null ? `failed requests (of ${formatCount(of)})` : "failed requests",
      unit: "",
      integers: true,
      ...(of !== null ? { domain: [0, of] as const } : {}),
    },
    categories: payload.groups.map((g) => (g.code !== null ? `${g.type} (${g.code})` : g.type)),
    ...(of !== null
      ? { categoryNotes: payload.groups.map((g) => `${formatRate(g.count / of)} of requests`) }
      : {}),
    series: [
      {
        key: "count",
        name: "requests",
        colour: "chart-7",
        points: payload.groups.map((g, i) => [i, g.count] as const),
      },
    ],
    legend: false,
  };
}
