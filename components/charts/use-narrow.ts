"use client";

import { useSyncExternalStore } from "react";

/** Below Tailwind's `sm` breakpoint: a phone, where a chart is about 300 px wide. */
const NARROW = "(max-width: 639.98px)";

const subscribe = (change: () => void) => {
  const media = window.matchMedia(NARROW);
  media.addEventListener("change", change);
  return () => media.removeEventListener("change", change);
};

/**
 * Whether the screen is phone-narrow. The server renders for a wide one; a phone re-renders its
 * charts once hydrated (they are drawn only then anyway, when their width is known).
 */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}

/** About how many ticks a horizontal axis has room for: 4 across a phone, the kit's default otherwise. */
export const horizontalTicks = (narrow: boolean): number | undefined => (narrow ? 4 : undefined);
