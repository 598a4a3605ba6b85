"use client";

import { useEffect, useRef, useState } from "react";
import { usePlotArea, useXAxisScale, useYAxisScale } from "recharts";
import type { AxisSpec, SeriesConfig } from "./plot-types";

/**
 * From this many marks (bars or points) a chart draws them on one canvas instead of one SVG node
 * each: thousands of nodes made every re-render and every toggle near the chart take a second.
 */
export const DENSE_MARKS = 1000;

type Row = Record<string, unknown>;
type Scale = NonNullable<ReturnType<typeof useXAxisScale>>;

/** The marks a bar or scatter plot draws: one per row and visible series. */
export function markCount<R extends object>(
  kind: string,
  rows: readonly R[],
  series: SeriesConfig<R>,
): number {
  if (kind !== "bar" && kind !== "scatter") return 0;
  return Object.values(series)
    .filter((s) => !s.hidden)
    .reduce((n, s) => n + (s.data ?? rows).length, 0);
}

/** A colour the canvas can use: `var(--token)` resolved on the element (it follows the theme). */
function resolveColour(el: Element, colour: string): string {
  const m = /^var\((--[\w-]+)\)$/.exec(colour.trim());
  if (!m) return colour;
  return getComputedStyle(el).getPropertyValue(m[1]).trim() || "#888";
}

interface Props {
  kind: "bar" | "scatter";
  rows: readonly object[];
  series: SeriesConfig<never>;
  x: AxisSpec;
  y: AxisSpec;
  /** Pixels between two bars' bands (the chart's `barCategoryGap`). */
  gap?: number;
  label: string;
}

function drawBars(
  ctx: CanvasRenderingContext2D,
  el: Element,
  { rows, series, x, gap = 0 }: Props,
  xs: Scale,
  ys: Scale,
) {
  const specs = Object.entries(series).filter(([, s]) => !s.hidden);
  const colours = specs.map(([, s]) => resolveColour(el, s.color));
  // Series without a stack id stand side by side in the band; a stack shares one slot.
  const slots = [...new Set(specs.map(([k, s]) => s.stack ?? `own:${k}`))];
  for (const r of rows as Row[]) {
    const start = xs(r[x.key ?? ""], { position: "start" });
    const end = xs(r[x.key ?? ""], { position: "end" });
    if (start === undefined || end === undefined) continue;
    const width = Math.max(0.5, (end - start - gap) / slots.length);
    const base = new Map<string, number>();
    specs.forEach(([key, s], i) => {
      const v = r[s.dataKey ?? key];
      if (typeof v !== "number" || !Number.isFinite(v)) return;
      const slot = s.stack ?? `own:${key}`;
      const from = base.get(slot) ?? 0;
      base.set(slot, from + v);
      const y0 = ys(from);
      const y1 = ys(from + v);
      if (y0 === undefined || y1 === undefined) return;
      ctx.fillStyle = colours[i];
      ctx.fillRect(start + gap / 2 + slots.indexOf(slot) * width, Math.min(y0, y1), width, Math.abs(y0 - y1));
    });
  }
}

/** A drawn point: where it is, and the row it shows (for the hover readout). */
interface Placed {
  px: number;
  py: number;
  row: Row;
}

function drawPoints(
  ctx: CanvasRenderingContext2D,
  el: Element,
  { rows, series, x, y }: Props,
  xs: Scale,
  ys: Scale,
  placed: Placed[],
) {
  for (const s of Object.values(series)) {
    if (s.hidden) continue;
    ctx.fillStyle = resolveColour(el, s.color);
    ctx.beginPath();
    for (const r of (s.data ?? rows) as Row[]) {
      const px = xs(r[x.key ?? ""]);
      const py = ys(r[y.key ?? ""]);
      if (px === undefined || py === undefined || !Number.isFinite(px) || !Number.isFinite(py)) continue;
      placed.push({ px, py, row: r });
      ctx.moveTo(px + 2.5, py);
      ctx.arc(px, py, 2.5, 0, 2 * Math.PI);
    }
    ctx.fill();
  }
}

/**
 * The marks of a dense bar or scatter plot, drawn on a canvas over the plot area. Recharts still
 * draws the axes, grid and tooltip (the series are registered hidden, so their values reach the
 * tooltip and the axis domains without a node per mark); the canvas is redrawn when the rows,
 * the size or the theme change. Inside a chart only.
 */
