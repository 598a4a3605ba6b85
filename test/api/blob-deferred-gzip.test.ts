/**
 * The file store gzips text blobs after the ingest, not while it (lib/store/fs-blob-store.ts):
 * `put` stores `<sha>.raw`, a background job gzips it to `<sha>.gz` one blob at a time, readers
 * take either, a removal during the gzip brings nothing back, and a process killed while
 * gzipping (SIGKILL, in a child uploading a generated aiperf run) leaves the `.raw`, which the next
 * start-up gzips; one killed between the rename and the delete leaves both, and start-up drops
 * the `.raw`.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getFileRoute } from "@/app/api/runs/[id]/files/[fileId]/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { drilldownsSettled } from "@/lib/ingest/drilldown";
import { FsBlobStore } from "@/lib/store/fs-blob-store";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { CHILD_WAIT_MS, CRASH_TEST_MS, restartAfterCrash, spawnIngest } from "../helpers/crash-ingest";
import { fixture, idParams, uploadRun, useTestApp } from "../helpers/test-app";
import { waitUntil } from "../helpers/wait.mjs";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const text = (tag: string) => Buffer.from(`${tag}: a text blob, gzipped after its ingest\n`.repeat(2000));

/** Which of the blob's files exist, of `<sha>`, `<sha>.raw` and `<sha>.gz`. */
function forms(dir: string, hash: string): string[] {
  return ["", ".raw", ".gz"].filter((ext) => fs.existsSync(path.join(dir, hash.slice(0, 2), hash + ext)));
}

describe("text blobs gzipped after the ingest (file store)", () => {
  let cleanup: (() => Promise<void>) | undefined;
  let app: Awaited<ReturnType<typeof useTestApp>>["app"];
  let dataDir: string;
  beforeAll(async () => {
    ({ app, dataDir, cleanup } = await useTestApp());
  });
  afterAll(async () => {
    await cleanup?.();
  });

  it("stores `.raw`, gzips it to `.gz` in the background, and reads both byte-identical", async () => {
    const dir = path.join(dataDir, "blobs-a");
    const store = new FsBlobStore(dir, app.store.db);
    await store.recovered;
    const bytes = text("a");
    const put = await store.put(Readable.from([bytes]));
    expect(put).toMatchObject({
      sha256: sha(bytes),
      bytes: bytes.length,
      storedBytes: bytes.length,
      created: true,
    });
    expect(forms(dir, put.sha256)).toEqual([".raw"]);
    expect((await buffer(await store.open(put.sha256))).equals(bytes)).toBe(true);
    expect(gunzipSync(await buffer(await store.openCompressed(put.sha256))).equals(bytes)).toBe(true);
    // A reader that opened the `.raw` before the gzip still reads it whole after its delete.
    const early = await store.open(put.sha256);

    await store.compressPending();
    expect(forms(dir, put.sha256)).toEqual([".gz"]);
    const gz = fs.readFileSync(path.join(dir, put.sha256.slice(0, 2), `${put.sha256}.gz`));
    expect(gz.length).toBeLessThan(bytes.length / 10);
    expect(gunzipSync(gz).equals(bytes)).toBe(true);
    expect((await buffer(early)).equals(bytes)).toBe(true);
    expect((await buffer(await store.open(put.sha256))).equals(bytes)).toBe(true);
    expect(await store.has(put.sha256)).toBe(true);
    expect((await store.put(Readable.from([bytes]))).created).toBe(false);
    expect(fs.readdirSync(path.join(dir, "tmp"))).toEqual([]);
  });

  it("a blob removed while it is gzipped stays removed", async () => {
    const dir = path.join(dataDir, "blobs-b");
    const store = new FsBlobStore(dir, app.store.db);
    await store.recovered;
    const put = await store.put(Readable.from([text("b")]));
    const gzipping = store.compressPending();
    expect(await store.removeUnused([put.sha256])).toEqual([put.sha256]);
    await gzipping;
    expect(forms(dir, put.sha256)).toEqual([]);
    expect(await store.has(put.sha256)).toBe(false);
    expect(fs.readdirSync(path.join(dir, "tmp"))).toEqual([]);
  });

  it("start-up drops a `.raw` whose `.gz` is there and gzips the other leftovers", async () => {
    const dir = path.join(dataDir, "blobs-c");
    const both = text("both");
    const rawOnly = text("raw only");
    for (const [bytes, exts] of [
      [both, [".raw", ".gz"]],
      [rawOnly, [".raw"]],
    ] as const) {
      const h = sha(bytes);
      fs.mkdirSync(path.join(dir, h.slice(0, 2)), { recursive: true });
      for (const ext of exts)
        fs.writeFileSync(path.join(dir, h.slice(0, 2), h + ext), ext === ".gz" ? gzipSync(bytes) : bytes);
    }
    const store = new FsBlobStore(dir, app.store.db);
    await store.recovered;
    await store.compressPending();
    for (const bytes of [both, rawOnly]) {
      expect(forms(dir, sha(bytes))).toEqual([".gz"]);
      expect((await buffer(await store.open(sha(bytes)))).equals(bytes)).toBe(true);
    }
  });

  it("an uploaded run's text files are gzipped once its ingest is over", async () => {
    const file = fixture("aiperf-real-c4/profile_export.jsonl");
    const records = fs.readFileSync(file);
    const id = await uploadRun([{ name: "profile_export.jsonl", path: file }]);
    await drilldownsSettled();
    await app.blobs.compressPending?.();
    expect(forms(path.join(dataDir, "blobs"), sha(records))).toEqual([".gz"]);
    const run = await (await getRun(new Request("http://x"), idParams(id))).json();
    for (const f of run.files as Array<{ id: string; sha256: string }>) {
      const res = await getFileRoute(new Request("http://x"), {
        params: Promise.resolve({ id, fileId: f.id }),
      });
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(f.sha256);
    }
  });
});

