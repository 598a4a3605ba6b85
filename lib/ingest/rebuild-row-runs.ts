/**
 * Runs stored before their aiperf records became a columnar file (docs/architecture.md §Where run
 * data lives) are rebuilt from their stored raw files in the background, one at a time, oldest
 * first, through the same re-ingest as `POST /api/runs/{id}/reingest`. While one is rebuilt it is
 * `ingesting`, as the runs list shows; a kill mid-rebuild leaves it to the sweeper, which marks
 * it failed and re-ingestable with its raw files intact (lib/store/interrupted-ingest.ts).
 */
import type { Db } from "@/lib/store/db";
import { AIPERF_REQUESTS_FILE } from "@/lib/store/columnar/aiperf-request-file";
import { claimForIngest } from "@/lib/store/interrupted-ingest";
import type { IngestDeps } from "./deps";
import { drilldownsSettled } from "./drilldown";
import { ingestRun } from "./ingest-run";

/**
 * Ready runs whose aiperf records are kept as rows: an `aiperf-records` file, rows in
 * `aiperf_requests` and no request file. Oldest first.
 */
export async function runsStoredAsRows(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("runs as r")
    .select("r.id")
    .where("r.status", "=", "ready")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("files as f")
          .select("f.id")
          .whereRef("f.run_id", "=", "r.id")
          .where("f.kind", "=", "aiperf-records"),
      ),
    )
    .where((eb) =>
      eb.exists(eb.selectFrom("aiperf_requests as a").select("a.run_id").whereRef("a.run_id", "=", "r.id")),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("run_column_files as c")
            .select("c.run_id")
            .whereRef("c.run_id", "=", "r.id")
            .where("c.name", "=", AIPERF_REQUESTS_FILE),
        ),
      ),
    )
    .orderBy("r.created_at")
    .orderBy("r.id")
    .execute();
  return rows.map((r) => r.id);
}

export interface RebuildOutcome {
  /** Runs rebuilt to `ready` */
  rebuilt: string[];
  /** Runs whose rebuild ended `failed` (kept, re-ingestable) */
  failed: string[];
  /** Runs another ingest held when their turn came */
  skipped: string[];
}

/**
 * Rebuilds every run stored as rows, one after the other, each with its drill-down, until none
 * is left or `stopped()` says so. A run is tried once per call.
 */
export async function rebuildRowRuns(
  app: IngestDeps,
  stopped: () => boolean = () => false,
): Promise<RebuildOutcome> {
  const outcome: RebuildOutcome = { rebuilt: [], failed: [], skipped: [] };
  const tried = new Set<string>();
  for (;;) {
    if (stopped()) return outcome;
    const id = (await runsStoredAsRows(app.store.db)).find((r) => !tried.has(r));
    if (id === undefined) return outcome;
    tried.add(id);
    if (!(await claimForIngest(app.store.db, id))) {
      outcome.skipped.push(id);
      continue;
    }
    const done = await ingestRun(app, id);
    // The next rebuild waits for this one's drill-down: one rebuild's work at a time.
    await drilldownsSettled();
    if (done.status === "failed") {
      outcome.failed.push(id);
      console.error(`runlens: rebuilding run ${id} from its raw files failed; it can be re-ingested`);
    } else outcome.rebuilt.push(id);
  }
}
