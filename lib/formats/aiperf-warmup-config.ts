/**
 * The warm-up aiperf was configured to run, read from the summary's `input_config`
 * (docs/formats.md §aiperf summary). aiperf does not always write warm-up records, so without this
 * a run with 16 warm-up requests would read "0 warmup". Both config shapes:
 * - v1 `UserConfig` (≤0.7): `loadgen.warmup_request_count`, `loadgen.warmup_duration`
 *   (seconds), `loadgen.warmup_num_sessions`; all unset = no warm-up phase;
 * - v2 `BenchmarkConfig` (0.8+): `phases`, a list (or, in some builds, a name → phase map) whose
 *   warm-up entries have `exclude_from_results: true` (newer builds also say `kind: "warmup"`),
 *   each bounded by `requests`, `duration` (seconds) or `sessions`.
 * The count is the configured bound, an upper limit: a warm-up stopped by its duration sends fewer.
 */
export interface WarmupConfig {
  /** Σ configured warm-up requests; null when the warm-up is bounded only by time or sessions */
  requests: number | null;
  /** Σ configured warm-up seconds, null when not time-bounded */
  durationS: number | null;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null;
}
const count = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;

/** v1: the three loadgen knobs; null when none is set (aiperf then runs no warm-up). */
export function warmupFromLoadgen(loadgen: Obj | null): WarmupConfig | null {
  if (!loadgen) return null;
  const requests = count(loadgen.warmup_request_count);
  const durationS = count(loadgen.warmup_duration);
  const sessions = count(loadgen.warmup_num_sessions);
  if (requests === null && durationS === null && sessions === null) return null;
  return { requests, durationS };
}

/** The v2 phase list as a list, whichever of the two serialisations the file uses. */
export function phaseList(phases: unknown): Obj[] {
  if (Array.isArray(phases)) return phases.map(obj).filter((p) => p !== null);
  const map = obj(phases);
  if (!map) return [];
  return Object.entries(map)
    .map(([name, p]) => (obj(p) ? { name, ...obj(p) } : null))
    .filter((p) => p !== null);
}

const isWarmupPhase = (p: Obj) => p.kind === "warmup" || p.exclude_from_results === true;

/** v2: Σ over the warm-up phases; null when the config has none. */
export function warmupFromPhases(phases: readonly Obj[]): WarmupConfig | null {
  const warm = phases.filter(isWarmupPhase);
  if (warm.length === 0) return null;
  let requests: number | null = 0;
  let durationS: number | null = null;
  for (const p of warm) {
    const n = count(p.requests) ?? count(p.request_count);
    // One phase bounded only by time makes the total request count unknown.
    requests = requests === null || n === null ? null : requests + n;
    const d = count(p.duration);
    if (d !== null) durationS = (durationS ?? 0) + d;
  }
  return { requests, durationS };
}
