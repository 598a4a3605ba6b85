/**
 * 16 uploads at once while readers poll: every upload lands exactly once, every read succeeds.
 * The same bytes uploaded twice make two runs sharing one stored blob. A locked SQLite store
 * answers 503 and recovers when the lock goes.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRun, GET as getRun, PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { uploadNo } from "../helpers/concurrent-uploads";
import { appForTest, idParams } from "../helpers/test-app";

/** The stored blobs by hash (a blob being gzipped has its `.raw` and its `.gz` for a moment). */
function blobFiles(dataDir: string): string[] {
  const names = fs
    .readdirSync(path.join(dataDir, "blobs"), { recursive: true })
    .map(String)
    // Any form (lib/store/fs-blob-store.ts): `<sha>.gz`, `<sha>.raw` until gzipped, `<sha>` as it came.
    .filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}(\.gz|\.raw)?$/.test(f))
    .map((f) => f.slice(0, 67));
  return [...new Set(names)];
}

/**
 * The stored blobs less the columnar request files runs name (an aiperf run's Parquet file is a
 * blob too): the raw files. A columnar file no run names any more is counted, so a leak shows.
 */
async function rawBlobFiles(t: Awaited<ReturnType<typeof appForTest>>): Promise<string[]> {
  const named = await t.app.store.db.selectFrom("run_column_files").select("sha256").execute();
  const columnar = new Set(named.map((r) => r.sha256));
  return blobFiles(t.dataDir).filter((f) => !columnar.has(path.basename(f)));
}

export async function parallelUploadsWithReaders(n: number): Promise<{ ids: string[]; reads: number[] }> {
  let uploading = true;
  const reads: number[] = [];
  const seen = new Set<string>();
  const readers = Array.from({ length: 3 }, async (_, r) => {
    while (uploading) {
      if (r === 0) reads.push((await health(new Request("http://localhost/api/health"))).status);
      if (r === 1) {
        const res = await listRuns(new Request("http://localhost/api/runs?limit=100"));
        reads.push(res.status);
        if (res.ok) for (const run of (await res.json()).runs) seen.add(run.id);
      }
      if (r === 2)
        for (const id of [...seen].slice(0, 4))
          reads.push((await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).status);
      await new Promise((res) => setTimeout(res, 5));
    }
  });
  const responses = await Promise.all(Array.from({ length: n }, (_, i) => upload(uploadNo(i))));
  uploading = false;
  await Promise.all(readers);
  const bodies = await Promise.all(responses.map(async (r) => ({ status: r.status, body: await r.json() })));
  for (const b of bodies) expect(b.status, JSON.stringify(b.body)).toBe(201);
  return { ids: bodies.map((b) => b.body.id as string), reads };
}

describe("concurrent uploads (SQLite)", () => {
  it("16 parallel uploads plus continuous reads: each lands once, every read succeeds", async () => {
    const t = await appForTest();
    const { ids, reads } = await parallelUploadsWithReaders(16);
    expect(new Set(ids).size).toBe(16);
    // The health and list readers ran while the uploads were in flight.
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.filter((s) => s !== 200)).toEqual([]);

    const list = await (await listRuns(new Request("http://localhost/api/runs?limit=100"))).json();
    expect(list.runs.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
    for (const [i, id] of ids.entries()) {
      const run = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
      expect(run.status).toBe("ready");
      expect(run.name).toBe(`run-${i}`);
      expect(run.files[0].records).toBe(i % 2 === 0 ? 200 + i : 4);
    }
    expect(await rawBlobFiles(t)).toHaveLength(16);
  });

  it("the same file uploaded twice makes two runs sharing one blob, kept until both are gone", async () => {
    const t = await appForTest();
    const [a, b] = await Promise.all([upload(uploadNo(3)), upload(uploadNo(3))]);
    const ra = await a.json();
    const rb = await b.json();
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(ra.id).not.toBe(rb.id);
    const runA = await (await getRun(new Request("http://x"), idParams(ra.id))).json();
    const runB = await (await getRun(new Request("http://x"), idParams(rb.id))).json();
    expect(runA.files[0].sha256).toBe(runB.files[0].sha256);
    expect(await rawBlobFiles(t)).toHaveLength(1);

    await deleteRun(new Request("http://x", { method: "DELETE" }), idParams(ra.id));
    expect(await rawBlobFiles(t)).toHaveLength(1);
    expect((await getRun(new Request("http://x"), idParams(rb.id))).status).toBe(200);
    await deleteRun(new Request("http://x", { method: "DELETE" }), idParams(rb.id));
    expect(blobFiles(t.dataDir)).toHaveLength(0);
  });
});

describe("store unavailable (SQLite locked)", () => {
  it("a write while another process holds the write lock is a 503; it succeeds once the lock is released", async () => {
    // Shorten the wait so the test does not sit out the default 30 s.
    const t = await appForTest({ RUNLENS_SQLITE_BUSY_WAIT_MS: "300" });
    const created = await (await upload(uploadNo(1))).json();
    const other = new Database(path.join(t.dataDir, "runlens.sqlite"));
    other.exec("begin exclusive");
    const rename = () =>
      patchRun(
        new Request(`http://localhost/api/runs/${created.id}`, {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "renamed" }),
        }),
        idParams(created.id),
      );
    try {
      const locked = await rename();
      expect(locked.status).toBe(503);
      const body = await locked.json();
      expect(body.error.code).toBe("store_unavailable");
      const blobsBefore = blobFiles(t.dataDir).length;
      const up = await upload(uploadNo(5));
      expect(up.status).toBe(503);
      // The refused upload leaves no blob behind.
      expect(blobFiles(t.dataDir)).toHaveLength(blobsBefore);
    } finally {
      other.exec("rollback");
      other.close();
    }
    const ok = await rename();
    expect(ok.status).toBe(200);
    expect((await ok.json()).name).toBe("renamed");
    expect((await upload(uploadNo(5))).status).toBe(201);
  });
});
