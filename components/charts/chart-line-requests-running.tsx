"use client";

import { TimeLines } from "@/components/server-metrics/time-lines";
import { timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";

/** Running and waiting requests per interval (engine gauges, mean per interval). */
export function ChartLineRequestsRunning({ series }: { series: SmSeriesPayload }) {
  return (
    <TimeLines
      title={`Running and waiting requests — ${series.label}`}
      description="Requests per interval, summed over the picked endpoints"
      exportName="requests-running-waiting"
      rows={timeRows(series, ["running", "waiting"])}
      lines={[
        { key: "running", name: "running", color: "var(--chart-1)" },
        { key: "waiting", name: "waiting", color: "var(--chart-3)" },
      ]}
    />
  );
}
