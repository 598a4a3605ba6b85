"use client";

import { useEffect, useLayoutEffect, useState } from "react";
import type { TimelinePayload } from "@/lib/api/timeline";
import { resolveColour, type DrawColours } from "./timeline-draw";

/** Bumps when the theme changes, so the canvas redraws in the new colours. */
export function useTheme(): number {
  const [theme, setTheme] = useState(0);
  useEffect(() => {
    const o = new MutationObserver(() => setTheme((t) => t + 1));
    o.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => o.disconnect();
  }, []);
  return theme;
}

export function coloursOf(el: Element, p: TimelinePayload): DrawColours {
  const r = (c: string) => resolveColour(el, c);
  return {
    segments: p.segments.map((s) => r(s.colour)),
    fg: r("var(--fg)"),
    muted: r("var(--muted)"),
    grid: r("var(--grid)"),
    band: r("var(--border)"),
    accent: r("var(--accent)"),
  };
}

export function useWidth(el: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const node = el.current;
    if (!node) return;
    // The observer reports the first size too, right after observe().
    const o = new ResizeObserver(() => setWidth(node.clientWidth));
    o.observe(node);
    return () => o.disconnect();
  }, [el]);
  return width;
}
