import type { BlobStore } from "@/lib/store/blob-store";
import type { DbHandle } from "@/lib/store/db";

/**
 * What an ingest needs from the running app: the store, the blobs and a few limits. The app
 * context satisfies it; tests and the example seeder can hand in their own.
 */
export interface IngestDeps {
  config: {
    maxLineBytes: number;
    maxJsonDocumentBytes: number;
    /** An `ingesting` run whose heartbeat is older than this was interrupted. */
    ingestStaleMs: number;
    /**
     * "background" (the default): an upload answers once its summary is stored and builds its
     * drill-down afterwards; "inline": it answers once both are stored.
     */
    drilldown?: "background" | "inline";
  };
  store: DbHandle;
  blobs: BlobStore;
}
