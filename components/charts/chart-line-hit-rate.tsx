"use client";

import { TimeLines } from "@/components/charts/time-lines";
import { timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { SERVER_INTERVALS } from "@/components/charts/definitions";

/** Hit rate per interval: Δcached / Δprompt over the picked endpoints' prefill side. */
export function ChartLineHitRate({
  series,
  requestLevel,
}: {
  series: SmSeriesPayload;
  requestLevel?: number | null;
}) {
  return (
    <TimeLines
      title={`Cache hit rate over time — ${series.label}`}
      description="% of prompt tokens served from cache in each interval"
      exportName="hit-rate-over-time"
      definition={SERVER_INTERVALS}
      missing="No interval has a hit rate: it needs prefix-cache counters or a hit-rate gauge in the server metrics."
      rows={timeRows(series, ["hitRate"], 100)}
      series={{ hitRate: { label: "hit rate", color: "var(--chart-1)" } }}
      yTitle="hit rate"
      unit="%"
      yMax={100}
      reference={
        requestLevel == null ? undefined : { y: requestLevel * 100, label: "perf-metrics (block-weighted)" }
      }
    />
  );
}
