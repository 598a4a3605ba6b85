/**
 * Shared blobs under concurrent uploads and deletes, on SQLite and on PostgreSQL. The races are
 * pinned with a hook on the blob store's `put` and an upload body held at a gate, so each
 * interleaving happens the same way every time.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRunRoute, GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getFileRoute } from "@/app/api/runs/[id]/files/[fileId]/route";
import { LiveIngest } from "@/lib/ingest/live-ingest";
import { receiveUpload } from "@/lib/ingest/upload";
import { deleteRunAndBlobs } from "@/lib/runs/delete-run";
import { createAppContext, type AppContext } from "@/lib/server/app-context";
import type { PutResult } from "@/lib/store/blob-store";
import { gatedUpload } from "../helpers/gated-upload";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { openTestApp, uploadRequest } from "../helpers/test-app";

const VALID = fs.readFileSync(path.resolve(__dirname, "../fixtures/bad/files/valid-aiperf.jsonl"));

/** Distinct valid aiperf bytes per tag (trailing blank lines are skipped by the reader). */
function aiperf(tag: number): Buffer {
  return Buffer.concat([VALID, Buffer.from("\n".repeat(tag))]);
}

/** Resolves once `put` has stored `count` files (whatever the upload), and reports what they were. */
function onStored(app: AppContext, count = 1): Promise<PutResult[]> {
  const seen: PutResult[] = [];
  const put = app.blobs.put.bind(app.blobs);
  return new Promise((resolve) => {
    vi.spyOn(app.blobs, "put").mockImplementation(async (...args) => {
      const result = await put(...args);
      seen.push(result);
      if (seen.length === count) resolve(seen);
      return result;
    });
  });
}

/** Starts an upload held at its gate; `stored` resolves once its first file is in the blob store. */
function gatedPost(app: AppContext, parts: Parameters<typeof gatedUpload>[0]) {
  const stored = onStored(app);
  const gated = gatedUpload(parts);
  return { stored, pending: upload(gated.request), open: gated.open };
}

async function uploadOk(req: Request): Promise<{ id: string; status: string; files: Array<{ id: string }> }> {
  const res = await upload(req);
  expect(res.status).toBe(201);
  return res.json();
}

