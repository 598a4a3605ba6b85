"use client";

import { CartesianGrid, ComposedChart, ReferenceArea, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { RequestDetail } from "@/lib/metrics/trtllm-payloads";
import { stepTimelineBars, STEP_LANES } from "@/lib/metrics/trtllm-step-timeline";

/**
 * The request's context chunks and generation steps on its own timeline (ms after arrival):
 * CPU forward / update / sample in one lane, GPU forward / sample in the other. Shown only when
 * the worker's step-clock offset could be estimated.
 */
export function ChartAreaWaterfallSteps({ detail }: { detail: RequestDetail }) {
  const bars = stepTimelineBars(detail);
  if (bars.length === 0) return null;
  const lo = Math.min(...bars.map((b) => b.x1));
  const hi = Math.max(...bars.map((b) => b.x2));
  return (
    <ChartContainer
      title="Step timeline"
      description="Chunks and steps after the per-worker clock offset is applied, ms after arrival"
      csvRows={() => bars.map((b) => ({ step: b.step, part: b.part, startMs: b.x1, endMs: b.x2 }))}
      exportName={`request-${detail.idx}-steps`}
      height={150}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={[{ x: lo }, { x: hi }]} margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis
            dataKey="x"
            type="number"
            domain={[lo, hi]}
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis
            type="number"
            domain={[0, STEP_LANES.length]}
            ticks={STEP_LANES.map((_, i) => i + 0.5)}
            tickFormatter={(v: number) => STEP_LANES[Math.floor(v)] ?? ""}
            width={70}
            stroke="var(--muted)"
            fontSize={11}
          />
          {bars.map((b, i) => (
            <ReferenceArea
              key={i}
              x1={b.x1}
              x2={b.x2}
              y1={b.lane + 0.15}
              y2={b.lane + 0.85}
              fill={b.colour}
              fillOpacity={1}
              stroke="none"
              ifOverflow="hidden"
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
