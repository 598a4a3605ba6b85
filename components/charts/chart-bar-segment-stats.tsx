"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { inScope, segmentColour, stackedStatRow, type SegmentStatRow } from "@/lib/metrics/trtllm-chart-rows";
import type { SegmentScope, Statistic, ValueScale } from "@/lib/api/trtllm-charts";
import { logFloor, stackEnds } from "@/lib/metrics/bar-labels";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";

type Props = {
  rows: readonly SegmentStatRow[];
  stat: Statistic;
  /** "ttft": only the segments up to the first token, which decode (~90 % of E2E) left 1–5 px wide. */
  scope?: SegmentScope;
  /** "log": a time axis from the power of ten below the first band's end, so every band shows. */
  scale?: ValueScale;
  actions?: React.ReactNode;
};

/**
 * Every segment at one statistic, stacked in request order. Each segment's statistic is taken
 * over its own requests, so the stack is a profile, not the statistic of the total.
 */
export function ChartBarSegmentStats({ rows: all, stat, scope = "all", scale = "linear", actions }: Props) {
  const rows = all.filter((r) => inScope(r.name, scope));
  const missing = rows.filter((r) => r.valueMs === null).map((r) => r.name);
  const recorded = rows.filter((r) => r.valueMs !== null);
  const note = missing.length
    ? `; not recorded in this run: ${missing.join(", ")}`
    : ", each at the chosen statistic";
  // A sum of tails is not the tail of the sum: at p99 the stack ran past the run's E2E p99.
  const caveat =
    stat === "mean"
      ? ""
      : `. A stack of ${stat}s is not the ${stat} of the total: it can run past the run's ${scope === "ttft" ? "TTFT" : "E2E"} ${stat}`;
  return (
    <ChartContainer
      title={
        scope === "ttft" ? `Where the time to first token goes (${stat})` : `Where the time goes (${stat})`
      }
      description={`ms per segment${note}${caveat}`}
      definition={{
        ...TRTLLM_COMPLETED,
        method: "each segment's statistic over the requests that recorded it (server stamps)",
      }}
      csvRows={() =>
        rows.map((r) => ({ segment: r.name, [`${stat}Ms`]: r.valueMs ?? "not recorded", count: r.count }))
      }
      exportName={`time-breakdown-${scope === "ttft" ? "ttft-" : ""}${scale === "log" ? "log-" : ""}${stat}`}
      missing="The perf metrics carry no segment timings: upload TensorRT-LLM perf_metrics JSONL written with return_perf_metrics on."
      height={150}
      actions={actions}
      kind="bar"
      horizontal
      data={[stackedStatRow(rows)]}
      series={Object.fromEntries(
        recorded.map((r) => [r.name, { label: r.name, color: segmentColour(r.name), stack: "s" }]),
      )}
      x={{
        title: `time at ${stat}`,
        unit: "ms",
        format: formatMs,
        // The same log axis as the per-request stacks: from the power of ten below the shortest
        // stack end, here the first band's (lib/metrics/bar-labels.ts).
        ...(scale === "log"
          ? {
              log: true,
              domain: [logFloor(stackEnds(recorded.map((r) => r.valueMs))), "auto"] as [number, "auto"],
            }
          : {}),
      }}
      y={{ key: "label", hide: true }}
      tooltip={{ cursor: false, label: () => `Segments at ${stat}, in pipeline order` }}
      legend={false}
    />
  );
}