/** Every file of the run downloads, with the sha256 its catalog row records. */
async function expectDownloads(runId: string): Promise<void> {
  const run = await (
    await getRun(new Request("http://x"), { params: Promise.resolve({ id: runId }) })
  ).json();
  expect(run.status).toBe("ready");
  for (const f of run.files as Array<{ id: string; sha256: string }>) {
    const res = await getFileRoute(new Request("http://x"), {
      params: Promise.resolve({ id: runId, fileId: f.id }),
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(f.sha256);
  }
}

const del = (id: string) =>
  deleteRunRoute(new Request(`http://localhost/api/runs/${id}`, { method: "DELETE" }), {
    params: Promise.resolve({ id }),
  });

const stores: Array<[string, boolean]> = [
  ["SQLite", true],
  ["PostgreSQL", !!PG_URL],
];

describe.each(stores)("shared blobs and their collector (%s)", (store, enabled) => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let drop: (() => Promise<void>) | undefined;
  let dataDir: string;

  beforeEach(async () => {
    if (!enabled) return;
    let env = {};
    if (store === "PostgreSQL") {
      const s = await freshSchema();
      drop = s.drop;
      env = { DATABASE_URL: s.url };
    }
    ({ app, cleanup, dataDir } = await openTestApp(env));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await cleanup?.();
    await drop?.();
    drop = undefined;
  });

  it.skipIf(!enabled)("a delete while an upload of the same bytes is arriving keeps the blob", async () => {
    const shared = aiperf(1);
    const first = await uploadOk(uploadRequest([{ name: "a.jsonl", content: shared }]));
    const second = aiperf(2);
    const { stored, pending, open } = gatedPost(app, [
      { name: "a.jsonl", head: shared },
      { name: "b.jsonl", head: second.subarray(0, 100), tail: second.subarray(100) },
    ]);
    // The shared file is stored (and found already present); the upload has no file rows yet.
    const [put] = await stored;
    expect(put.created).toBe(false);
    expect((await del(first.id)).status).toBe(204);
    open();
    const res = await pending;
    expect(res.status).toBe(201);
    await expectDownloads((await res.json()).id);
  });

  it.skipIf(!enabled)(
    "a refused upload's cleanup keeps a blob another upload committed meanwhile",
    async () => {
      const shared = aiperf(3);
      const broken = gzipSync(aiperf(4)).subarray(0, 60);
      const {
        stored,
        pending: refused,
        open,
      } = gatedPost(app, [
        { name: "b.jsonl", head: shared },
        { name: "broken.jsonl.gz", head: broken.subarray(0, 20), tail: broken.subarray(20) },
      ]);
      const [put] = await stored;
      expect(put.created).toBe(true);
      vi.restoreAllMocks();
      const other = await uploadOk(uploadRequest([{ name: "b.jsonl", content: shared }]));
      open();
      const res = await refused;
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      await expectDownloads(other.id);
    },
  );

  it.skipIf(!enabled)("an abandoned live ingest removes the blob it created, and only that", async () => {
    const kept = await uploadOk(uploadRequest([{ name: "k.jsonl", content: aiperf(5) }]));
    const live = new LiveIngest(app);
    const received = await receiveUpload(
      uploadRequest([
        { name: "k.jsonl", content: aiperf(5) },
        { name: "n.jsonl", content: aiperf(6) },
      ]),
      app.blobs,
      app.config,
      live,
    );
    expect(live.runId).not.toBeNull();
    await live.abandon();
    const [reused, fresh] = received.files;
    expect(await app.blobs.has(fresh.sha256)).toBe(false);
    expect(await app.blobs.has(reused.sha256)).toBe(true);
    await expectDownloads(kept.id);
  });

  /** A temp leftover of a crashed upload, last written `ageMs` ago. */
  async function leftover(name: string, ageMs: number): Promise<() => Promise<boolean>> {
    const at = Date.now() - ageMs;
    if (store === "PostgreSQL") {
      const key = `tmp-${name}`;
      await app.store.db
        .insertInto("blob_chunks")
        .values({ blob_key: key, seq: 0, data: Buffer.from("partial"), written_at: at })
        .execute();
      return async () =>
        !!(await app.store.db
          .selectFrom("blob_chunks")
          .select("seq")
          .where("blob_key", "=", key)
          .executeTakeFirst());
    }
    const file = path.join(dataDir, "blobs", "tmp", `${name}.gz`);
    fs.writeFileSync(file, "partial");
    fs.utimesSync(file, new Date(at), new Date(at));
    return async () => fs.existsSync(file);
  }

  it.skipIf(!enabled)(
    "removes old unreferenced blobs and leftovers, keeps referenced, leased and young ones",
    async () => {
      const hour = 3600_000;
      const referenced = await uploadOk(uploadRequest([{ name: "r.jsonl", content: aiperf(7) }]));
      const orphan = await app.blobs.put(Readable.from([aiperf(8)]));
      const lease = app.blobs.lease(10 * hour);
      const leased = await app.blobs.put(Readable.from([aiperf(9)]), { lease });
      const lapsed = app.blobs.lease(1);
      const lapsedBlob = await app.blobs.put(Readable.from([aiperf(10)]), { lease: lapsed });
      const oldTmp = await leftover("old", 2 * hour);
      const freshTmp = await leftover("fresh", 0);

      // Within the grace period nothing goes, not even the orphan.
      expect(await app.blobs.collect({ graceMs: hour })).toEqual({ blobs: 0, tmp: 1 });
      expect(await oldTmp()).toBe(false);
      expect(await freshTmp()).toBe(true);
      expect(await app.blobs.has(orphan.sha256)).toBe(true);

      // Past it: the orphan and the blob whose lease lapsed go; referenced and leased ones stay.
      const later = Date.now() + 2 * hour;
      const collected = await app.blobs.collect({ graceMs: hour, now: later });
      expect(collected.blobs).toBe(2);
      expect(await app.blobs.has(orphan.sha256)).toBe(false);
      expect(await app.blobs.has(lapsedBlob.sha256)).toBe(false);
      expect(await app.blobs.has(leased.sha256)).toBe(true);
      await expectDownloads(referenced.id);

      // Released, the leased blob is an orphan like any other.
      await lease.release();
      expect((await app.blobs.collect({ graceMs: hour, now: later })).blobs).toBe(1);
      expect(await app.blobs.has(leased.sha256)).toBe(false);
      await expectDownloads(referenced.id);
    },
  );
});

describe.skipIf(!PG_URL)("two instances sharing PostgreSQL", () => {
  it("concurrent deletes of runs sharing a blob leave no unreferenced blob and keep referenced ones", async () => {
    const s = await freshSchema();
    const a = await openTestApp({ DATABASE_URL: s.url });
    const b = await createAppContext({ ...a.app.config });
    try {
      for (let trial = 0; trial < 6; trial++) {
        const gone = aiperf(20 + trial);
        const kept = aiperf(40 + trial);
        const r1 = await uploadOk(uploadRequest([{ name: "x.jsonl", content: gone }]));
        const r2 = await uploadOk(uploadRequest([{ name: "x.jsonl", content: gone }]));
        const r3 = await uploadOk(uploadRequest([{ name: "y.jsonl", content: kept }]));
        const r4 = await uploadOk(uploadRequest([{ name: "y.jsonl", content: kept }]));
        await Promise.all([
          deleteRunAndBlobs(a.app, r1.id),
          deleteRunAndBlobs(b, r2.id),
          deleteRunAndBlobs(b, r3.id),
        ]);
        const orphans = await a.app.store.db
          .selectFrom("blob_chunks")
          .select("blob_key")
          .where("seq", "=", 0)
          // Referenced by a raw file's row, or by a run's columnar request file (a blob too).
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(selectFrom("files").select("id").whereRef("files.sha256", "=", "blob_chunks.blob_key")),
            ),
          )
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("run_column_files")
                  .select("run_id")
                  .whereRef("run_column_files.sha256", "=", "blob_chunks.blob_key"),
              ),
            ),
          )
          .execute();
        expect(orphans).toEqual([]);
        await expectDownloads(r4.id);
      }
    } finally {
      b.stop();
      await b.store.close();
      await a.cleanup();
      await s.drop();
    }
  });
});
