/**
 * Runs stored before their per-request data became columnar files (docs/architecture.md §Where
 * run data lives) are rebuilt from their stored raw files in the background, one at a time,
 * oldest first, through the same re-ingest as `POST /api/runs/{id}/reingest`. While one is
 * rebuilt it is `ingesting`, as the runs list shows; a kill mid-rebuild leaves it to the sweeper,
 * which marks it failed and re-ingestable with its raw files intact
 * (lib/store/interrupted-ingest.ts).
 */
import { sql } from "kysely";
import type { Db } from "@/lib/store/db";
import { AIPERF_REQUESTS_FILE } from "@/lib/store/columnar/aiperf-request-file";
import { TRTLLM_REQUESTS_FILE } from "@/lib/store/columnar/trtllm-request-file";
import { TRTLLM_TIME_EVENTS_FILE } from "@/lib/store/columnar/trtllm-time-events-file";
import { claimForIngest } from "@/lib/store/interrupted-ingest";
import type { IngestDeps } from "./deps";
import { drilldownsSettled } from "./drilldown";
import { ingestRun } from "./ingest-run";

/**
 * What an earlier Runlens kept as rows and is now a columnar file: the kind of the raw upload the
 * rows came from (`files.kind`), the catalog table that held them (with a `run_id` column) and the
 * name of the file that holds them now (`run_column_files.name`).
 */
export interface RowsNowAFile {
  fileKind: string;
  table: string;
  columnFile: string;
}

/** Every kind of row data that became a file; one entry each. */
export const ROWS_NOW_FILES: readonly RowsNowAFile[] = [
  { fileKind: "aiperf-records", table: "aiperf_requests", columnFile: AIPERF_REQUESTS_FILE },
  { fileKind: "trtllm-side-file", table: "trtllm_time_events", columnFile: TRTLLM_TIME_EVENTS_FILE },
  { fileKind: "trtllm-perf-metrics", table: "trtllm_requests", columnFile: TRTLLM_REQUESTS_FILE },
];

/**
 * Ready runs that keep some data of `ROWS_NOW_FILES` as rows: a raw file of the entry's kind, rows
 * in its table and no file of its name. Oldest first.
 */
export async function runsStoredAsRows(
  db: Db,
  entries: readonly RowsNowAFile[] = ROWS_NOW_FILES,
): Promise<string[]> {
  if (entries.length === 0) return [];
  const storedAsRows = entries.map(
    (e) => sql<boolean>`(
      exists (select 1 from files f where f.run_id = r.id and f.kind = ${e.fileKind})
      and exists (select 1 from ${sql.table(e.table)} t where t.run_id = r.id)
      and not exists (select 1 from run_column_files c where c.run_id = r.id and c.name = ${e.columnFile})
    )`,
  );
  const rows = await db
    .selectFrom("runs as r")
    .select("r.id")
    .where("r.status", "=", "ready")
    .where(sql<boolean>`(${sql.join(storedAsRows, sql` or `)})`)
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
