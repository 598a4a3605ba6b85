/**
 * The errors-by-type figure of aiperf's records, as a renderer-neutral description
 * (lib/api/figure.ts): failed profiling requests per error type and code, one bar each. The
 * Throughput view (components/aiperf/throughput-view.tsx) and the offline report both draw it.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { FigureDescription } from "@/lib/api/figure";
import { plural } from "@/lib/format-number";

export function aiperfErrorsFigure(payload: ChartPayload<typeof AIPERF_CHARTS.errors>): FigureDescription {
  return {
    id: AIPERF_CHARTS.errors.key,
    exportName: "errors-by-type",
    kind: "bars",
    title: "Errors by type",
    description: `${plural(payload.total, "failed profiling request")}, warm-up excluded`,
    definition: { window: "profiling phase", requests: "failed profiling requests, by error type and code" },
    missing: "No profiling request failed.",
    x: { label: "error", unit: "" },
    y: { label: "failed requests", unit: "", integers: true },
    categories: payload.groups.map((g) => (g.code !== null ? `${g.type} (${g.code})` : g.type)),
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
