"use client";

import { startTransition, useEffect, useState } from "react";

/**
 * False until `ready` has been true across one painted frame, then true for good. A heavy chart
 * rendered behind it leaves the browser free to paint what is already committed (the view's
 * first chart) before the heavy one takes the main thread; the transition lets React yield while
 * rendering it.
 */
export function useAfterPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame callback runs just before the next paint; a task queued from it runs after that paint.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
}
