/**
 * aiperf's own per-timeslice latency statistics (`--slice-duration`), as a renderer-neutral
 * description (lib/api/figure.ts): TTFT on the left axis, end-to-end latency on the right (TTFT's
 * tens of ms flattened into the bottom tenth of an axis shared with latencies of hundreds). The
 * Latency view (components/run-views/latency-view.tsx) and the offline report both draw it.
 */
import { AIPERF_CHARTS, type ChartPayload } from "@/lib/api/chart-catalog";
import type { FigureDescription } from "@/lib/api/figure";
import { METRICS } from "@/lib/api/metric-catalog";
import { formatNumber, plural } from "@/lib/format-number";

type Timeslices = ChartPayload<typeof AIPERF_CHARTS.timeslices>;

/**
 * The x axis is the slice's number, not seconds: older aiperf renumbers the non-empty slices, so
 * index × duration is no true offset (docs/metrics.md §Timeslices); the title gives their length.
 */
export function aiperfTimeslicesFigure(payload: Timeslices): FigureDescription {
  const ttft = METRICS.ttft;
  const e2e = METRICS.e2e;
  const seconds = payload.sliceDurationS;
  const line = (pick: (s: Timeslices["slices"][number]) => number | null) =>
    payload.slices.map((s) => [s.index, pick(s)] as const);
  // aiperf marks a slice cut short by the end of the run; its statistics cover less time.
  const partial = payload.slices.filter((s) => !s.complete).map((s) => formatNumber(s.index, 0));
  return {
    id: `${AIPERF_CHARTS.timeslices.key}-latency`,
    exportName: "latency-timeslices",
    kind: "line",
    title: "Latency per timeslice (aiperf)",
    description:
      `From aiperf's timeslice export${seconds ? `, ${formatNumber(seconds, 3)} s slices` : ""}, average and p99 per slice` +
      (partial.length > 0 ? `; ${plural(partial.length, "slice")} partial (${partial.join(", ")})` : ""),
    definition: {
      window: "aiperf's timeslices of the profiling phase",
      requests: "successful profiling requests of each slice, as aiperf counted them",
      method: "aiperf's own per-slice statistics",
    },
    missing:
      "aiperf wrote fewer than two timeslices with latency values: run it with a shorter --slice-duration.",
    x: {
      label: seconds ? `timeslice number (${formatNumber(seconds, 3)} s each)` : "timeslice number",
      unit: "",
      integers: true,
    },
    y: { label: ttft.label, unit: ttft.unit },
    y2: { label: e2e.label, unit: e2e.unit },
    series: [
      { key: "ttftAvgMs", name: `${ttft.short} avg`, colour: "chart-1", points: line((s) => s.ttftAvgMs) },
      { key: "ttftP99Ms", name: `${ttft.short} p99`, colour: "chart-7", points: line((s) => s.ttftP99Ms) },
      {
        key: "e2eAvgMs",
        name: `${e2e.short} avg`,
        colour: "chart-2",
        axis: "y2",
        points: line((s) => s.e2eAvgMs),
      },
      {
        key: "e2eP99Ms",
        name: `${e2e.short} p99`,
        colour: "chart-3",
        axis: "y2",
        points: line((s) => s.e2eP99Ms),
      },
    ],
    legend: true,
  };
}
