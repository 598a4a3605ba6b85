import { analyzerTables } from "@/lib/ingest/ingest-run";
import type { AppContext } from "@/lib/server/app-context";
import { deleteRun } from "@/lib/store/runs-repo";

/** Deletes the run and its rows, then the raw blobs no other run shares. */
export async function deleteRunAndBlobs(app: AppContext, id: string): Promise<void> {
  const orphans = await deleteRun(app.store.db, id, analyzerTables());
  for (const sha of orphans) await app.blobs.delete(sha).catch(() => {});
}
