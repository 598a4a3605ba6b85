"use client";

const WIDTH = 1000;
const LEFT = 60;
const RIGHT = 16;
const LANE_H = 34;
const TOP = 8;
const TICKS = 5;

export interface LaneBar {
  lane: number;
  x1: number;
  x2: number;
  colour: string;
  /** Hover text of the bar. */
  title: string;
}

/**
 * Floating intervals on a few named lanes over a shared time axis, drawn as plain SVG: hundreds
 * of intervals per lane is not a shape the chart library has.
 */
export function LaneTimeline(props: {
  lanes: readonly string[];
  bars: LaneBar[];
  format: (v: number) => string;
  label: string;
}) {
  const { lanes, bars, format, label } = props;
  const lo = Math.min(...bars.map((b) => b.x1));
  const span = Math.max(Math.max(...bars.map((b) => b.x2)) - lo, 1e-6);
  const x = (v: number) => LEFT + ((v - lo) / span) * (WIDTH - LEFT - RIGHT);
  const laneY = (lane: number) => TOP + (lanes.length - 1 - lane) * LANE_H;
  const height = TOP + lanes.length * LANE_H + 24;
  const ticks = Array.from({ length: TICKS + 1 }, (_, i) => lo + (span * i) / TICKS);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" height="100%" role="img" aria-label={label}>
      {lanes.map((name, lane) => (
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
      {ticks.map((t, i) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={TOP} y2={height - 20} stroke="var(--grid)" />
          {/* The last tick sits on the right edge: centred on it, its text ran out of the drawing. */}
          <text
            x={x(t)}
            y={height - 6}
            textAnchor={i === TICKS ? "end" : "middle"}
            fontSize={11}
            fill="var(--muted)"
          >
            {format(t)}
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
          <title>{b.title}</title>
        </rect>
      ))}
    </svg>
  );
}
