"use client";

import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { coloursOf, useTheme, useWidth } from "./use-canvas-env";
import type { TimelinePayload } from "@/lib/api/timeline";
import { describeBar } from "./describe-bar";
import { drawTimeline } from "./timeline-draw";
import {
  barAt,
  clampWindow,
  layoutTimeline,
  plotWidth,
  tOf,
  zoomWindow,
  type ViewWindow,
} from "./timeline-layout";

/**
 * The timeline's canvas: wheel zooms around the pointer (Shift + wheel pans), dragging pans, a
 * click opens the request under the pointer; with the canvas focused, ← → step through the
 * bars, Enter opens the one stepped to, + and − zoom. `view` is the window drawn now; the bars
 * are those of the last window fetched, redrawn at once on every frame of a gesture.
 */
export function TimelineCanvas(props: {
  payload: TimelinePayload;
  view: ViewWindow;
  bounds: ViewWindow;
  onView: (v: ViewWindow) => void;
  onOpen: (bar: number) => void;
  selectedId: number | null;
  cursorMs: number | null;
  onCursor: (t: number | null) => void;
  label: string;
}) {
  const { payload: p, view, bounds, onView, onOpen, selectedId, cursorMs, onCursor, label } = props;
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(box);
  const theme = useTheme();
  const layout = useMemo(() => layoutTimeline(p, width), [p, width]);
  const [focused, setFocused] = useState(-1);
  const [hovered, setHovered] = useState<{ bar: number; x: number; y: number } | null>(null);
  const selected = selectedId === null ? -1 : p.bars.id.indexOf(selectedId);
  const [dragging, setDragging] = useState(false);
  const live = useRef({ view, layout, onView, bounds });
  useLayoutEffect(() => {
    live.current = { view, layout, onView, bounds };
  });

  useLayoutEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext("2d");
    if (!c || !ctx || width <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(layout.height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(layout.height * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const parts = drawTimeline(ctx, p, layout, view, coloursOf(c, p), { cursorMs, selected, focused });
    c.dataset.partsDrawn = String(parts);
    c.dataset.drawnFrom = String(view.from);
    c.dataset.drawnTo = String(view.to);
  }, [p, layout, view, theme, cursorMs, selected, focused, width]);

  // Wheel: a native listener, since React's is passive and the page would scroll under the zoom.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const { view: v, layout: l, onView: set, bounds: b } = live.current;
      const x = e.clientX - c.getBoundingClientRect().left;
      const span = v.to - v.from;
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        const d = ((e.shiftKey ? e.deltaY : e.deltaX) / plotWidth(l)) * span;
        set(clampWindow({ from: v.from + d, to: v.to + d }, b));
      } else set(zoomWindow(v, Math.exp(e.deltaY * 0.0015), tOf(l, v, x), b));
    };
    c.addEventListener("wheel", wheel, { passive: false });
    return () => c.removeEventListener("wheel", wheel);
  }, []);

  const drag = useRef<{ x: number; view: ViewWindow; moved: boolean } | null>(null);
  const local = (e: React.PointerEvent) => {
    const r = canvas.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, view, moved: false };
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const at = local(e);
    const d = drag.current;
    if (d) {
      const dx = e.clientX - d.x;
      if (!d.moved && Math.abs(dx) > 3) {
        d.moved = true;
        setDragging(true);
        setHovered(null);
      }
      if (d.moved) {
        const dt = (dx / plotWidth(layout)) * (d.view.to - d.view.from);
        onView(clampWindow({ from: d.view.from - dt, to: d.view.to - dt }, bounds));
        return;
      }
    }
    const t = tOf(layout, view, at.x);
    onCursor(at.x >= 0 && t >= view.from && t <= view.to ? t : null);
    const bar = barAt(p, layout, view, at.x, at.y);
    setHovered(bar >= 0 ? { bar, ...at } : null);
  };
  const onPointerUp = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    drag.current = null;
    setDragging(false);
    if (d && !d.moved) {
      const at = local(e);
      const bar = barAt(p, layout, view, at.x, at.y);
      if (bar >= 0) {
        setFocused(bar);
        onOpen(bar);
      }
    }
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const span = view.to - view.from;
    const mid = (view.from + view.to) / 2;
    const n = p.bars.id.length;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      const step = e.key === "ArrowRight" ? 1 : -1;
      if (e.shiftKey)
        onView(clampWindow({ from: view.from + step * span * 0.2, to: view.to + step * span * 0.2 }, bounds));
      else if (n > 0)
        setFocused((f) => (f < 0 ? (step > 0 ? 0 : n - 1) : Math.max(0, Math.min(n - 1, f + step))));
    } else if (e.key === "Enter" && focused >= 0) {
      e.preventDefault();
      onOpen(focused);
    } else if (e.key === "+" || e.key === "=") onView(zoomWindow(view, 0.5, mid, bounds));
    else if (e.key === "-") onView(zoomWindow(view, 2, mid, bounds));
  };
  return (
    <div ref={box} className="relative w-full">
      <canvas
        ref={canvas}
        tabIndex={0}
        role="application"
        aria-label={`${label}. Wheel or + and − zoom, drag or Shift + arrows pan, arrows step through requests, Enter opens one.`}
        aria-describedby="timeline-focused-bar"
        data-timeline-canvas
        data-bars={n(p)}
        style={{
          width: "100%",
          height: layout.height,
          display: "block",
          touchAction: "none",
          cursor: "grab",
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => {
          setHovered(null);
          onCursor(null);
        }}
        onKeyDown={onKeyDown}
        className="rounded outline-offset-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
      />
      <p id="timeline-focused-bar" className="sr-only" aria-live="polite">
        {focused >= 0 && focused < n(p) ? describeBar(p, focused) : ""}
      </p>
      {hovered && !dragging ? (
        <div
          className="pointer-events-none absolute z-10 max-w-md rounded border border-border bg-card px-2 py-1 text-xs shadow"
          style={{
            left: Math.min(hovered.x + 12, Math.max(0, width - 320)),
            top: hovered.y + 14,
          }}
          data-timeline-tooltip
        >
          {describeBar(p, hovered.bar)}
        </div>
      ) : null}
    </div>
  );
}

const n = (p: TimelinePayload) => p.bars.id.length;
