"use client";

import { TimeLines } from "@/components/server-metrics/time-lines";
import { hasField, timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";

/** Prompt tokens per interval by where they came from: GPU cache, CPU/external cache, computed. */
export function ChartAreaPromptTokens({ series }: { series: SmSeriesPayload }) {
  return (
    <TimeLines
      title={`Prompt tokens by source — ${series.label}`}
      description="Tokens per interval (prefill side)"
      exportName="prompt-tokens-by-source"
      rows={timeRows(series, ["cachedTokens", "externalCachedTokens", "computedTokens"])}
      lines={[
        { key: "cachedTokens", name: "GPU cache", color: "var(--chart-5)" },
        { key: "externalCachedTokens", name: "CPU / external cache", color: "var(--chart-2)" },
        { key: "computedTokens", name: "computed", color: "var(--chart-3)" },
      ].filter((l) => l.key !== "externalCachedTokens" || hasField(series, "externalCachedTokens"))}
      stacked
    />
  );
}