describe("a kill while a blob is gzipped", () => {
  let dir: string;
  let input: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-crash-gzip-"));
    // 100k records, ~63 MB: the gzip takes long enough to be caught under way.
    input = (await generateAiperfRun(path.join(dir, "gen"), { records: 100_000, csv: false })).jsonlPath;
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(
    "leaves the `.raw`, read as it is; the next start-up gzips it and the run reads the same",
    async () => {
      const dataDir = path.join(dir, "data");
      const hash = sha(fs.readFileSync(input));
      const blobs = path.join(dataDir, "blobs");
      const tmp = path.join(blobs, "tmp");
      const ingest = spawnIngest(input, { DATA_DIR: dataDir, DATABASE_URL: "" });
      // The gzip's temp file has bytes and the `.raw` is still there: the job is under way.
      await ingest.until(
        waitUntil(
          `the gzip of ${hash.slice(0, 12)} under way in ${tmp}`,
          () =>
            fs.existsSync(path.join(blobs, hash.slice(0, 2), `${hash}.raw`)) &&
            fs.existsSync(tmp) &&
            fs.readdirSync(tmp).find((n) => n.endsWith(".gz") && fs.statSync(path.join(tmp, n)).size > 0),
          { timeoutMs: CHILD_WAIT_MS, intervalMs: 5 },
        ),
      );
      expect(await ingest.kill()).toBe("SIGKILL");
      expect(ingest.output()).toContain("finished 201");
      expect(forms(blobs, hash)).toEqual([".raw"]);
      expect(fs.readdirSync(tmp).some((n) => n.endsWith(".gz"))).toBe(true);

      const { app, cleanup } = await restartAfterCrash({ DATA_DIR: dataDir });
      try {
        const store = app.blobs as FsBlobStore;
        await store.recovered;
        await store.compressPending();
        expect(forms(blobs, hash)).toEqual([".gz"]);
        const run = await app.store.db.selectFrom("runs").select(["id", "status"]).executeTakeFirstOrThrow();
        expect(run.status).toBe("ready");
        const file = await app.store.db
          .selectFrom("files")
          .select(["id", "sha256"])
          .where("run_id", "=", run.id)
          .executeTakeFirstOrThrow();
        expect(file.sha256).toBe(hash);
        const res = await getFileRoute(new Request("http://x"), {
          params: Promise.resolve({ id: run.id, fileId: file.id }),
        });
        expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(hash);
        // The killed gzip's temp file goes with the old temp files.
        await store.sweepTmp(0);
        expect(fs.readdirSync(tmp)).toEqual([]);
      } finally {
        await cleanup();
      }
    },
    CRASH_TEST_MS,
  );
});
