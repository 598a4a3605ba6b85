"use client";

import { useCallback, useEffect, useState, type RefObject } from "react";

/**
 * Whether a sideways-scrolling row has more beyond its left and right edges, kept current on
 * scroll and resize: a row that hides tabs past the screen's edge must say that more exist.
 */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): { left: boolean; right: boolean } {
  const [edges, setEdges] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // One pixel of slack: a zoomed page leaves fractions of a pixel at the ends.
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((e) => (e.left === left && e.right === right ? e : { left, right }));
  }, [ref]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", measure);
      observer.disconnect();
    };
  }, [ref, measure]);
  return edges;
}

/** The room `scrollIntoRow` leaves between an item and the row's edge, in px. */
export const ROW_MARGIN_PX = 40;

/** Scrolls `row` sideways, never the page, so that `item` is wholly inside it (with a margin). */
export function scrollIntoRow(row: HTMLElement, item: HTMLElement, margin = ROW_MARGIN_PX): void {
  const start = item.offsetLeft - row.offsetLeft;
  const end = start + item.offsetWidth;
  if (start - margin < row.scrollLeft) row.scrollLeft = Math.max(0, start - margin);
  else if (end + margin > row.scrollLeft + row.clientWidth) row.scrollLeft = end + margin - row.clientWidth;
}
