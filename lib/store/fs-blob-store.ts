import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { Readable } from "node:stream";
import { BlobEncoder, storeGzip, type BlobEncoding } from "./blob-encoding";
import { BlobLease, dropExpiredLeases, removeUnusedBlobs, unreferencedHashes } from "./blob-leases";
import type { BlobStore, Collected, PutOptions, PutResult } from "./blob-store";
import type { Db } from "./db";
import { HashingStream } from "./hashing-stream";

/** A stored blob's file name: gzip-compressed (`.gz`) or the original bytes (no extension). */
const BLOB_NAME = /^([0-9a-f]{64})(\.gz)?$/;

/** Both forms, the one written since compressed bytes are kept as they are first. */
const ENCODINGS: readonly BlobEncoding[] = ["identity", "gzip"];

/**
 * Blobs as files: `<dir>/<aa>/<sha256>.gz` (gzip-compressed), or `<dir>/<aa>/<sha256>` for bytes
 * compressed already (lib/store/blob-encoding.ts); written to a temp file first and renamed into
 * place. Blobs stored before the second form existed are all `.gz` and read as ever. Leases and
 * file references live in the SQLite catalog `db`.
 */
export class FsBlobStore implements BlobStore {
  constructor(
    private readonly dir: string,
    private readonly db: Db,
  ) {
    fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
    void this.sweepTmp();
  }

  lease(ttlMs: number): BlobLease {
    return new BlobLease(this.db, ttlMs, (hashes) => this.removeUnused(hashes));
  }

  removeUnused(hashes: readonly string[], now = Date.now()): Promise<string[]> {
    // The file goes inside the checking transaction, which holds the database write lock.
    return removeUnusedBlobs(
      this.db,
      "sqlite",
      hashes,
      async (_trx, sha) => {
        for (const encoding of ENCODINGS) await fs.promises.rm(this.pathOf(sha, encoding), { force: true });
      },
      now,
    );
  }

  async collect({ graceMs, now = Date.now() }: { graceMs: number; now?: number }): Promise<Collected> {
    const tmp = await this.sweepTmp(graceMs, now);
    await dropExpiredLeases(this.db, now);
    const old = new Set<string>();
    for (const sub of await fs.promises.readdir(this.dir).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{2}$/.test(sub)) continue;
      for (const name of await fs.promises.readdir(path.join(this.dir, sub)).catch(() => [] as string[])) {
        const sha = BLOB_NAME.exec(name)?.[1];
        if (!sha) continue;
        const stat = await fs.promises.stat(path.join(this.dir, sub, name)).catch(() => null);
        if (stat && now - stat.mtimeMs > graceMs) old.add(sha);
      }
    }
    const removed = await this.removeUnused(await unreferencedHashes(this.db, [...old]), now);
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

  private pathOf(sha256: string, encoding: BlobEncoding): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("invalid blob id");
    return path.join(this.dir, sha256.slice(0, 2), encoding === "gzip" ? `${sha256}.gz` : sha256);
  }

  /** The stored file of `sha256` in whichever form it was written; null when there is none. */
  private async find(sha256: string): Promise<{ file: string; encoding: BlobEncoding } | null> {
    for (const encoding of ENCODINGS) {
      const file = this.pathOf(sha256, encoding);
      if (
        await fs.promises.access(file).then(
          () => true,
          () => false,
        )
      )
        return { file, encoding };
    }
    return null;
  }

  /** The stored file, or the missing-file error the `.gz` path gives (as before both forms). */
  private async stored(sha256: string): Promise<{ file: string; encoding: BlobEncoding }> {
    const found = await this.find(sha256);
    if (found) return found;
    const file = this.pathOf(sha256, "gzip");
    await fs.promises.access(file);
    return { file, encoding: "gzip" };
  }

  async put(source: Readable, options: PutOptions = {}): Promise<PutResult> {
    const tmp = path.join(this.dir, "tmp", `${randomUUID()}.gz`);
    const hasher = new HashingStream(options.maxBytes);
    const encoder = new BlobEncoder();
    try {
      await pipeline(source, hasher, encoder, fs.createWriteStream(tmp));
      const sha256 = hasher.digest();
      const storedBytes = (await fs.promises.stat(tmp)).size;
      const dest = this.pathOf(sha256, encoder.encoding ?? "gzip");
      // Leased before looking: a deletion either sees the lease or has already removed the file.
      await options.lease?.hold(sha256);
      // In either form: the same bytes stored by an earlier version as `.gz` are reused.
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
    const { file, encoding } = await this.stored(sha256);
    const bytes = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    return encoding === "gzip" ? bytes.pipe(createGunzip({ chunkSize: 256 << 10 })) : bytes;
  }

  async openCompressed(sha256: string): Promise<Readable> {
    const { file, encoding } = await this.stored(sha256);
    const bytes = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    return encoding === "gzip" ? bytes : bytes.pipe(storeGzip());
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.find(sha256)) !== null;
  }
}
