"use client";

import { TimeLines } from "@/components/charts/time-lines";
import { timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { SERVER_GAUGE } from "@/components/charts/definitions";

/** Running and waiting requests per interval (engine gauges, mean per interval). */
export function ChartLineRequestsRunning({ series }: { series: SmSeriesPayload }) {
  return (
    <TimeLines
      title={`Running and waiting requests — ${series.label}`}
      description="Requests per interval, summed over the picked endpoints"
      exportName="requests-running-waiting"
      definition={SERVER_GAUGE}
      missing="No interval has running or waiting request gauges (vllm:num_requests_running/waiting, trtllm_num_requests_running/waiting, sglang:num_running_reqs)."
      rows={timeRows(series, ["running", "waiting"])}
      series={{
        running: { label: "running", color: "var(--chart-1)" },
        waiting: { label: "waiting", color: "var(--chart-3)" },
      }}
      yTitle="requests"
    />
  );
}
