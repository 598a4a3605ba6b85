"use client";

import type { z } from "zod";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { timeslicesPayloadSchema } from "@/lib/api/aiperf-charts";

/**
 * aiperf's own per-timeslice TTFT and latency. The x axis is the slice number, not seconds:
 * older aiperf renumbers non-empty slices, so index × duration is not a true offset; the axis
 * title gives the slices' length. TTFT (tens of ms) and end-to-end latency (hundreds) have an
 * axis each: on one, TTFT's changes were flattened into the bottom tenth of the plot.
 */
export function ChartLineLatencyTimeslices({ data }: { data: z.infer<typeof timeslicesPayloadSchema> }) {
  const line = (label: string, color: string) => ({ label, color, dots: true, connectNulls: true });
  return (
    <ChartContainer
      title="Latency per timeslice (aiperf)"
      description={`From aiperf's timeslice export${data.sliceDurationS ? `, ${data.sliceDurationS} s slices` : ""}; a partial last slice is marked in the CSV`}
      definition={{
        window: "aiperf's timeslices of the profiling phase",
        requests: "successful profiling requests of each slice, as aiperf counted them",
        method: "aiperf's own per-slice statistics",
      }}
      csvRows={() => data.slices}
      exportName="latency-timeslices"
      missing="aiperf wrote no timeslices with values: run it with --slice-duration."
      kind="line"
      data={data.slices}
      series={{
        ttftAvgMs: { ...line("TTFT avg", "var(--chart-1)"), axis: "ttft" },
        ttftP99Ms: { ...line("TTFT p99", "var(--chart-7)"), axis: "ttft" },
        e2eAvgMs: { ...line("latency avg (right axis)", "var(--chart-2)"), axis: "e2e", dashed: true },
      }}
      x={{
        key: "index",
        title: data.sliceDurationS ? `timeslice number (${data.sliceDurationS} s each)` : "timeslice number",
        integers: true,
      }}
      y={[
        { id: "ttft", title: "TTFT", unit: "ms", format: formatMs },
        { id: "e2e", title: "end-to-end latency", unit: "ms", format: formatMs, right: true },
      ]}
    />
  );
}
