/**
 * Two points where an ingest can be held: after its analyzers' last row and before the run's
 * commit, and after the summary's commit and before the drill-down is built. Nothing holds an
 * ingest unless a caller sets a hold (the crash and rebuilding tests do, to act on a run held
 * there); the ingest only awaits what is set.
 */
export interface IngestHolds {
  /** Awaited once the analyzers have finished, before the run's commit. */
  beforeCommit?: () => Promise<void>;
  /**
   * Awaited before the drill-down is built. Setting it gives every ingest a drill-down phase,
   * even one whose analyzers returned no drill-down work.
   */
  beforeDrilldown?: () => Promise<void>;
}

// On globalThis, as for the app context: the bundle may hold several copies of this module.
const KEY = Symbol.for("runlens.ingestHolds");
const holder = globalThis as { [KEY]?: IngestHolds };

/** The holds in force (none by default). */
export function ingestHolds(): IngestHolds {
  return holder[KEY] ?? {};
}

/** Replaces the holds in force; returns a function that puts back the ones it replaced. */
export function setIngestHolds(holds: IngestHolds): () => void {
  const before = holder[KEY];
  holder[KEY] = holds;
  return () => {
    holder[KEY] = before;
  };
}
