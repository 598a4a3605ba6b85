import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { Readable } from "node:stream";
import { backgroundGzip, BlobEncoder, storeGzip, type BlobEncoding } from "./blob-encoding";
import { dropExpiredLeases, unreferencedHashes, type BlobLease } from "./blob-leases";
import { BlobRemoval, type BlobStore, type Collected, type PutOptions, type PutResult } from "./blob-store";
import type { Db } from "./db";
import { HashingStream } from "./hashing-stream";
import { truncateWal } from "./raw-sqlite";

/**
 * A stored blob's file name: gzip-compressed (`.gz`), the original bytes waiting to be gzipped
 * (`.raw`), or the original bytes kept as they are (no extension).
 */
const BLOB_NAME = /^([0-9a-f]{64})(\.gz|\.raw)?$/;

/** How a blob's file holds it: `raw` is the original bytes until the background gzip is done. */
type FileForm = "identity" | "raw" | "gzip";

/**
 * The forms in the order readers look: `.raw` before `.gz`, since the background gzip renames the
 * `.gz` in before it deletes the `.raw` (one of them is always there).
 */
const FORMS: readonly FileForm[] = ["identity", "raw", "gzip"];

/** A `.raw` the collector finds older than this had its ingest end without a signal: gzipped then. */
const RAW_LEFTOVER_MS = 10 * 60_000;

/**
 * Blobs as files under `<dir>/<aa>/`: `<sha256>` for bytes compressed already
 * (lib/store/blob-encoding.ts), kept as they are; other bytes are stored as `<sha256>.raw`, so an
 * upload spends no CPU on gzip while its run is ingested, and gzipped afterwards by a background
 * job, one blob at a time, to `<sha256>.gz` (see `compressPending`). Every file is written to a
 * temp file first and renamed into place. Blobs stored by earlier versions are all `.gz` and read
 * as ever. Leases and file references live in the SQLite catalog `db`.
 */
export class FsBlobStore implements BlobStore {
  /** Blobs stored as `.raw`, waiting for the background gzip */
  private readonly pendingGzip = new Set<string>();
  private compressing: Promise<void> = Promise.resolve();
  private gzipRunning = false;
  private stopped = false;
  private readonly removal: BlobRemoval;
  /** The start-up work: old temp files swept, `.raw` leftovers found and gzipped. */
  readonly recovered: Promise<void>;

  constructor(
    private readonly dir: string,
    private readonly db: Db,
  ) {
    // The file goes inside the checking transaction, which holds the database write lock.
    this.removal = new BlobRemoval(db, "sqlite", async (_trx, sha) => {
      for (const form of FORMS) await fs.promises.rm(this.pathOf(sha, form), { force: true });
    });
    fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
    void this.sweepTmp();
    this.recovered = this.resumeCompression().then(
      () => {},
      (err) => {
        if (!this.stopped) console.error("[runlens] resuming the gzip of stored blobs failed", err);
      },
    );
  }

  lease(ttlMs: number): BlobLease {
    return this.removal.lease(ttlMs);
  }

  removeUnused(hashes: readonly string[], now = Date.now()): Promise<string[]> {
    return this.removal.removeUnused(hashes, now);
  }

  onRemoved(listener: (sha256: string) => Promise<void>): void {
    this.removal.onRemoved(listener);
  }

  /**
   * A blob kept as it is (compressed already) is linked, not copied: one file on disk for both
   * names. Its bytes are never rewritten in place (a blob is renamed in whole, and only `.raw`
   * files are gzipped), so the link stays the blob's content. A blob stored `.gz` or `.raw`, or a
   * `dest` on another filesystem, gives false.
   */
  async linkOriginal(sha256: string, dest: string): Promise<boolean> {
    return fs.promises.link(this.pathOf(sha256, "identity"), dest).then(
      () => true,
      () => false,
    );
  }

