/**
 * aiperf's own log, `logs/aiperf.log` (docs/formats.md §aiperf log): what it says of each credit
 * phase. aiperf's PhaseRunner writes, per phase (0.8+):
 *
 *   … - PhaseRunner - NOTICE - Phase warmup started | target: 16 requests
 *   … - PhaseRunner - NOTICE - Phase warmup complete | completed=16, cancelled=0, errors=0 | elapsed=403.89s
 *
 * The warm-up phase's size is written nowhere else when aiperf exports no warm-up records and its
 * configuration names no warm-up (a scenario chose it). Lines of other shapes are ignored.
 */

export interface AiperfLogPhase {
  /** Requests the phase finished (aiperf's returned credits); null when the log has no "complete" line */
  completed: number | null;
  cancelled: number | null;
  errors: number | null;
  /** Wall time of the phase (s) */
  elapsedS: number | null;
  /** The phase's target when bounded by requests (`target: 16 requests`) */
  targetRequests: number | null;
}

export interface AiperfLog {
  /** By phase name as aiperf writes it (`warmup`, `profiling`) */
  phases: Record<string, AiperfLogPhase>;
}

const STARTED = /\bPhase (\w+) started \| target: (\d+) requests\b/;
const COMPLETE =
  /\bPhase (\w+) complete \| completed=(\d+), cancelled=(\d+), errors=(\d+)(?:.*?\belapsed=([\d.]+)s)?/;

const blank = (): AiperfLogPhase => ({
  completed: null,
  cancelled: null,
  errors: null,
  elapsedS: null,
  targetRequests: null,
});

export function parseAiperfLog(text: string): AiperfLog {
  const phases: Record<string, AiperfLogPhase> = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!line.includes("Phase ")) continue;
    const started = STARTED.exec(line);
    if (started) {
      (phases[started[1]] ??= blank()).targetRequests = Number(started[2]);
      continue;
    }
    const done = COMPLETE.exec(line);
    if (!done) continue;
    const p = (phases[done[1]] ??= blank());
    p.completed = Number(done[2]);
    p.cancelled = Number(done[3]);
    p.errors = Number(done[4]);
    p.elapsedS = done[5] !== undefined ? Number(done[5]) : null;
  }
  return { phases };
}
