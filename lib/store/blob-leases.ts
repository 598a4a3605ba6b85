/**
 * Keeping shared blobs safe. Blobs are content-addressed, so one blob may back files of many
 * runs, and an upload learns that its bytes already exist before its file rows are written. Two
 * rules make reuse and deletion atomic:
 *
 * - An upload takes a lease on a blob's hash before the store decides whether the blob exists,
 *   and keeps it (renewed like an ingest heartbeat) until its file rows are committed or it ends.
 * - A blob is deleted only by a locked check-and-delete: under a per-hash lock (PostgreSQL: an
 *   advisory transaction lock; SQLite: the database write lock, taken by the first statement),
 *   no file row and no live lease may name it, and the blob goes in that same transaction.
 *
 * A lease committed before the check is seen by it; one committed after it finds the blob gone,
 * and the upload stores the bytes anew. Leases of a crashed instance lapse after their TTL.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "./db";
import type { DialectName } from "./dialect";
import { heartbeatIntervalMs } from "./interrupted-ingest";

/** Deletes one blob's bytes inside the checking transaction. */
export type RemoveBlob = (trx: Db, sha256: string) => Promise<void>;

class LeaseEndedError extends Error {
  constructor() {
    super("the upload holding this blob lease has ended");
  }
}

/** One upload's hold on the blobs it stores; remembers which of them it created. */
export class BlobLease {
  private readonly ids: string[] = [];
  private readonly createdHashes = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
    private readonly removeUnused: (hashes: string[]) => Promise<string[]>,
  ) {}

  /** Takes a lease on `sha256`; the blob store calls this before it looks for the blob. */
  async hold(sha256: string): Promise<void> {
    // A part still being stored when its upload was cut off must not outlive it with a lease
    // renewed forever: its put fails instead, and removes its temp bytes.
    if (this.ended) throw new LeaseEndedError();
    const id = randomBytes(12).toString("base64url");
    await this.db
      .insertInto("blob_leases")
      .values({ id, sha256, expires_at: Date.now() + this.ttlMs })
      .execute();
    if (this.ended) {
      await this.db.deleteFrom("blob_leases").where("id", "=", id).execute();
      throw new LeaseEndedError();
    }
    this.ids.push(id);
    this.timer ??= setInterval(() => {
      this.renew().catch(() => {
        // A missed renewal is harmless unless the store stays away past the TTL.
      });
    }, heartbeatIntervalMs(this.ttlMs));
    this.timer.unref();
  }

  /** The store wrote the blob for this upload (it did not exist before). */
  created(sha256: string): void {
    this.createdHashes.add(sha256);
  }

  private async renew(): Promise<void> {
    if (this.ids.length === 0) return;
    await this.db
      .updateTable("blob_leases")
      .set({ expires_at: Date.now() + this.ttlMs })
      .where("id", "in", this.ids)
      .execute();
  }

  /** The upload's file rows are committed (or it holds nothing any more): lets the blobs go. */
  async release(): Promise<void> {
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const ids = this.ids.splice(0);
    if (ids.length > 0) await this.db.deleteFrom("blob_leases").where("id", "in", ids).execute();
  }

  /**
   * The upload was refused or failed: releases the leases, then deletes the blobs it created
   * unless another run or upload uses them meanwhile. Best effort: what stays is collected.
   */
  async abandon(): Promise<void> {
    await this.release().catch(() => {});
    const created = [...this.createdHashes];
    this.createdHashes.clear();
    await this.removeUnused(created).catch(() => []);
  }
}

/**
 * The locked check-and-delete: of `hashes`, removes each blob that no file row and no live lease
 * names, one transaction per hash; returns the removed ones. A hash whose check fails (the store
 * is busy or away) is kept and left to the collector.
 */
export async function removeUnusedBlobs(
  db: Db,
  dialect: DialectName,
  hashes: readonly string[],
  remove: RemoveBlob,
  now = Date.now(),
): Promise<string[]> {
  const removed: string[] = [];
  for (const sha256 of new Set(hashes)) {
    const gone = await db
      .transaction()
      .execute(async (trx) => {
        if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${sha256}))`.execute(trx);
        // On SQLite a write statement first takes the database write lock for the whole
        // transaction, so no lease or file row can be committed between the check and the delete.
        await trx
          .deleteFrom("blob_leases")
          .where("sha256", "=", sha256)
          .where("expires_at", "<=", now)
          .execute();
        const names = async (table: "files" | "blob_leases" | "run_column_files") =>
          !!(await trx
            .selectFrom(table)
            .select("sha256")
            .where("sha256", "=", sha256)
            .limit(1)
            .executeTakeFirst());
        if ((await names("files")) || (await names("run_column_files")) || (await names("blob_leases")))
          return false;
        await remove(trx, sha256);
        return true;
      })
      .catch(() => false);
    if (gone) removed.push(sha256);
  }
  return removed;
}

/**
 * Of `hashes`, those no file row and no run's columnar file references (candidates only: the
 * locked check decides).
 */
export async function unreferencedHashes(db: Db, hashes: readonly string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const used = new Set<string>();
  for (const table of ["files", "run_column_files"] as const)
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await db
        .selectFrom(table)
        .select("sha256")
        .where("sha256", "in", hashes.slice(i, i + 500))
        .execute();
      for (const r of rows) used.add(r.sha256);
    }
  return hashes.filter((h) => !used.has(h));
}

/** Drops leases that lapsed (their upload's instance died). */
export async function dropExpiredLeases(db: Db, now = Date.now()): Promise<void> {
  await db.deleteFrom("blob_leases").where("expires_at", "<=", now).execute();
}
