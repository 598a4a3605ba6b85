/** The timeslice chart payload: per-slice TTFT / latency and throughput, in ms and per second. */
import type { z } from "zod";
import type { TimesliceExport } from "@/lib/formats/aiperf-timeslices";
import type { SummaryMetric } from "@/lib/formats/aiperf-summary";
import { isTimeUnit, toMs } from "@/lib/formats/aiperf-units";
import type { timeslicesPayloadSchema } from "@/lib/api/aiperf-charts";

function stat(m: SummaryMetric | undefined, key: "avg" | "p99"): number | null {
  const v = m?.[key];
  if (v === undefined) return null;
  return isTimeUnit(m?.unit) ? toMs(v, m?.unit) : v;
}

export function timeslicesPayload(t: TimesliceExport): z.infer<typeof timeslicesPayloadSchema> {
  return {
    sliceDurationS: t.sliceDurationS,
    slices: t.slices.map((s) => ({
      index: s.index,
      complete: s.complete,
      ttftAvgMs: stat(s.metrics.time_to_first_token, "avg"),
      ttftP99Ms: stat(s.metrics.time_to_first_token, "p99"),
      e2eAvgMs: stat(s.metrics.request_latency, "avg"),
      e2eP99Ms: stat(s.metrics.request_latency, "p99"),
      requestThroughputPerS: stat(s.metrics.request_throughput, "avg"),
      outputTokenThroughputPerS: stat(s.metrics.output_token_throughput, "avg"),
    })),
  };
}
