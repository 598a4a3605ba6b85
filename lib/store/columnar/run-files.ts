/**
 * A run's columnar files (docs/architecture.md §Where run data lives): each Parquet file is
 * kept in the blob store like an uploaded file (the file store, or PostgreSQL's chunks), named by
 * a `run_column_files` row, and read by DuckDB from a local cache file: `<cache>/<sha256>.parquet`,
 * fetched from the blob store on first read. Content-addressed, so a cached file is never stale,
 * and written to a temp file and renamed, so a killed process leaves no half file behind. On the
 * file store the cache file is a hard link to the blob (kept as written, zstd Parquet being
 * compressed already), so the data dir holds the file once; elsewhere (PostgreSQL's chunks, a
 * cache on another filesystem) it is a copy. Either goes when its blob is removed.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { BlobStore } from "../blob-store";
import type { Db } from "../db";
import { FsBlobStore } from "../fs-blob-store";
import { quote } from "./engine";

interface RunFiles {
  blobs: BlobStore;
  cacheDir: string;
}

// On globalThis, as for the app context: the bundle may hold several copies of this module.
const KEY = Symbol.for("runlens.runColumnFiles");
const holder = globalThis as { [KEY]?: WeakMap<Db, RunFiles> };
const attached = (holder[KEY] ??= new WeakMap());
/** Cache files being fetched, by path: two readers of a run fetch it once */
const fetching = new Map<string, Promise<void>>();

/** Where `db`'s runs keep their columnar files: the app context's blob store and a cache dir. */
export function attachRunFiles(db: Db, blobs: BlobStore, cacheDir: string): void {
  fs.mkdirSync(path.join(cacheDir, "tmp"), { recursive: true });
  const files = { blobs, cacheDir };
  attached.set(db, files);
  // A hard link would keep a removed blob's bytes on disk; a copy would outlive every run.
  blobs.onRemoved((sha256) => fs.promises.rm(cachePath(files, sha256), { force: true }));
  void sweepTmp(path.join(cacheDir, "tmp"));
}

/**
 * Removes what a killed process left in the temp folder (a file cut off mid-write): only old
 * files, since a fresh one may belong to a write under way.
 */
async function sweepTmp(dir: string, maxAgeMs = 60 * 60_000, now = Date.now()): Promise<void> {
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && now - stat.mtimeMs > maxAgeMs) await fs.promises.rm(file, { force: true });
  }
}

/**
 * The blob store and cache of `db`. A catalog opened without the app context (the analyzer tests'
 * in-memory store) keeps its files in a temp folder of its own.
 */
function runFilesOf(db: Db): RunFiles {
  let files = attached.get(db);
  if (!files) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-columnar-"));
    files = { blobs: new FsBlobStore(path.join(dir, "blobs"), db), cacheDir: path.join(dir, "cache") };
    attachRunFiles(db, files.blobs, files.cacheDir);
  }
  return files;
}

/**
 * A fresh path in the cache's temp folder, for a file about to be written and stored (`.parquet`)
 * or for an ingest's working files (another extension: a records file's local copy, its raw
 * columns), swept like them when a killed process leaves them.
 */
export function runFileTmpPath(db: Db, ext = "parquet"): string {
  return path.join(runFilesOf(db).cacheDir, "tmp", `${randomUUID()}.${ext}`);
}

const cachePath = (files: RunFiles, sha256: string): string => path.join(files.cacheDir, `${sha256}.parquet`);

/**
 * Stores the file at `localPath` as the run's `name` (replacing an earlier one) and keeps it as
 * the cache file of its content. The row is written last: until it is, the run has no such file,
 * and a blob nothing names is removed by the collector.
 */
export async function putRunFile(
  db: Db,
  runId: string,
  name: string,
  localPath: string,
  rows: number,
): Promise<void> {
  const files = runFilesOf(db);
  const put = await files.blobs.put(fs.createReadStream(localPath, { highWaterMark: 1 << 20 }));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("run_column_files").where("run_id", "=", runId).where("name", "=", name).execute();
    await trx
      .insertInto("run_column_files")
      .values({ run_id: runId, name, sha256: put.sha256, rows, bytes: put.bytes })
      .execute();
  });
  const cached = cachePath(files, put.sha256);
  if (fs.existsSync(cached) || (await linkToCache(files, put.sha256, cached)))
    await fs.promises.rm(localPath, { force: true });
  else await fs.promises.rename(localPath, cached);
}

/**
 * Makes the cache file of `sha256` a hard link to its blob, through a temp name and a rename;
 * false when the blob store keeps no local file to link to (see `BlobStore.linkOriginal`).
 */
async function linkToCache(files: RunFiles, sha256: string, cached: string): Promise<boolean> {
  if (!files.blobs.linkOriginal) return false;
  const tmp = path.join(files.cacheDir, "tmp", `${randomUUID()}.parquet`);
  if (!(await files.blobs.linkOriginal(sha256, tmp))) return false;
  try {
    await fs.promises.rename(tmp, cached);
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
  return true;
}

/** The local path of the run's `name` file, fetched into the cache if need be; null: the run has none. */
export async function runFilePath(db: Db, runId: string, name: string): Promise<string | null> {
  return (await runFile(db, runId, name))?.path ?? null;
}

/**
 * `runFilePath` with the file's content hash and row count as its `run_column_files` row names
 * them (a reader that stores what it derived checks, when it stores it, that the run still has
 * this file).
 */
export async function runFile(
  db: Db,
  runId: string,
  name: string,
): Promise<{ path: string; sha256: string; rows: number } | null> {
  const row = await db
    .selectFrom("run_column_files")
    .select(["sha256", "rows"])
    .where("run_id", "=", runId)
    .where("name", "=", name)
    .executeTakeFirst();
  if (!row) return null;
  return { path: await cachedRunFile(db, row.sha256), sha256: row.sha256, rows: Number(row.rows) };
}

async function cachedRunFile(db: Db, sha256: string): Promise<string> {
  const files = runFilesOf(db);
  const cached = cachePath(files, sha256);
  if (fs.existsSync(cached)) return cached;
  let fetch = fetching.get(cached);
  if (!fetch) {
    fetch = fetchToCache(files, sha256, cached).finally(() => fetching.delete(cached));
    fetching.set(cached, fetch);
  }
  await fetch;
  return cached;
}

/**
 * The run's `name` file as a DuckDB table expression (`read_parquet`, with `options` after the
 * path when given); null: the run has no such file.
 */
export async function runFileSource(
  db: Db,
  runId: string,
  name: string,
  options = "",
): Promise<string | null> {
  const file = await runFilePath(db, runId, name);
  return file === null ? null : `read_parquet(${quote(file)}${options})`;
}

async function fetchToCache(files: RunFiles, sha256: string, cached: string): Promise<void> {
  if (await linkToCache(files, sha256, cached)) return;
  const tmp = path.join(files.cacheDir, "tmp", `${randomUUID()}.parquet`);
  try {
    await pipeline(await files.blobs.open(sha256), fs.createWriteStream(tmp));
    await fs.promises.rename(tmp, cached);
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}
