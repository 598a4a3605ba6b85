import { setIngestHolds, type IngestHolds } from "@/lib/ingest/ingest-holds";

/** How long an ingest is held at each point of lib/ingest/ingest-holds.ts, in milliseconds. */
export interface HoldMs {
  commitMs?: number;
  drilldownMs?: number;
}

const wait = (ms: number) => () => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Holds every ingest of this process before its commit and/or before its drill-down (a crash test
 * kills a process whose ingest is held there); returns the function that lifts the holds.
 */
export function holdIngests({ commitMs = 0, drilldownMs = 0 }: HoldMs): () => void {
  return setIngestHolds({
    ...(commitMs > 0 ? { beforeCommit: wait(commitMs) } : {}),
    ...(drilldownMs > 0 ? { beforeDrilldown: wait(drilldownMs) } : {}),
  });
}

export interface IngestGate {
  /** Resolves once an ingest has arrived at the gate (and waits there). */
  reached: Promise<void>;
  /** Lets every held ingest go on and lifts the gate. */
  release: () => void;
}

/**
 * Holds every ingest of this process at `point` until release(): a test acts on a run held there
 * for as long as it needs, however slow the machine, instead of within a fixed hold.
 */
export function gateIngests(point: keyof IngestHolds): IngestGate {
  let arrived!: () => void;
  const reached = new Promise<void>((r) => (arrived = r));
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const restore = setIngestHolds({
    [point]: () => {
      arrived();
      return opened;
    },
  });
  return {
    reached,
    release: () => {
      restore();
      open();
    },
  };
}
