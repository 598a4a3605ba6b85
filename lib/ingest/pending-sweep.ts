/**
 * The runs one upload is made into are a pending sweep until the last is made
 * (lib/store/pending-splits.ts): a kill leaves all of them or none, since the next start drops a
 * pending sweep whose heartbeat stopped, with every run it holds.
 */
import { newRunId } from "@/lib/store/ids";
import {
  abandonPendingSplit,
  addPendingRun,
  beginPendingSplit,
  finishPendingSplit,
  pendingSplitHeartbeat,
} from "@/lib/store/pending-splits";
import { analyzerTables } from "./analyzers";
import type { IngestDeps } from "./deps";

export interface PendingSweep {
  /** The sweep's id, which it keeps when `finish` makes it the upload's sweep */
  id: string;
  /** A run made for it, which goes with it if it is abandoned */
  add(runId: string): Promise<void>;
  /** The sweep of `runIds` (in that order), or, with `sweep` null, the runs left ungrouped */
  finish(runIds: string[], sweep: { name: string; meta: string } | null): Promise<void>;
  /** It goes, with `runIds`; what fails to go is left to the next start's sweep of stale ones */
  abandon(runIds: string[]): Promise<void>;
  /** Stops its heartbeat: after `finish`, or once `abandon` has been tried */
  stop(): void;
}

/** Begins a pending sweep named `name` of the runs already `started`, and its heartbeat. */
export async function beginPendingSweep(
  app: IngestDeps,
  name: string,
  started: string[],
): Promise<PendingSweep> {
  const db = app.store.db;
  const id = newRunId();
  await beginPendingSplit(db, id, name, started);
  const stop = pendingSplitHeartbeat(db, id, app.config.ingestStaleMs);
  return {
    id,
    add: (runId) => addPendingRun(db, id, runId),
    finish: (runIds, sweep) => finishPendingSplit(db, id, runIds, sweep),
    abandon: (runIds) => abandonPendingSplit(db, id, runIds, analyzerTables()).catch(() => {}),
    stop,
  };
}
