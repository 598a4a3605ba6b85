"use client";

import type { z } from "zod";
import { ChartContainer } from "@/components/charts/chart-container";
import { secondsTick } from "@/components/charts/chart-theme";
import type { timelinePayloadSchema } from "@/lib/api/aiperf-charts";

/** Completed requests and output tokens per second, by completion time. */
export function ChartLineThroughput({ data }: { data: z.infer<typeof timelinePayloadSchema> }) {
  return (
    <ChartContainer
      title="Throughput over time"
      description={`Successful profiling requests by completion time, per ${data.bucketS} s bucket`}
      csvRows={() =>
        data.points.map(({ tS, requestsPerS, outputTokensPerS, errorsPerS }) => ({
          tS,
          requestsPerS,
          outputTokensPerS,
          errorsPerS,
        }))
      }
      exportName="throughput-over-time"
      kind="line"
      data={data.points}
      series={{
        outputTokensPerS: { label: "output tokens/s", color: "var(--chart-1)", axis: "tok" },
        requestsPerS: { label: "requests/s", color: "var(--chart-2)", axis: "req" },
        errorsPerS: { label: "errors/s", color: "var(--chart-7)", axis: "req" },
      }}
      x={{ key: "tS", numeric: true, title: "completion time", unit: "s", format: secondsTick }}
      y={[
        { id: "tok", title: "output tokens", unit: "tok/s" },
        { id: "req", title: "requests", unit: "req/s", right: true },
      ]}
    />
  );
}
