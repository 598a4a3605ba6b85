import { randomUUID } from "node:crypto";
import { PassThrough, Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { sql } from "kysely";
import { BlobEncoder, storeGzip, type BlobEncoding } from "./blob-encoding";
import { dropExpiredLeases, unreferencedHashes, type BlobLease } from "./blob-leases";
import { BlobRemoval, type BlobStore, type Collected, type PutOptions, type PutResult } from "./blob-store";
import type { Db } from "./db";
import { HashingStream } from "./hashing-stream";

const CHUNK_BYTES = 1 << 20;

/**
 * Blobs as chunked `bytea` rows (PostgreSQL mode), so stateless app instances share raw files
 * through the one database. The chunks hold the bytes gzip-compressed, or as they came when they
 * are compressed already (lib/store/blob-encoding.ts); every chunk says which in `encoding`
 * (null, from before migration 020: gzip). Chunks are written under a temporary key and renamed to the
 * content hash once the upload is complete. Every chunk carries its write time, so the collector
 * can tell a crashed upload's leftovers from one still arriving.
 */
export class PgBlobStore implements BlobStore {
  // The same advisory lock as put's rename: a blob is never deleted while it is being reused.
  private readonly removal: BlobRemoval;

  constructor(private readonly db: Db) {
    this.removal = new BlobRemoval(db, "postgres", async (trx, sha) => {
      await trx.deleteFrom("blob_chunks").where("blob_key", "=", sha).execute();
    });
  }

  onRemoved(listener: (sha256: string) => Promise<void>): void {
    this.removal.onRemoved(listener);
  }

  lease(ttlMs: number): BlobLease {
    return this.removal.lease(ttlMs);
  }

  removeUnused(hashes: readonly string[], now = Date.now()): Promise<string[]> {
    return this.removal.removeUnused(hashes, now);
  }

  async collect({ graceMs, now = Date.now() }: { graceMs: number; now?: number }): Promise<Collected> {
    const cutoff = now - graceMs;
    // A temp key is stale when even its newest chunk is older than the grace period.
    const stale = await this.db
      .selectFrom("blob_chunks")
      .select("blob_key")
      .where("blob_key", "like", "tmp-%")
      .groupBy("blob_key")
      .having(sql<number>`max(coalesce(written_at, 0))`, "<", cutoff)
      .execute();
    for (const { blob_key } of stale)
      await this.db.deleteFrom("blob_chunks").where("blob_key", "=", blob_key).execute();
    await dropExpiredLeases(this.db, now);
    const old = await this.db
      .selectFrom("blob_chunks")
      .select("blob_key")
      .where("seq", "=", 0)
      .where("blob_key", "not like", "tmp-%")
      .where(sql<number>`coalesce(written_at, 0)`, "<", cutoff)
      .execute();
    const removed = await this.removeUnused(
      await unreferencedHashes(
        this.db,
        old.map((r) => r.blob_key),
      ),
      now,
    );
    return { blobs: removed.length, tmp: stale.length };
  }

  async put(source: Readable, options: PutOptions = {}): Promise<PutResult> {
    const tmpKey = `tmp-${randomUUID()}`;
    const hasher = new HashingStream(options.maxBytes);
    const encoder = new BlobEncoder();
    let seq = 0;
    let storedBytes = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.db
        .insertInto("blob_chunks")
        .values({
          blob_key: tmpKey,
          seq: seq++,
          data,
          written_at: Date.now(),
          encoding: encoder.encoding ?? "gzip",
        })
        .execute();
      storedBytes += data.length;
    };
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= CHUNK_BYTES) flush().then(() => done(), done);
        else done();
      },
      final(done) {
        flush().then(() => done(), done);
      },
    });
    try {
      await pipeline(source, hasher, encoder, sink);
      const sha256 = hasher.digest();
      // Leased before looking: a deletion either sees the lease or has already removed the blob.
      await options.lease?.hold(sha256);
      const created = await this.db.transaction().execute(async (trx) => {
        // Two uploads of the same bytes finish at once: without this lock both would see no
        // blob yet and the second rename would collide on the primary key.
        await sql`select pg_advisory_xact_lock(hashtext(${sha256}))`.execute(trx);
        const existing = await trx
          .selectFrom("blob_chunks")
          .select("seq")
          .where("blob_key", "=", sha256)
          .limit(1)
          .executeTakeFirst();
        if (existing) {
          await trx.deleteFrom("blob_chunks").where("blob_key", "=", tmpKey).execute();
          // Reuse makes the blob young again for the collector's grace period.
          await trx
            .updateTable("blob_chunks")
            .set({ written_at: Date.now() })
            .where("blob_key", "=", sha256)
            .where("seq", "=", 0)
            .execute();
          return false;
        }
        await trx
          .updateTable("blob_chunks")
          .set({ blob_key: sha256, written_at: Date.now() })
          .where("blob_key", "=", tmpKey)
          .execute();
        return true;
      });
      if (created) options.lease?.created(sha256);
      return { sha256, bytes: hasher.bytes, storedBytes, created };
    } catch (err) {
      await this.db
        .deleteFrom("blob_chunks")
        .where("blob_key", "=", tmpKey)
        .execute()
        .catch(() => {});
      throw err;
    }
  }

  async open(sha256: string): Promise<Readable> {
    const encoding = await this.encodingOf(sha256);
    const bytes = this.chunks(sha256);
    // Large output chunks: zlib's default 16 KiB pieces make inflating 2.5× slower.
    return encoding === "gzip" ? bytes.pipe(createGunzip({ chunkSize: 256 << 10 })) : bytes;
  }

  async openCompressed(sha256: string): Promise<Readable> {
    const encoding = await this.encodingOf(sha256);
    const bytes = this.chunks(sha256);
    return encoding === "gzip" ? bytes : bytes.pipe(storeGzip());
  }

  /** How the blob's chunks hold its bytes; throws when there is no such blob. */
  private async encodingOf(sha256: string): Promise<BlobEncoding> {
    const row = await this.db
      .selectFrom("blob_chunks")
      .select("encoding")
      .where("blob_key", "=", sha256)
      .where("seq", "=", 0)
      .executeTakeFirst();
    if (!row) throw new Error("blob not found");
    return row.encoding === "identity" ? "identity" : "gzip";
  }

  /** The stored chunks in order, as one stream. */
  private chunks(sha256: string): Readable {
    const db = this.db;
    const out = new PassThrough();
    // Read chunk by chunk so a large blob never sits in memory whole.
    (async () => {
      for (let seq = 0; ; seq++) {
        const row = await db
          .selectFrom("blob_chunks")
          .select("data")
          .where("blob_key", "=", sha256)
          .where("seq", "=", seq)
          .executeTakeFirst();
        if (!row) break;
        if (!out.write(Buffer.from(row.data))) await new Promise((r) => out.once("drain", r));
      }
      out.end();
    })().catch((err) => out.destroy(err));
    return out;
  }

  async has(sha256: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("blob_chunks")
      .select("seq")
      .where("blob_key", "=", sha256)
      .limit(1)
      .executeTakeFirst();
    return !!row;
  }
}
