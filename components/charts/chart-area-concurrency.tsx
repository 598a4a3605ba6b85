"use client";

import type { z } from "zod";
import { ChartContainer } from "@/components/charts/chart-container";
import { secondsTick } from "@/components/charts/chart-theme";
import type { timelinePayloadSchema } from "@/lib/api/aiperf-charts";

/** Requests in flight: time-weighted average per bucket, and the bucket's peak. */
export function ChartAreaConcurrency({ data }: { data: z.infer<typeof timelinePayloadSchema> }) {
  return (
    <ChartContainer
      title="In-flight requests"
      description="Requests between start and end (warmup included), average and peak per bucket"
      definition={{
        window: "from the first request (warm-up included)",
        requests: "every request sent, warm-up and errors included: all of them load the server",
        method: "time-weighted average per bucket; peak from every start and end",
      }}
      csvRows={() =>
        data.points.map((p) => ({ tS: p.tS, inFlightAvg: p.inFlightAvg, inFlightMax: p.inFlightMax }))
      }
      exportName="in-flight-requests"
      kind="area"
      data={data.points}
      series={{
        inFlightAvg: { label: "average", color: "var(--chart-6)", fillOpacity: 0.25 },
        inFlightMax: { label: "peak", color: "var(--chart-3)", mark: "line", step: true },
      }}
      x={{ key: "tS", numeric: true, title: "time from the first request", unit: "s", format: secondsTick }}
      y={{ title: "requests in flight", integers: true }}
    />
  );
}
