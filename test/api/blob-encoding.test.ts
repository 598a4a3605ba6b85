/**
 * Blobs that are compressed already are kept as they are (lib/store/blob-encoding.ts), on both
 * stores: a run's zstd Parquet file (written by DuckDB) and a gzip file go in without gzip and
 * read back byte-identical, text is gzipped as before, and blobs stored by an earlier version
 * (every one gzipped: `<sha>.gz` files, PostgreSQL chunks without an encoding) still read, are
 * reused by a new upload of the same bytes, and are collected when nothing names them.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getFileRoute } from "@/app/api/runs/[id]/files/[fileId]/route";
import { encodingFor } from "@/lib/store/blob-encoding";
import type { AppContext } from "@/lib/server/app-context";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { fixture, idParams, uploadRun, useTestApp } from "../helpers/test-app";

/** The real aiperf 0.6.0 run (200 records): its records become the run's Parquet file. */
const DIR = fixture("aiperf-real-c4");
const HOUR = 3600_000;
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

const stores: Array<[string, string | undefined]> = [["SQLite", undefined]];
if (PG_URL) stores.push(["PostgreSQL", PG_URL]);

describe.each(stores)("blobs compressed already are kept as they are (%s)", (store, pgUrl) => {
  let app: AppContext;
  let dataDir: string;
  let cleanup: (() => Promise<void>) | undefined;
  let drop: (() => Promise<void>) | undefined;
  const pg = store === "PostgreSQL";

  beforeEach(async () => {
    const schema = pgUrl ? await freshSchema(pgUrl) : undefined;
    drop = schema?.drop;
    ({ app, dataDir, cleanup } = await useTestApp({ DATABASE_URL: schema?.url }));
  });
  afterEach(async () => {
    await cleanup?.();
    await drop?.();
    cleanup = drop = undefined;
  });

  const blobFile = (hash: string, ext: "" | ".gz" | ".raw") =>
    path.join(dataDir, "blobs", hash.slice(0, 2), hash + ext);

  /**
   * How the blob is stored: `identity` (the file store's `.raw` too, the original bytes waiting for
   * the background gzip), `gzip`, or null when absent; with its stored bytes.
   */
  async function stored(hash: string): Promise<{ encoding: "identity" | "gzip"; bytes: Buffer } | null> {
    if (pg) {
      const rows = await app.store.db
        .selectFrom("blob_chunks")
        .select(["seq", "data", "encoding"])
        .where("blob_key", "=", hash)
        .orderBy("seq")
        .execute();
      if (rows.length === 0) return null;
      return {
        encoding: rows[0].encoding === "identity" ? "identity" : "gzip",
        bytes: Buffer.concat(rows.map((r) => Buffer.from(r.data))),
      };
    }
    const there = (["", ".raw", ".gz"] as const).filter((ext) => fs.existsSync(blobFile(hash, ext)));
    expect(there.length, "one form at most").toBeLessThanOrEqual(1);
    if (there.length === 0) return null;
    return {
      encoding: there[0] === ".gz" ? "gzip" : "identity",
      bytes: fs.readFileSync(blobFile(hash, there[0])),
    };
  }

  /** Stores `original` as an earlier version did: gzipped, chunks without an encoding. */
  async function storeOldForm(original: Buffer, at = Date.now()): Promise<string> {
    const hash = sha(original);
    const data = gzipSync(original, { level: 1 });
    if (pg) {
      await app.store.db.deleteFrom("blob_chunks").where("blob_key", "=", hash).execute();
      await app.store.db
        .insertInto("blob_chunks")
        .values({ blob_key: hash, seq: 0, data, written_at: at, encoding: null })
        .execute();
    } else {
      fs.rmSync(blobFile(hash, ""), { force: true });
      fs.rmSync(blobFile(hash, ".raw"), { force: true });
      fs.mkdirSync(path.dirname(blobFile(hash, ".gz")), { recursive: true });
      fs.writeFileSync(blobFile(hash, ".gz"), data);
      fs.utimesSync(blobFile(hash, ".gz"), new Date(at), new Date(at));
    }
    return hash;
  }

  async function uploadAiperf(): Promise<{ id: string; parquet: string }> {
    const id = await uploadRun(
      ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
        name,
        path: path.join(DIR, name),
      })),
    );
    const file = await app.store.db
      .selectFrom("run_column_files")
      .select("sha256")
      .where("run_id", "=", id)
      .where("name", "=", "aiperf-requests")
      .executeTakeFirstOrThrow();
    return { id, parquet: file.sha256 };
  }

  const askRequests = async (id: string) =>
    (
      await listRequests(
        new Request(`http://localhost/api/runs/${id}/aiperf/requests?sort=ttft&order=asc&limit=5`),
        idParams(id),
      )
    ).json();

  /** Every raw file of the run downloads with the sha256 its row records. */
  async function expectDownloads(id: string): Promise<void> {
    const run = await (await getRun(new Request("http://x"), idParams(id))).json();
    for (const f of run.files as Array<{ id: string; sha256: string }>) {
      const res = await getFileRoute(new Request("http://x"), {
        params: Promise.resolve({ id, fileId: f.id }),
      });
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(f.sha256);
    }
  }

  /** Removes the local cache's Parquet files: the next read fetches them from the blob store. */
  function clearCache(): void {
    const cache = path.join(dataDir, "columnar-cache");
    for (const f of fs.readdirSync(cache)) if (f.endsWith(".parquet")) fs.rmSync(path.join(cache, f));
  }

  it("keeps a run's Parquet file as it is, gzips its text files, and reads both back", async () => {
    const { id, parquet } = await uploadAiperf();
    const kept = (await stored(parquet))!;
    expect(kept.encoding).toBe("identity");
    expect(kept.bytes.subarray(0, 4).toString()).toBe("PAR1");
    expect(sha(kept.bytes)).toBe(parquet);
    // Through the store: the same bytes, and gzip of them for a compressed download.
    const read = await buffer(await app.blobs.open(parquet));
    expect(read.equals(kept.bytes)).toBe(true);
    expect(gunzipSync(await buffer(await app.blobs.openCompressed(parquet))).equals(kept.bytes)).toBe(true);
    expect(await app.blobs.has(parquet)).toBe(true);

    const records = fs.readFileSync(path.join(DIR, "profile_export.jsonl"));
    // The file store gzips text after the ingest, in the background (blob-deferred-gzip.test.ts).
    await app.blobs.compressPending?.();
    const text = (await stored(sha(records)))!;
    expect(text.encoding).toBe("gzip");
    expect(gunzipSync(text.bytes).equals(records)).toBe(true);
    await expectDownloads(id);

    // Read through DuckDB once the cache is gone: fetched from the blob as it is.
    const before = await askRequests(id);
    expect(before.rows.length).toBe(5);
    clearCache();
    expect(await askRequests(id)).toEqual(before);
  });

  it("stores a gzip file as it is, byte-identical, and reuses an equal blob of either form", async () => {
    const gz = gzipSync(Buffer.from("a gzip file uploaded as it is\n".repeat(100)));
    expect(encodingFor(gz)).toBe("identity");
    const put = await app.blobs.put(Readable.from([gz]));
    expect(put).toMatchObject({ sha256: sha(gz), bytes: gz.length, storedBytes: gz.length, created: true });
    expect((await stored(put.sha256))!.bytes.equals(gz)).toBe(true);
    expect((await buffer(await app.blobs.open(put.sha256))).equals(gz)).toBe(true);
    expect((await app.blobs.put(Readable.from([gz]))).created).toBe(false);

    // Parquet bytes an earlier version stored gzipped: a new upload of them reuses that blob.
    const parquetLike = Buffer.concat([Buffer.from("PAR1"), randomBytes(4096), Buffer.from("PAR1")]);
    const old = await storeOldForm(parquetLike);
    const again = await app.blobs.put(Readable.from([parquetLike]));
    expect(again).toMatchObject({ sha256: old, created: false });
    expect((await stored(old))!.encoding).toBe("gzip");
    expect((await buffer(await app.blobs.open(old))).equals(parquetLike)).toBe(true);
  });

  it("reads a run whose Parquet file an earlier version stored gzipped", async () => {
    const { id, parquet } = await uploadAiperf();
    const before = await askRequests(id);
    const bytes = (await stored(parquet))!.bytes;
    await storeOldForm(bytes);
    if (pg)
      // The raw files' chunks as an earlier version wrote them: no encoding.
      await app.store.db.updateTable("blob_chunks").set({ encoding: null }).execute();
    expect((await stored(parquet))!.encoding).toBe("gzip");
    clearCache();
    expect(await askRequests(id)).toEqual(before);
    expect(fs.readFileSync(path.join(dataDir, "columnar-cache", `${parquet}.parquet`)).equals(bytes)).toBe(
      true,
    );
    await expectDownloads(id);
  });

  it("collects and removes unreferenced blobs of both forms, keeps the run's", async () => {
    const { id, parquet } = await uploadAiperf();
    const before = await askRequests(id);
    // The run's Parquet file in the old form: still named by the run, so kept.
    await storeOldForm((await stored(parquet))!.bytes, Date.now() - 2 * HOUR);
    const oldOrphan = await storeOldForm(Buffer.from("an old orphan\n"), Date.now() - 2 * HOUR);
    const newOrphan = (
      await app.blobs.put(Readable.from([Buffer.concat([Buffer.from("PAR1"), randomBytes(512)])]))
    ).sha256;
    expect((await stored(newOrphan))!.encoding).toBe("identity");

    // Within the grace period only the old one goes.
    expect((await app.blobs.collect({ graceMs: HOUR })).blobs).toBe(1);
    expect(await stored(oldOrphan)).toBeNull();
    expect(await app.blobs.has(newOrphan)).toBe(true);
    // Past it, the new one too; the run's blobs stay.
    expect((await app.blobs.collect({ graceMs: HOUR, now: Date.now() + 2 * HOUR })).blobs).toBe(1);
    expect(await stored(newOrphan)).toBeNull();
    expect(await app.blobs.has(parquet)).toBe(true);
    clearCache();
    expect(await askRequests(id)).toEqual(before);
    await expectDownloads(id);

    // The locked delete of a run's blobs removes either form.
    const a = await storeOldForm(Buffer.from("old form\n"));
    const b = (await app.blobs.put(Readable.from([gzipSync(Buffer.from("new form\n"))]))).sha256;
    expect((await stored(b))!.encoding).toBe("identity");
    const c = (await app.blobs.put(Readable.from([Buffer.from("text, stored raw until gzipped\n")]))).sha256;
    expect((await app.blobs.removeUnused([a, b, c])).sort()).toEqual([a, b, c].sort());
    for (const hash of [a, b, c]) expect(await stored(hash)).toBeNull();
  });
});
