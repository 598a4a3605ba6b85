"use client";

import { SegmentTooltip } from "@/components/breakdown/segment-tooltip";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { NOT_RECORDED_KEY, requestBarRows, segmentColour } from "@/lib/metrics/trtllm-chart-rows";
import type { RequestSample } from "@/lib/api/trtllm-charts";

type Props = { sample: RequestSample; onSelect: (idx: number) => void; actions?: React.ReactNode };
const count = (n: number) => n.toLocaleString("en-US");
const cell = (v: unknown) => (typeof v === "number" ? v : v === null ? "not recorded" : "excluded");

/** One stacked bar per sampled request; clicking a bar opens that request's waterfall. */
export function ChartBarBreakdownRequests({ sample, onSelect, actions }: Props) {
  const rows = requestBarRows(sample);
  const gaps = rows.filter((r) => (r[NOT_RECORDED_KEY] as string[]).length > 0).length;
  const { requests, segmentNames } = sample;
  return (
    <ChartContainer
      title="Per-request breakdown"
      description={`${count(rows.length)} of ${count(sample.total)} requests (evenly sampled), ms per segment; click a bar for its waterfall${gaps ? `. ${count(gaps)} have segments not recorded: missing from the bar, named in the tooltip` : ""}`}
      csvRows={() =>
        requests.map(({ idx, requestId, ttftMs, e2eMs, segments }) => ({
          idx,
          requestId,
          ttftMs,
          e2eMs,
          ...Object.fromEntries(segmentNames.map((n, i) => [n, cell(segments[i])])),
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
      series={Object.fromEntries(
        segmentNames.map((n) => [n, { label: n, color: segmentColour(n), stack: "s" }]),
      )}
      x={{ key: "label", title: "requests (sampled, in arrival order)", noTicks: true }}
      y={{ title: "time", unit: "ms", format: formatMs }}
      tooltip={{
        content: <SegmentTooltip segmentNames={segmentNames} title={(r) => `request ${String(r.label)}`} />,
      }}
      legend={false}
    />
  );
}
