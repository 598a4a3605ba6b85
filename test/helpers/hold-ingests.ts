import { setIngestHolds } from "@/lib/ingest/ingest-holds";

/** How long an ingest is held at each point of lib/ingest/ingest-holds.ts, in milliseconds. */
export interface HoldMs {
  commitMs?: number;
  drilldownMs?: number;
}

const wait = (ms: number) => () => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Holds every ingest of this process before its commit and/or before its drill-down (a crash or
 * rebuilding test acts on a run held there); returns the function that lifts the holds.
 */
export function holdIngests({ commitMs = 0, drilldownMs = 0 }: HoldMs): () => void {
  return setIngestHolds({
    ...(commitMs > 0 ? { beforeCommit: wait(commitMs) } : {}),
    ...(drilldownMs > 0 ? { beforeDrilldown: wait(drilldownMs) } : {}),
  });
}
