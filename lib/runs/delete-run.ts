import { analyzerTables } from "@/lib/ingest/analyzers";
import type { IngestDeps } from "@/lib/ingest/deps";
import { deleteRun } from "@/lib/store/runs-repo";

/**
 * Deletes the run and its rows, then (once that is committed) the raw blobs no other run or
 * in-flight upload uses.
 */
export async function deleteRunAndBlobs(app: Pick<IngestDeps, "store" | "blobs">, id: string): Promise<void> {
  await app.blobs.removeUnused(await deleteRun(app.store.db, id, analyzerTables()));
}
