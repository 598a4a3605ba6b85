"use client";

import type { z } from "zod";
import { ChartContainer } from "@/components/charts/chart-container";
import { secondsTick } from "@/components/charts/chart-theme";
import { niceTicks } from "@/lib/metrics/nice-scale";
import type { timelinePayloadSchema } from "@/lib/api/aiperf-charts";

const countTick = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });
const per = (unit: string) => (v: number) => `${countTick(v)} ${unit}`;

/** Tick labels with as many decimals as the ticks' step needs: a step of 0.25 shows 0.25, 0.5, 0.75. */
function stepTick(ticks: number[]): (v: number) => string {
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  let digits = 0;
  while (digits < 6 && Math.abs(step * 10 ** digits - Math.round(step * 10 ** digits)) > 1e-9 * 10 ** digits)
    digits++;
  return (v) =>
    v.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: Math.max(digits, 1) });
}

/**
 * Output tokens per second with each request's tokens spread over its decode window, and
 * requests per second with each request spread over its lifetime: each on its own titled axis.
 */
export function ChartLineThroughput({ data }: { data: z.infer<typeof timelinePayloadSchema> }) {
  const tokMax = data.points.reduce((m, p) => Math.max(m, p.outputTokensPerS), 0);
  const reqMax = data.points.reduce((m, p) => Math.max(m, p.requestsPerS, p.errorsPerS), 0);
  const tokTicks = niceTicks(tokMax);
  const reqTicks = niceTicks(reqMax);
  return (
    <ChartContainer
      title="Throughput over time"
      description={
        `Successful profiling requests. Output tokens spread evenly from each request's first token to its end ` +
        `(dispersed throughput), per ${data.bucketS} s; each request and error spread evenly from its start to its end`
      }
      definition={{
        window: "profiling phase, from the first request",
        requests: "successful profiling requests; errors/s counts failed ones (warm-up excluded)",
        method:
          "output tokens spread over each decode window (dispersed); each request and error spread over its lifetime, start to end",
      }}
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
        outputTokensPerS: {
          label: "output tokens/s",
          color: "var(--chart-1)",
          axis: "tok",
          format: per("tok/s"),
        },
        requestsPerS: { label: "requests/s", color: "var(--chart-2)", axis: "req", format: per("req/s") },
        errorsPerS: { label: "errors/s", color: "var(--chart-7)", axis: "req", format: per("req/s") },
      }}
      x={{ key: "tS", numeric: true, title: "time from the first request", unit: "s", format: secondsTick }}
      y={[
        { id: "tok", title: "output tokens", unit: "tok/s", format: stepTick(tokTicks), ticks: tokTicks },
        {
          id: "req",
          title: "requests",
          unit: "req/s",
          right: true,
          format: stepTick(reqTicks),
          ticks: reqTicks,
        },
      ]}
    />
  );
}
