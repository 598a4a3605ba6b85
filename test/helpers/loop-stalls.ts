import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * The longest the event loop went without running a timer, from now until `stop()`, in ms:
 * the larger of a 5 ms interval's longest gap less its period and perf_hooks' maximum delay.
 * A stall bound, not a timing: work that yields between pages keeps it small however long the
 * work takes, on a loaded machine too.
 */
export function loopStalls(): { stop(): number } {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let last = performance.now();
  let maxGap = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last - 5);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(probe);
      histogram.disable();
      maxGap = Math.max(maxGap, performance.now() - last - 5);
      return Math.max(maxGap, histogram.max / 1e6);
    },
  };
}
