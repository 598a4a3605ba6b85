import path from "node:path";
import { analyzerTables } from "@/lib/ingest/analyzers";
import { drilldownsSettled } from "@/lib/ingest/drilldown";
import { rebuildRowRuns } from "@/lib/ingest/rebuild-row-runs";
import { dropInterruptedUploads, failInterruptedIngests } from "@/lib/store/interrupted-ingest";
import { dropInterruptedSplits } from "@/lib/store/pending-splits";
import type { BlobStore } from "@/lib/store/blob-store";
import { configureColumnar } from "@/lib/store/columnar/engine";
import { attachRunFiles } from "@/lib/store/columnar/run-files";
import { migrate, openPostgres, openSqlite, type DbHandle } from "@/lib/store/db";
import { FsBlobStore } from "@/lib/store/fs-blob-store";
import { PgBlobStore } from "@/lib/store/pg-blob-store";
import { readConfig, type AppConfig } from "./config";

export interface AppContext {
  config: AppConfig;
  store: DbHandle;
  blobs: BlobStore;
  /** Stops background work (the interrupted-ingest sweeper and the blob collector). */
  stop(): void;
}

const GLOBAL_KEY = Symbol.for("runlens.appContext");
type Holder = { [GLOBAL_KEY]?: Promise<AppContext> };

/** Opens the store named by the configuration and applies migrations. */
export async function createAppContext(config: AppConfig = readConfig()): Promise<AppContext> {
  const store = config.databaseUrl
    ? openPostgres(config.databaseUrl)
    : openSqlite(path.join(config.dataDir, "runlens.sqlite"));
  await migrate(store);
  const blobs: BlobStore =
    store.dialect === "postgres"
      ? new PgBlobStore(store.db)
      : new FsBlobStore(path.join(config.dataDir, "blobs"), store.db);
  // Runs' Parquet files are blobs too, read through a local cache in the data dir.
  attachRunFiles(store.db, blobs, path.join(config.dataDir, "columnar-cache"));
  await configureColumnar(config.duckdb);
  // Every instance sweeps: whichever is alive finds the runs of one that died mid-ingest.
  const tables = analyzerTables();
  // Once the context is stopped its store closes under any task still running: that failure is
  // the shutdown, not a fault to report.
  let stopped = false;
  const failed = (task: string, err: unknown) => {
    if (!stopped) logBackgroundFailure(task, err);
  };
  // A failed sweep or collection is tried again at the next tick; it is logged, never swallowed.
  const sweep = async () => {
    // An upload killed while it was made into several runs goes whole (lib/store/pending-splits.ts).
    await dropInterruptedSplits(store.db, config.ingestStaleMs, tables).catch((err) =>
      failed("dropping interrupted splits", err),
    );
    await dropInterruptedUploads(store.db, config.ingestStaleMs, tables).catch((err) =>
      failed("dropping interrupted uploads", err),
    );
    await failInterruptedIngests(store.db, config.ingestStaleMs).catch((err) =>
      failed("marking interrupted ingests failed", err),
    );
  };
  await sweep();
  const sweeper = setInterval(sweep, config.ingestStaleMs);
  sweeper.unref();
  // Every instance collects too: blobs left by a dead instance's uploads, temp files and chunks
  // of crashed uploads. The locked check makes concurrent collectors safe.
  const collect = () =>
    blobs.collect({ graceMs: config.blobGcGraceMs }).catch((err) => failed("collecting unused blobs", err));
  // Also once at start-up, without waiting for it: a crash-looping server still cleans up.
  void collect();
  const collector = setInterval(collect, blobGcIntervalMs(config.blobGcGraceMs));
  collector.unref();
  const context: AppContext = {
    config,
    store,
    blobs,
    stop: () => {
      stopped = true;
      clearInterval(sweeper);
      clearInterval(collector);
      clearTimeout(rebuild);
      blobs.stop?.();
    },
  };
  // Runs stored as rows by an earlier version are rebuilt as columns in the background, once the
  // server has started answering; a stopped context starts no further rebuild.
  const rebuild = setTimeout(() => {
    if (!config.rebuildRowRuns || stopped) return;
    void rebuildRowRuns(context, () => stopped).catch((err) => failed("rebuilding runs stored as rows", err));
  }, REBUILD_DELAY_MS);
  rebuild.unref();
  return context;
}

/** How long after start-up the rebuild of runs stored as rows begins */
const REBUILD_DELAY_MS = 5_000;

/** One line on stderr for a background task that failed; the next tick tries again. */
function logBackgroundFailure(task: string, err: unknown): void {
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(`runlens: background task failed (${task}); retrying at its next tick: ${text}`);
}

/** How often the blob collector runs: a few times per grace period, at most every 15 minutes. */
export function blobGcIntervalMs(graceMs: number): number {
  return Math.max(1000, Math.min(Math.floor(graceMs / 4), 15 * 60_000));
}

/**
 * The process-wide context, created on first use. Kept on globalThis so that route handlers,
 * instrumentation and tests share one database connection per process.
 */
export function getAppContext(): Promise<AppContext> {
  const holder = globalThis as Holder;
  if (!holder[GLOBAL_KEY]) {
    holder[GLOBAL_KEY] = createAppContext().catch((err) => {
      delete holder[GLOBAL_KEY];
      throw err;
    });
  }
  return holder[GLOBAL_KEY];
}

/** Tests: drop the process-wide context (closing its connections) so the next call re-reads the environment. */
export async function resetAppContext(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[GLOBAL_KEY];
  delete holder[GLOBAL_KEY];
  if (current) {
    const app = await current;
    app.stop();
    // A drill-down still being built writes to the store: it finishes first.
    await drilldownsSettled();
    await app.store.close().catch(() => {});
  }
}
