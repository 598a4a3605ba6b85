"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { LaneTimeline } from "@/components/charts/lane-timeline";
import { formatMs } from "@/lib/format-number";
import type { RequestDetail } from "@/lib/api/trtllm-charts";
import { STEP_LANES, stepTimelineBars } from "@/lib/metrics/trtllm-step-timeline";

/**
 * The request's context chunks and generation steps on its own timeline (ms after arrival):
 * CPU forward / update / sample in one lane, GPU forward / sample in the other. Shown only when
 * the worker's step-clock offset could be estimated.
 */
export function ChartAreaWaterfallSteps({ detail }: { detail: RequestDetail }) {
  const bars = stepTimelineBars(detail);
  if (bars.length === 0) return null;
  const title = (b: (typeof bars)[number]) =>
    `${b.step} ${b.part}: ${formatMs(b.x2 - b.x1)} (from ${formatMs(b.x1)})`;
  return (
    <ChartContainer
      title="Step timeline"
      description="Chunks and steps after the per-worker clock offset is applied, ms after arrival; hover a bar for its part and duration"
      definition={{
        method: "step stamps of the worker, moved onto the request's clock by the worker's median offset",
      }}
      csvRows={() => bars.map((b) => ({ step: b.step, part: b.part, startMs: b.x1, endMs: b.x2 }))}
      exportName={`request-${detail.idx}-steps`}
      height={130}
    >
      <LaneTimeline
        lanes={STEP_LANES}
        bars={bars.map((b) => ({ ...b, title: title(b) }))}
        format={formatMs}
        label="step timeline"
      />
    </ChartContainer>
  );
}
