"use client";

import { memo, useMemo } from "react";
import { SegmentTooltip } from "@/components/breakdown/segment-tooltip";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatCount, formatMs, plural } from "@/lib/format-number";
import { inScope, NOT_RECORDED_KEY, requestBarRows, segmentColour } from "@/lib/metrics/trtllm-chart-rows";
import type { RequestSample, SegmentScope, ValueScale } from "@/lib/api/trtllm-charts";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";

type Props = {
  sample: RequestSample;
  scope: SegmentScope;
  scale: ValueScale;
  onSelect: (idx: number) => void;
  actions?: React.ReactNode;
};
const cell = (v: unknown) => (typeof v === "number" ? v : v === null ? "not recorded" : "excluded");

/**
 * The log axis starts at the power of ten below the shortest bar, so every bar shows; a stack's
 * lowest band starts at 0, which a log axis cannot place, and is cut at that floor.
 */
function logFloor(rows: ReturnType<typeof requestBarRows>, names: readonly string[]): number {
  let min = Infinity;
  for (const r of rows) {
    let total = 0;
    for (const n of names) if (typeof r[n] === "number") total += r[n] as number;
    if (total > 0) min = Math.min(min, total);
  }
  return Number.isFinite(min) ? 10 ** Math.floor(Math.log10(min)) : 1;
}

/**
 * One stacked bar per sampled request; clicking a bar opens that request's waterfall. Memoised:
 * its thousands of bars are redrawn only when the sample, the segments shown or the axis change,
 * never by a toggle beside it (give it a stable `onSelect` and `actions`).
 */
export const ChartBarBreakdownRequests = memo(function ChartBarBreakdownRequests({
  sample,
  scope,
  scale,
  onSelect,
  actions,
}: Props) {
  const rows = useMemo(() => requestBarRows(sample, scope), [sample, scope]);
  const gaps = rows.filter((r) => (r[NOT_RECORDED_KEY] as string[]).length > 0).length;
  const { requests } = sample;
  const segmentNames = useMemo(() => sample.segmentNames.filter((n) => inScope(n, scope)), [sample, scope]);
  const series = useMemo(
    () => Object.fromEntries(segmentNames.map((n) => [n, { label: n, color: segmentColour(n), stack: "s" }])),
    [segmentNames],
  );
  const log = scale === "log";
  const what =
    scope === "ttft"
      ? "ms per segment up to the first token (decode left out, so each bar is TTFT)"
      : "ms per segment";
  return (
    <ChartContainer
      title="Per-request breakdown"
      description={`${rows.length < sample.total ? `${formatCount(rows.length)} of ${plural(sample.total, "request")} (evenly sampled)` : plural(sample.total, "request")}, ${what}${log ? "; log axis: bar tops are true, band heights are not proportional" : ""}; click a bar for its waterfall${gaps ? `. ${plural(gaps, "request")} ${gaps === 1 ? "has" : "have"} segments not recorded: missing from the bar, named in the tooltip` : ""}`}
      definition={TRTLLM_COMPLETED}
      csvRows={() =>
        requests.map(({ idx, requestId, ttftMs, e2eMs, segments }) => ({
          idx,
          requestId,
          ttftMs,
          e2eMs,
          ...Object.fromEntries(
            sample.segmentNames.flatMap((n, i) => (inScope(n, scope) ? [[n, cell(segments[i])]] : [])),
          ),
        }))
      }
      exportName="per-request-breakdown"
      missing="It needs per-request segment times: upload TensorRT-LLM perf_metrics JSONL written with return_perf_metrics on."
      height={330}
      actions={actions}
      kind="bar"
      data={rows}
      barCategoryGap={rows.length > 200 ? 0 : 1}
      onRowClick={(i) => onSelect(rows[i].idx)}
      series={series}
      x={{ key: "label", title: "requests (sampled, in the chosen order)", noTicks: true }}
      y={{
        title: scope === "ttft" ? "time to first token" : "time",
        unit: "ms",
        format: formatMs,
        ...(log ? { log: true, domain: [logFloor(rows, segmentNames), "auto"] } : {}),
      }}
      tooltip={{
        content: <SegmentTooltip segmentNames={segmentNames} title={(r) => `request ${String(r.label)}`} />,
      }}
      legend={false}
    />
  );
});
