"use client";

import type { z } from "zod";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatCount, formatMs } from "@/lib/format-number";
import type { ttftVsInputPayloadSchema } from "@/lib/api/aiperf-charts";
import { AIPERF_SUCCESSFUL, type FigureDefinition } from "@/components/charts/definitions";

/** TTFT against prompt length: prefill cost shows as a slope, queueing as a spread. */
export function ChartScatterTtftInput({
  data,
  definition = AIPERF_SUCCESSFUL,
}: {
  data: z.infer<typeof ttftVsInputPayloadSchema>;
  definition?: FigureDefinition;
}) {
  return (
    <ChartContainer
      title="TTFT vs input length"
      description={`Successful profiling requests${data.points.length < data.total ? ` (sample of ${formatCount(data.points.length)} of ${formatCount(data.total)})` : ""}`}
      definition={{
        ...definition,
        requests: `${definition.requests === AIPERF_SUCCESSFUL.requests ? "successful profiling requests" : definition.requests} with both a TTFT and an input length`,
      }}
      csvRows={() => data.points.map((p) => ({ inputTokens: p.inputTokens, ttftMs: p.ttftMs }))}
      exportName="ttft-vs-input"
      missing="No successful request has both a TTFT and an input length: upload aiperf profile_export.jsonl."
      kind="scatter"
      data={data.points}
      series={{ ttftMs: { label: "TTFT", color: "var(--chart-4)" } }}
      x={{ key: "inputTokens", name: "input tokens", title: "input length", unit: "tokens" }}
      y={{ key: "ttftMs", name: "TTFT", title: "TTFT", unit: "ms", format: formatMs }}
      tooltip={{
        value: (v, key) => (key === "ttftMs" ? [formatMs(v), "TTFT"] : [formatCount(v), "input tokens"]),
      }}
      legend={false}
    />
  );
}
