"use client";

import type { SmPoint, SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { ticksCovering } from "@/lib/metrics/nice-scale";
import { gutterFor, RIGHT, type ViewWindow } from "./timeline-layout";

const H = 96;
const PAD = 8;

/** One line of a strip: a series of the stored server metrics and the value it draws. */
export interface Line {
  label: string;
  colour: string;
  dashed?: boolean;
  series: SmSeriesPayload;
  value: (p: SmPoint, s: SmSeriesPayload) => number | null;
}

/** The interval of `s` that holds `tMs` (request clock), or null. */
function pointAt(s: SmSeriesPayload, originEpochMs: number, tMs: number): SmPoint | null {
  const base = s.startEpochMs! - originEpochMs;
  for (const p of s.points) {
    const a = base + p.t * 1000;
    const b = a + (p.durationS ?? s.sliceS ?? 0) * 1000;
    if (tMs >= a && tMs < b) return p;
  }
  return null;
}

export function ContextStrip(props: {
  title: string;
  lines: Line[];
  format: (v: number) => string;
  yMax?: number;
  view: ViewWindow;
  originEpochMs: number;
  cursorMs: number | null;
  width: number;
}) {
  const { title, lines, format, view, originEpochMs, cursorMs, width } = props;
  const values = lines
    .flatMap((l) => l.series.points.map((p) => l.value(p, l.series)))
    .filter((v) => v !== null);
  if (values.length === 0)
    return (
      <p className="text-sm text-muted" data-context-missing>
        {title}: not in these server metrics (the engine exports no such gauge or counter).
      </p>
    );
  const ticks = ticksCovering(0, props.yMax ?? Math.max(...values), 2);
  const top = ticks[ticks.length - 1] || 1;
  const GUTTER = gutterFor(width);
  const plotW = Math.max(1, width - GUTTER - RIGHT);
  const x = (t: number) => GUTTER + ((t - view.from) / (view.to - view.from)) * plotW;
  const y = (v: number) => PAD + (1 - v / top) * (H - 2 * PAD);
  const path = (l: Line) => {
    const base = l.series.startEpochMs! - originEpochMs;
    let d = "";
    let open = false;
    for (const p of l.series.points) {
      const v = l.value(p, l.series);
      if (v === null) {
        open = false;
        continue;
      }
      const a = x(base + p.t * 1000);
      const b = x(base + (p.t + (p.durationS ?? l.series.sliceS ?? 0)) * 1000);
      d += `${open ? "L" : "M"}${a.toFixed(1)},${y(v).toFixed(1)}H${b.toFixed(1)}`;
      open = true;
    }
    return d;
  };
  const readout =
    cursorMs === null
      ? null
      : lines.map((l) => {
          const p = pointAt(l.series, originEpochMs, cursorMs);
          const v = p ? l.value(p, l.series) : null;
          return `${l.label} ${v === null ? "—" : format(v)}`;
        });
  const clip = `clip-${title.replace(/\W/g, "")}`;
  return (
    <figure data-context-strip={title} className="space-y-1">
      <figcaption className="flex flex-wrap items-baseline gap-x-3 text-xs text-muted">
        <span className="font-medium text-fg">{title}</span>
        {readout ? <span data-context-readout>{readout.join(" · ")}</span> : null}
      </figcaption>
      <svg width="100%" height={H} viewBox={`0 0 ${width} ${H}`} role="img" aria-label={title}>
        <defs>
          <clipPath id={clip}>
            <rect x={GUTTER} y={0} width={plotW} height={H} />
          </clipPath>
        </defs>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={GUTTER} x2={width - RIGHT} y1={y(t)} y2={y(t)} stroke="var(--grid)" />
            <text x={GUTTER - 8} y={y(t) + 4} textAnchor="end" fontSize={11} fill="var(--muted)">
              {format(t)}
            </text>
          </g>
        ))}
        <g clipPath={`url(#${clip})`}>
          {lines.map((l) => (
            <path
              key={l.label}
              d={path(l)}
              fill="none"
              stroke={l.colour}
              strokeWidth={1.5}
              strokeDasharray={l.dashed ? "4 3" : undefined}
            />
          ))}
        </g>
        {cursorMs !== null && x(cursorMs) >= GUTTER && x(cursorMs) <= width - RIGHT ? (
          <line x1={x(cursorMs)} x2={x(cursorMs)} y1={0} y2={H} stroke="var(--fg)" />
        ) : null}
      </svg>
      <div className="flex flex-wrap gap-3 pl-40 text-xs text-muted">
        {lines.map((l) => (
          <span key={l.label} className="inline-flex items-center gap-1">
            <svg width="16" height="6" aria-hidden>
              <line
                x1="0"
                x2="16"
                y1="3"
                y2="3"
                stroke={l.colour}
                strokeWidth="2"
                strokeDasharray={l.dashed ? "4 3" : undefined}
              />
            </svg>
            {l.label}
          </span>
        ))}
      </div>
    </figure>
  );
}
