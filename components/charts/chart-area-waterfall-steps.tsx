"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import type { RequestDetail } from "@/lib/api/trtllm-charts";
import { STEP_LANES, stepTimelineBars } from "@/lib/metrics/trtllm-step-timeline";

const WIDTH = 1000;
const LEFT = 60;
const RIGHT = 16;
const LANE_H = 34;
const TOP = 8;
const TICKS = 5;

/**
 * The request's context chunks and generation steps on its own timeline (ms after arrival):
 * CPU forward / update / sample in one lane, GPU forward / sample in the other. Drawn as plain
 * SVG (hundreds of floating intervals on two lanes is not a shape the chart library has). Shown
 * only when the worker's step-clock offset could be estimated.
 */
export function ChartAreaWaterfallSteps({ detail }: { detail: RequestDetail }) {
  const bars = stepTimelineBars(detail);
  if (bars.length === 0) return null;
  const lo = Math.min(...bars.map((b) => b.x1));
  const hi = Math.max(...bars.map((b) => b.x2));
  const span = Math.max(hi - lo, 1e-6);
  const x = (ms: number) => LEFT + ((ms - lo) / span) * (WIDTH - LEFT - RIGHT);
  const laneY = (lane: number) => TOP + (STEP_LANES.length - 1 - lane) * LANE_H;
  const height = TOP + STEP_LANES.length * LANE_H + 24;
  return (
    <ChartContainer
      title="Step timeline"
      description="Chunks and steps after the per-worker clock offset is applied, ms after arrival; hover a bar for its part and duration"
      csvRows={() => bars.map((b) => ({ step: b.step, part: b.part, startMs: b.x1, endMs: b.x2 }))}
      exportName={`request-${detail.idx}-steps`}
      height={130}
    >
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        height="100%"
        role="img"
        aria-label="step timeline"
      >
        {STEP_LANES.map((name, lane) => (
          <text
            key={name}
            x={LEFT - 8}
            y={laneY(lane) + LANE_H / 2 + 4}
            textAnchor="end"
            fontSize={12}
            fill="var(--muted)"
          >
            {name}
          </text>
        ))}
        {Array.from({ length: TICKS + 1 }, (_, i) => lo + (span * i) / TICKS).map((t) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={TOP} y2={height - 20} stroke="var(--grid)" />
            <text x={x(t)} y={height - 6} textAnchor="middle" fontSize={11} fill="var(--muted)">
              {formatMs(t)}
            </text>
          </g>
        ))}
        {bars.map((b, i) => (
          <rect
            key={i}
            x={x(b.x1)}
            width={Math.max(0.5, x(b.x2) - x(b.x1))}
            y={laneY(b.lane) + 4}
            height={LANE_H - 8}
            fill={b.colour}
          >
            <title>{`${b.step} ${b.part}: ${formatMs(b.x2 - b.x1)} (from ${formatMs(b.x1)})`}</title>
          </rect>
        ))}
      </svg>
    </ChartContainer>
  );
}