export function CanvasMarks(props: Props) {
  const { kind, rows, label } = props;
  const plot = usePlotArea();
  const xs = useXAxisScale();
  const ys = useYAxisScale();
  const ref = useRef<HTMLCanvasElement>(null);
  const [theme, setTheme] = useState(0);
  const placed = useRef<Placed[]>([]);
  const hover = useNearestPoint(ref, placed, kind === "scatter");
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme((t) => t + 1));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx || !plot || !xs || !ys) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(plot.width * dpr);
    canvas.height = Math.round(plot.height * dpr);
    // Scales are in the chart's coordinates; the canvas starts at the plot area's corner.
    ctx.setTransform(dpr, 0, 0, dpr, -plot.x * dpr, -plot.y * dpr);
    ctx.clearRect(plot.x, plot.y, plot.width, plot.height);
    placed.current = [];
    if (kind === "bar") drawBars(ctx, canvas, props, xs, ys);
    else drawPoints(ctx, canvas, props, xs, ys, placed.current);
    // `props` is read whole by the drawing; its parts that change the picture are listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [plot?.x, plot?.y, plot?.width, plot?.height, xs, ys, rows, kind, theme]);
  if (!plot || plot.width <= 0 || plot.height <= 0) return null;
  return (
    <>
      <foreignObject x={plot.x} y={plot.y} width={plot.width} height={plot.height} pointerEvents="none">
        <canvas
          ref={ref}
          role="img"
          aria-label={`${label}: ${rows.length.toLocaleString("en-US")} ${kind === "bar" ? "bars" : "points"}; “View as table” lists their values`}
          data-canvas-marks={kind}
          style={{ width: plot.width, height: plot.height, display: "block" }}
        />
      </foreignObject>
      {hover ? <PointReadout at={hover} x={props.x} y={props.y} plotRight={plot.x + plot.width} /> : null}
    </>
  );
}

/**
 * The point nearest the pointer (within 12 px) of a canvas scatter, which has no SVG node to
 * hover: Recharts' item tooltip cannot reach it, so this stands in for it.
 */
function useNearestPoint(
  canvas: React.RefObject<HTMLCanvasElement | null>,
  placed: React.RefObject<Placed[]>,
  on: boolean,
): Placed | null {
  const [near, setNear] = useState<Placed | null>(null);
  useEffect(() => {
    const wrapper = canvas.current?.closest(".recharts-wrapper");
    const surface = wrapper?.querySelector("svg");
    if (!on || !wrapper || !surface) return;
    const move = (e: Event) => {
      const { clientX, clientY } = e as MouseEvent;
      const box = surface.getBoundingClientRect();
      const mx = clientX - box.left;
      const my = clientY - box.top;
      let best: Placed | null = null;
      let bestD = 144;
      for (const p of placed.current) {
        const d = (p.px - mx) ** 2 + (p.py - my) ** 2;
        if (d < bestD) [best, bestD] = [p, d];
      }
      setNear(best);
    };
    const leave = () => setNear(null);
    wrapper.addEventListener("mousemove", move);
    wrapper.addEventListener("mouseleave", leave);
    return () => {
      wrapper.removeEventListener("mousemove", move);
      wrapper.removeEventListener("mouseleave", leave);
    };
  }, [canvas, placed, on]);
  return near;
}

const coordinate = (a: AxisSpec, v: unknown) => {
  const n = Number(v);
  const text = a.format ? a.format(n) : `${n.toLocaleString("en-US")}${a.unit ? ` ${a.unit}` : ""}`;
  return `${a.name ?? a.title ?? a.key}: ${text}`;
};

/** The hovered point, ringed, and its two coordinates beside it. */
function PointReadout({ at, x, y, plotRight }: { at: Placed; x: AxisSpec; y: AxisSpec; plotRight: number }) {
  const left = at.px + 170 > plotRight;
  return (
    <g pointerEvents="none" data-point-readout>
      <circle cx={at.px} cy={at.py} r={5} fill="none" stroke="var(--fg)" strokeWidth={1.5} />
      <foreignObject
        x={left ? at.px - 178 : at.px + 8}
        y={at.py < 48 ? at.py + 8 : at.py - 44}
        width={170}
        height={40}
      >
        <div className="rounded border border-border bg-card px-2 py-1 text-xs shadow">
          <div>{coordinate(x, at.row[x.key ?? ""])}</div>
          <div>{coordinate(y, at.row[y.key ?? ""])}</div>
        </div>
      </foreignObject>
    </g>
  );
}
