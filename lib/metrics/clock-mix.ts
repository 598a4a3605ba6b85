/**
 * Two clocks in one run's request stamps (docs/metrics.md §Mixed clocks): TensorRT-LLM writes
 * steady-clock seconds (since the host booted, well under 10⁸ s), while some files and tools
 * write Unix epoch seconds (above 10⁹ s since 2001). Mixed in one upload, differences between
 * the two mean nothing and a time axis spans 10⁹ s; the run says so instead of drawing it bare.
 */
const STEADY_BELOW_S = 1e8;
const EPOCH_FROM_S = 1e9;

/** How many stamps read as each clock, when both occur; null when the stamps share one clock. */
export function mixedClocks(startsS: Iterable<number | null>): { steady: number; epoch: number } | null {
  let steady = 0;
  let epoch = 0;
  for (const s of startsS) {
    if (s === null || !Number.isFinite(s)) continue;
    if (s < STEADY_BELOW_S) steady++;
    else if (s >= EPOCH_FROM_S) epoch++;
  }
  return steady > 0 && epoch > 0 ? { steady, epoch } : null;
}

/** The run's warning for mixed clocks. */
export function mixedClocksWarning(m: { steady: number; epoch: number }): string {
  return (
    `request stamps mix two clocks: ${m.steady.toLocaleString("en-US")} in steady-clock seconds (since the host started) ` +
    `and ${m.epoch.toLocaleString("en-US")} in Unix epoch seconds; times across the two are meaningless and the time ` +
    `axes span decades. Upload the files of each clock as runs of their own`
  );
}