  async collect({ graceMs, now = Date.now() }: { graceMs: number; now?: number }): Promise<Collected> {
    const tmp = await this.sweepTmp(graceMs, now);
    await dropExpiredLeases(this.db, now);
    const old = new Set<string>();
    for (const sub of await fs.promises.readdir(this.dir).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{2}$/.test(sub)) continue;
      for (const name of await fs.promises.readdir(path.join(this.dir, sub)).catch(() => [] as string[])) {
        const match = BLOB_NAME.exec(name);
        if (!match) continue;
        const sha = match[1];
        const stat = await fs.promises.stat(path.join(this.dir, sub, name)).catch(() => null);
        if (stat && now - stat.mtimeMs > graceMs) old.add(sha);
        if (stat && match[2] === ".raw" && now - stat.mtimeMs > RAW_LEFTOVER_MS) this.pendingGzip.add(sha);
      }
    }
    const removed = await this.removeUnused(await unreferencedHashes(this.db, [...old]), now);
    for (const sha of removed) this.pendingGzip.delete(sha);
    void this.compressPending();
    return { blobs: removed.length, tmp };
  }

  /**
   * Removes temp files a killed process left behind (an upload cut off mid-write), at start-up and
   * at every collection. Only old ones: a fresh temp file may belong to an upload in progress.
   */
  async sweepTmp(maxAgeMs = 60 * 60_000, now = Date.now()): Promise<number> {
    const tmp = path.join(this.dir, "tmp");
    let removed = 0;
    for (const name of await fs.promises.readdir(tmp).catch(() => [] as string[])) {
      const file = path.join(tmp, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat && now - stat.mtimeMs > maxAgeMs) {
        await fs.promises.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  private pathOf(sha256: string, form: FileForm): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("invalid blob id");
    const name = form === "gzip" ? `${sha256}.gz` : form === "raw" ? `${sha256}.raw` : sha256;
    return path.join(this.dir, sha256.slice(0, 2), name);
  }

  /** The stored file of `sha256` in whichever form it is; null when there is none. */
  private async find(sha256: string): Promise<{ file: string; form: FileForm } | null> {
    for (const form of FORMS) {
      const file = this.pathOf(sha256, form);
      if (
        await fs.promises.access(file).then(
          () => true,
          () => false,
        )
      )
        return { file, form };
    }
    return null;
  }

  /**
   * The blob's bytes as stored, opened (an open file survives the background gzip deleting its
   * `.raw`), with how they are encoded; a missing blob gives the `.gz` path's ENOENT, as before
   * there were other forms.
   */
  private async stored(sha256: string): Promise<{ bytes: Readable; encoding: BlobEncoding }> {
    for (const form of FORMS) {
      const handle = await fs.promises.open(this.pathOf(sha256, form)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === "ENOENT" && form !== "gzip") return null;
        throw err;
      });
      if (handle)
        return {
          bytes: handle.createReadStream({ highWaterMark: 1 << 20 }),
          encoding: form === "gzip" ? "gzip" : "identity",
        };
    }
    throw new Error("unreachable");
  }

  async put(source: Readable, options: PutOptions = {}): Promise<PutResult> {
    const tmp = path.join(this.dir, "tmp", `${randomUUID()}.part`);
    const hasher = new HashingStream(options.maxBytes);
    // Nothing is gzipped here: bytes to compress are stored `.raw` and gzipped after the ingest.
    const encoder = new BlobEncoder(false);
    try {
      await pipeline(source, hasher, encoder, fs.createWriteStream(tmp));
      const sha256 = hasher.digest();
      const storedBytes = (await fs.promises.stat(tmp)).size;
      const form: FileForm = encoder.encoding === "identity" ? "identity" : "raw";
      const dest = this.pathOf(sha256, form);
      // Leased before looking: a deletion either sees the lease or has already removed the file.
      await options.lease?.hold(sha256);
      // In any form: the same bytes stored by an earlier version as `.gz` are reused.
      const existing = await this.find(sha256);
      if (existing) {
        await fs.promises.rm(tmp, { force: true });
        // Reuse makes the blob young again for the collector's grace period.
        const now = new Date();
        await fs.promises.utimes(existing.file, now, now).catch(() => {});
        return { sha256, bytes: hasher.bytes, storedBytes, created: false };
      }
      await fs.promises.mkdir(path.dirname(dest), { recursive: true });
      await fs.promises.rename(tmp, dest);
      if (form === "raw") this.pendingGzip.add(sha256);
      options.lease?.created(sha256);
      return { sha256, bytes: hasher.bytes, storedBytes, created: true };
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  async open(sha256: string): Promise<Readable> {
    // 256 KiB output chunks: inflating in zlib's default 16 KiB pieces costs 2.5× the time and
    // sends 16× as many chunks through the line reader.
    const { bytes, encoding } = await this.stored(sha256);
    return encoding === "gzip" ? bytes.pipe(createGunzip({ chunkSize: 256 << 10 })) : bytes;
  }

  async openCompressed(sha256: string): Promise<Readable> {
    const { bytes, encoding } = await this.stored(sha256);
    return encoding === "gzip" ? bytes : bytes.pipe(storeGzip());
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.find(sha256)) !== null;
  }

  /**
   * Gzips the blobs stored `.raw`, one at a time, in the background: the ingest calls this once
   * its run's drill-down is ready (or it ended otherwise), the collector for leftovers. Each goes
   * to a temp file, is renamed to `.gz`, then its `.raw` is deleted; the swap holds the database
   * write lock, as a removal does, so a blob removed meanwhile is not brought back. Resolves when
   * the queue is empty; never throws (a failure leaves the `.raw`, read as it is, for the next
   * start-up or collection). Then the catalog's WAL, grown by the ingest, is folded into the
   * database and truncated (`truncateWal`).
   */
  compressPending(): Promise<void> {
    if (!this.gzipRunning) {
      this.gzipRunning = true;
      this.compressing = this.drainGzip();
    }
    return this.compressing;
  }

  private async drainGzip(): Promise<void> {
    try {
      while (!this.stopped) {
        for (let next = first(this.pendingGzip); next !== undefined; next = first(this.pendingGzip)) {
          if (this.stopped) return;
          this.pendingGzip.delete(next);
          await this.gzipRaw(next).catch((err) => {
            // After shutdown the catalog closes under it: that is the shutdown, not a fault.
            if (!this.stopped)
              console.error(`[runlens] gzip of stored blob ${next.slice(0, 12)} failed`, err);
          });
        }
        // The ingest's writes are in the catalog's WAL: folded into the database, it shrinks to nothing.
        await truncateWal(this.db).catch((err) => {
          if (!this.stopped) console.error("[runlens] checkpoint of the catalog's WAL failed", err);
        });
        // A blob queued during the checkpoint is gzipped in this run, which it found under way.
        if (this.pendingGzip.size === 0) return;
      }
    } finally {
      // Cleared as the queue is found empty, in the same step: a blob queued after it starts a
      // new run at the next call.
      this.gzipRunning = false;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  private async gzipRaw(sha256: string): Promise<void> {
    const raw = this.pathOf(sha256, "raw");
    const gz = this.pathOf(sha256, "gzip");
    const tmp = path.join(this.dir, "tmp", `${randomUUID()}.gz`);
    try {
      const source = await fs.promises.open(raw).catch((err: NodeJS.ErrnoException) => {
        if (err.code === "ENOENT") return null; // removed meanwhile
        throw err;
      });
      if (!source) return;
      await pipeline(
        source.createReadStream({ highWaterMark: 1 << 20 }),
        backgroundGzip(),
        fs.createWriteStream(tmp),
      );
      await this.db.transaction().execute(async (trx) => {
        // A write first takes SQLite's write lock, which a removal's check-and-delete holds too
        // (lib/store/blob-leases.ts): the `.raw` is either still there, or gone with its blob.
        await trx.deleteFrom("blob_leases").where("expires_at", "<=", Date.now()).execute();
        if (!fs.existsSync(raw)) return;
        await fs.promises.rename(tmp, gz);
        await fs.promises.rm(raw, { force: true });
      });
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  /**
   * Start-up: a `.raw` whose `.gz` exists was cut off between the rename and the delete and goes;
   * the others are gzipped in the background. Returns how many are queued.
   */
  async resumeCompression(): Promise<number> {
    let queued = 0;
    for (const sub of await fs.promises.readdir(this.dir).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{2}$/.test(sub)) continue;
      for (const name of await fs.promises.readdir(path.join(this.dir, sub)).catch(() => [] as string[])) {
        const match = BLOB_NAME.exec(name);
        if (!match || match[2] !== ".raw") continue;
        if (fs.existsSync(this.pathOf(match[1], "gzip"))) {
          await fs.promises.rm(path.join(this.dir, sub, name), { force: true });
        } else {
          this.pendingGzip.add(match[1]);
          queued++;
        }
      }
    }
    void this.compressPending();
    return queued;
  }
}

function first<T>(set: Set<T>): T | undefined {
  for (const v of set) return v;
  return undefined;
}
