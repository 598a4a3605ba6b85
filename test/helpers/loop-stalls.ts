/**
 * The longest the event loop was held, from now until `stop()`, in ms. A 5 ms interval notes the
 * gap between its turns; a gap counts as held only for the CPU time the process spent in it
 * (`process.cpuUsage`), never more than the gap itself. So a read that computes in one piece shows
 * its whole slice, on any machine, while a process the scheduler left waiting (a loaded CI box:
 * the wall-clock gap grows, the CPU time does not) shows no stall it did not cause.
 * A stall bound, not a timing: work that yields between pages keeps it small however long the
 * work takes.
 *
 * `{ wall: true }` counts every gap whole, as `/api/health` would feel it: for measurements on a
 * quiet machine (test/soak), not for bounds in the suite.
 */
export function loopStalls(opts: { wall?: boolean } = {}): { stop(): number } {
  const PERIOD_MS = 5;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let held = 0;
  const note = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const gap = now - last - PERIOD_MS;
    held = Math.max(held, opts.wall ? gap : Math.min(gap, cpuMs - PERIOD_MS));
    last = now;
    lastCpu = process.cpuUsage();
  };
  const probe = setInterval(note, PERIOD_MS);
  return {
    stop() {
      clearInterval(probe);
      note();
      return Math.max(0, held);
    },
  };
}
