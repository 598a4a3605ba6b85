import { analyzerTables } from "@/lib/ingest/analyzers";
import type { IngestDeps } from "@/lib/ingest/deps";
import { deleteRun } from "@/lib/store/runs-repo";

/** Deletes the run and its rows, then the raw blobs no other run shares. */
export async function deleteRunAndBlobs(app: Pick<IngestDeps, "store" | "blobs">, id: string): Promise<void> {
  const orphans = await deleteRun(app.store.db, id, analyzerTables());
  for (const sha of orphans) await app.blobs.delete(sha).catch(() => {});
}
