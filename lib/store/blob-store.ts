import type { Readable } from "node:stream";
import { BlobLease, removeUnusedBlobs, type RemoveBlob } from "./blob-leases";
import type { Db } from "./db";
import type { DialectName } from "./dialect";

export interface PutResult {
  sha256: string;
  /** Uncompressed size */
  bytes: number;
  /** Size as stored: gzip, or the bytes themselves when compressed already (lib/store/blob-encoding.ts) */
  storedBytes: number;
  /** False when identical content was already stored */
  created: boolean;
}

export interface PutOptions {
  maxBytes?: number;
  /** The upload's lease: taken on the hash before the store looks for an existing blob. */
  lease?: BlobLease;
}

/** What one garbage collection removed. */
export interface Collected {
  blobs: number;
  tmp: number;
}

/**
 * Raw uploads, content-addressed by the sha256 of their original bytes and kept gzip-compressed,
 * or as they are when compressed already (lib/store/blob-encoding.ts). Small on purpose: an S3-compatible store is the next implementation.
 */
export interface BlobStore {
  /**
   * Streams `source` in, hashing and compressing on the way (unless its first bytes show it is
   * compressed already); never buffers the whole input.
   */
  put(source: Readable, options?: PutOptions): Promise<PutResult>;
  /** The original (uncompressed) bytes. */
  open(sha256: string): Promise<Readable>;
  /**
   * The bytes gzip-compressed (for downloads with Content-Encoding: gzip): a gzip blob as stored,
   * one kept as it is compressed on the way out.
   */
  openCompressed(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
  /** A new lease for one upload; its leases lapse `ttlMs` after the last renewal. */
  lease(ttlMs: number): BlobLease;
  /**
   * Deletes those of `hashes` that no file row and no live lease names (a locked check, see
   * lib/store/blob-leases.ts); returns the deleted ones. Never throws.
   */
  removeUnused(hashes: readonly string[]): Promise<string[]>;
  /**
   * Garbage collection: removes unreferenced, unleased blobs and temp leftovers of crashed
   * uploads, when older than `graceMs`.
   */
  collect(options: { graceMs: number; now?: number }): Promise<Collected>;
  /**
   * An ingest that stored blobs is done with its run (drill-down ready, or it ended otherwise):
   * the store may do the work it put off (the file store gzips what it stored raw). Resolves when
   * that work is done; never throws.
   */
  compressPending?(): Promise<void>;
  /** Shutdown: starts no further background work. */
  stop?(): void;
  /**
   * Makes `dest` a hard link to the blob's file when the store keeps its original bytes as a
   * local file (the file store's blobs compressed already: a run's Parquet file); false when it
   * keeps none (PostgreSQL's chunks, a gzipped blob) or cannot link there (another filesystem).
   * `dest` must not exist.
   */
  linkOriginal?(sha256: string, dest: string): Promise<boolean>;
  /** Calls `listener` with each hash `removeUnused` (or the collector) has deleted. */
  onRemoved(listener: (sha256: string) => Promise<void>): void;
}

/** The removal listeners of a blob store: each is called once per removed hash; a failing one is logged. */
export class RemovalListeners {
  private readonly listeners: Array<(sha256: string) => Promise<void>> = [];

  add(listener: (sha256: string) => Promise<void>): void {
    this.listeners.push(listener);
  }

  async notify(removed: readonly string[]): Promise<string[]> {
    for (const sha of removed)
      for (const listener of this.listeners)
        await listener(sha).catch((err) =>
          console.error(`[runlens] after removing blob ${sha.slice(0, 12)}`, err),
        );
    return [...removed];
  }
}

/**
 * Removal as both stores do it: leases whose release removes what they held once nothing names
 * it, the locked check-and-delete (`removeBlob` deletes one blob's bytes inside its transaction),
 * and the listeners told of each removed hash.
 */
export class BlobRemoval {
  private readonly listeners = new RemovalListeners();

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
    private readonly removeBlob: RemoveBlob,
  ) {}

  lease(ttlMs: number): BlobLease {
    return new BlobLease(this.db, ttlMs, (hashes) => this.removeUnused(hashes));
  }

  async removeUnused(hashes: readonly string[], now = Date.now()): Promise<string[]> {
    return this.listeners.notify(
      await removeUnusedBlobs(this.db, this.dialect, hashes, this.removeBlob, now),
    );
  }

  onRemoved(listener: (sha256: string) => Promise<void>): void {
    this.listeners.add(listener);
  }
}

export class BlobTooLargeError extends Error {
  readonly code = "blob_too_large";
  constructor(public readonly limit: number) {
    super(`upload exceeds the limit of ${limit} bytes`);
  }
}

/**
 * By its code, not `instanceof`: Next.js may bundle this module more than once, and the store
 * kept on globalThis can come from another copy than the code that catches its error.
 */
export function isBlobTooLarge(err: unknown): err is BlobTooLargeError {
  return err instanceof Error && (err as { code?: unknown }).code === "blob_too_large";
}
