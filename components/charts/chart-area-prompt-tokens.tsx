"use client";

import { TimeLines } from "@/components/charts/time-lines";
import { hasField, partialIntervalNote, perSecondRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { SERVER_INTERVALS } from "@/components/charts/definitions";

/**
 * Prompt tokens per second in each interval by where they came from: GPU cache, CPU/external
 * cache, computed. Per second, so a partial last interval does not read as a collapse.
 */
export function ChartAreaPromptTokens({ series }: { series: SmSeriesPayload }) {
  const external = hasField(series, "externalCachedTokens");
  const partial = partialIntervalNote(series);
  return (
    <TimeLines
      title={`Prompt tokens by source — ${series.label}`}
      description={`Tokens per second in each interval (prefill side)${partial ? `; ${partial}` : ""}`}
      definition={SERVER_INTERVALS}
      exportName="prompt-tokens-by-source"
      missing="No interval splits prompt tokens by source: it needs vllm:prompt_tokens_by_source (or SGLang cached_tokens by cache_source) in the server metrics."
      rows={perSecondRows(series, ["cachedTokens", "externalCachedTokens", "computedTokens"])}
      series={{
        cachedTokens: { label: "GPU cache", color: "var(--chart-5)" },
        ...(external
          ? { externalCachedTokens: { label: "CPU / external cache", color: "var(--chart-2)" } }
          : {}),
        computedTokens: { label: "computed", color: "var(--chart-3)" },
      }}
      yTitle="prompt tokens"
      unit="tok/s"
      stacked
    />
  );
}
