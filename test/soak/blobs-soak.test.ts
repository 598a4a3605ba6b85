/**
 * Soak: parallel uploads of overlapping files, deletes, re-ingests and refused uploads on two
 * app instances sharing one PostgreSQL schema, for a bounded time. Ends by checking that every
 * `ready` run's every file reads back with its recorded sha256 and that, after garbage
 * collection, no blob, temp chunk or lease is left that nothing references.
 * Run with `npm run soak` (needs RUNLENS_TEST_DATABASE_URL).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createRunFromUpload } from "@/lib/ingest/create-run";
import { ingestRun } from "@/lib/ingest/ingest-run";
import { LiveIngest } from "@/lib/ingest/live-ingest";
import { receiveUpload } from "@/lib/ingest/upload";
import { deleteRunAndBlobs } from "@/lib/runs/delete-run";
import { createAppContext, type AppContext } from "@/lib/server/app-context";
import { claimForIngest } from "@/lib/store/interrupted-ingest";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { openTestApp, uploadRequest } from "../helpers/test-app";

const SOAK_MS = Number(process.env.RUNLENS_SOAK_MS ?? 60_000);
const WORKERS = 8;
const VALID = fs.readFileSync(path.resolve(__dirname, "../fixtures/bad/files/valid-aiperf.jsonl"));
/** Six distinct files; every upload takes an overlapping subset of them. */
const POOL = Array.from({ length: 6 }, (_, i) => Buffer.concat([VALID, Buffer.from("\n".repeat(i + 1))]));
const BROKEN = gzipSync(Buffer.concat([VALID, VALID])).subarray(0, 80);

function pick<T>(items: readonly T[]): T | undefined {
  return items[Math.floor(Math.random() * items.length)];
}

function someFiles(): Array<{ name: string; content: Buffer }> {
  const chosen = POOL.map((content, i) => ({ name: `f${i}.jsonl`, content })).filter(
    () => Math.random() < 0.4,
  );
  return chosen.length > 0 ? chosen : [{ name: "f0.jsonl", content: POOL[0] }];
}

describe.skipIf(!PG_URL)("blob soak on two instances sharing PostgreSQL", () => {
  it("keeps every ready run's files and leaves no unreferenced blob", async () => {
    const s = await freshSchema();
    const first = await openTestApp({ DATABASE_URL: s.url });
    const second = await createAppContext({ ...first.app.config });
    const apps = [first.app, second];
    /** Runs no operation is working on; an operation takes its run out while it runs. */
    const idle = new Set<string>();
    const counts = { uploads: 0, refused: 0, deletes: 0, reingests: 0 };

    async function uploadTo(app: AppContext, files: Array<{ name: string; content: Buffer }>): Promise<void> {
      const live = new LiveIngest(app);
      let upload;
      try {
        upload = await receiveUpload(uploadRequest(files), app.blobs, app.config, live);
      } catch {
        await live.abandon();
        counts.refused++;
        return;
      }
      const created = await createRunFromUpload(app, upload, live);
      counts.uploads++;
      idle.add(created.id);
    }

    async function step(app: AppContext): Promise<void> {
      const roll = Math.random();
      if (roll < 0.4) return uploadTo(app, someFiles());
      if (roll < 0.55) return uploadTo(app, [...someFiles(), { name: "broken.jsonl.gz", content: BROKEN }]);
      const id = pick([...idle]);
      if (!id) return uploadTo(app, someFiles());
      idle.delete(id);
      if (roll < 0.8) {
        await deleteRunAndBlobs(app, id);
        counts.deletes++;
        return;
      }
      if (await claimForIngest(app.store.db, id)) {
        await ingestRun(app, id);
        counts.reingests++;
      }
      idle.add(id);
    }

    const started = Date.now();
    try {
      await Promise.all(
        Array.from({ length: WORKERS }, async (_, w) => {
          while (Date.now() - started < SOAK_MS) await step(apps[w % 2]);
        }),
      );
      const db = first.app.store.db;
      for (const app of apps) await app.blobs.collect({ graceMs: 0, now: Date.now() + 1 });

      const ready = await db.selectFrom("runs").select("id").where("status", "=", "ready").execute();
      expect(ready.length).toBe(idle.size);
      for (const { id } of ready) {
        const files = await db
          .selectFrom("files")
          .select(["sha256", "bytes"])
          .where("run_id", "=", id)
          .execute();
        expect(files.length).toBeGreaterThan(0);
        for (const f of files) {
          const hash = createHash("sha256");
          let bytes = 0;
          for await (const chunk of await apps[bytesParity(f.sha256)].blobs.open(f.sha256)) {
            hash.update(chunk as Buffer);
            bytes += (chunk as Buffer).length;
          }
          expect(hash.digest("hex")).toBe(f.sha256);
          expect(bytes).toBe(f.bytes);
        }
      }
      const unreferenced = await db
        .selectFrom("blob_chunks")
        .select("blob_key")
        .where("seq", "=", 0)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("files").select("id").whereRef("files.sha256", "=", "blob_chunks.blob_key"))),
        )
        .execute();
      expect(unreferenced).toEqual([]);
      expect(await db.selectFrom("blob_leases").select("id").execute()).toEqual([]);
      console.log(`[soak] ${JSON.stringify(counts)}, ${ready.length} ready runs, ${Date.now() - started} ms`);
      expect(counts.uploads).toBeGreaterThan(0);
      expect(counts.refused).toBeGreaterThan(0);
      expect(counts.deletes).toBeGreaterThan(0);
      expect(counts.reingests).toBeGreaterThan(0);
    } finally {
      second.stop();
      await second.store.close();
      await first.cleanup();
      await s.drop();
    }
  }, 150_000);
});

/** Reads alternate between the instances, by hash. */
function bytesParity(sha256: string): number {
  return parseInt(sha256[0], 16) % 2;
}
