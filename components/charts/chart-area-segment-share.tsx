"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatRate } from "@/lib/format-number";
import { closeShareSteps, inScope, segmentColour, segmentShareRows } from "@/lib/metrics/trtllm-chart-rows";
import type { SegmentScope, SegmentSharePayload } from "@/lib/api/trtllm-charts";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";

type Props = { payload: SegmentSharePayload; scope: SegmentScope; actions?: React.ReactNode };

/** Each segment's share of the mean request time (or of TTFT), by arrival time: shows where drift comes from. */
export function ChartAreaSegmentShare({ payload, scope, actions }: Props) {
  const rows = segmentShareRows(payload, scope);
  const band = (name: string) => ({ label: name, color: segmentColour(name), stack: "s", step: true });
  const of = scope === "ttft" ? "TTFT segments (decode left out)" : "segments";
  return (
    <ChartContainer
      title="Segment share over time"
      description={`Mean ${of} as a share of their sum, per ${(payload.bucketMs / 1000).toFixed(2)} s of arrivals; a missing band = not recorded in that bucket`}
      definition={{ ...TRTLLM_COMPLETED, method: "mean of each segment per bucket of arrival times" }}
      csvRows={() => rows}
      exportName="segment-share-over-time"
      missing="It needs per-request segment times: upload TensorRT-LLM perf_metrics JSONL written with return_perf_metrics on."
      height={280}
      actions={actions}
      kind="area"
      data={closeShareSteps(rows, payload.bucketMs)}
      series={Object.fromEntries(
        payload.segmentNames
          .filter((n) => inScope(n, scope))
          .map((n) => [n, { ...band(n), fillOpacity: 0.9, noStroke: true, format: formatRate }]),
      )}
      x={{
        key: "startS",
        numeric: true,
        title: "arrival time",
        unit: "s",
        format: (v) => `${v.toFixed(0)} s`,
      }}
      y={{
        title: scope === "ttft" ? "share of TTFT" : "share of request time",
        unit: "%",
        domain: [0, 1],
        format: formatRate,
      }}
      tooltip={{ label: (v) => `arrivals from ${Number(v).toFixed(2)} s` }}
      legend={false}
    />
  );
}
