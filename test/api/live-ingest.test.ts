/**
 * Uploads are analysed while they arrive: per-request rows are written before the body has
 * ended, a body cut off midway leaves no run and no rows, a pair of identical files is still
 * counted once, and the sweeper removes the run of an upload whose process died mid-body.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { dropInterruptedUploads, failInterruptedIngests } from "@/lib/store/interrupted-ingest";
import { analyzerTables } from "@/lib/ingest/analyzers";
import type { Db } from "@/lib/store/db";
import { insertRun } from "@/lib/store/runs-repo";
import { newFileId } from "@/lib/store/ids";
import { trtRecordText } from "../fixtures/bad/generate-big";
import { appForTest, streamingUploadRequest, uploadRequest } from "../helpers/test-app";
import { aiperfRowCount } from "../helpers/aiperf-request-rows";
import { waitUntil } from "../helpers/wait.mjs";

const BOUNDARY = "----runlens-live-test";

function aiperfRecord(i: number): string {
  const start = 1_762_551_940_000_000_000n + BigInt(i) * 1_000_000n;
  return JSON.stringify({
    metadata: {
      x_request_id: `req-${i}`,
      request_start_ns: 0,
      request_end_ns: 0,
      benchmark_phase: "profiling",
      was_cancelled: false,
    },
    metrics: {
      input_sequence_length: { value: 100 + (i % 7), unit: "tokens" },
      output_sequence_length: { value: 50, unit: "tokens" },
      time_to_first_token: { value: 10 + (i % 13), unit: "ms" },
      request_latency: { value: 400 + (i % 29), unit: "ms" },
      inter_token_latency: { value: 8, unit: "ms" },
    },
  })
    .replace('"request_start_ns":0', `"request_start_ns":${start}`)
    .replace('"request_end_ns":0', `"request_end_ns":${start + 400_000_000n}`);
}

function records(from: number, to: number): string {
  let s = "";
  for (let i = from; i < to; i++) s += aiperfRecord(i) + "\n";
  return s;
}

/** A multipart body the test feeds piece by piece; `cut` errors it midway. */
function controlledUpload(): {
  req: Request;
  push: (s: string) => void;
  end: () => void;
  cut: () => void;
} {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
  const enc = new TextEncoder();
  const req = streamingUploadRequest(body, BOUNDARY);
  ctl.enqueue(
    enc.encode(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="profile_export.jsonl"\r\n` +
        `content-type: application/octet-stream\r\n\r\n`,
    ),
  );
  return {
    req,
    push: (s) => ctl.enqueue(enc.encode(s)),
    end: () => {
      ctl.enqueue(enc.encode(`\r\n--${BOUNDARY}--\r\n`));
      ctl.close();
    },
    cut: () => ctl.error(new Error("client went away")),
  };
}

/** Rows written or staged for the run's request file */
const aiperfRows = (db: Db) => aiperfRowCount(db);

/** Starts an upload of 6,000 records and returns once the first rows are in the database. */
async function startUploadWithRows(db: Db) {
  const body = controlledUpload();
  const pending = upload(body.req);
  body.push(records(0, 6_000));
  let rows = 0;
  await waitUntil(
    "the upload's first request rows in the database",
    async () => (rows = await aiperfRows(db)) > 0,
    { timeoutMs: 20_000, intervalMs: 20, seen: () => `${rows} rows` },
  );
  return { body, pending };
}

describe("live ingest of an upload", () => {
  it("writes per-request rows while the body is still arriving, then commits every record", async () => {
    const t = await appForTest();
    const db = t.app.store.db;
    const { body, pending } = await startUploadWithRows(db);
    // Not listed while it ingests.
    const ingesting = await db.selectFrom("runs").select(["status"]).execute();
    expect(ingesting.map((r) => r.status)).toEqual(["ingesting"]);

    body.push(records(6_000, 10_000));
    body.end();
    const res = await pending;
    expect(res.status).toBe(201);
    const out = await res.json();
    expect([out.status, out.files[0].records, out.files[0].skipped]).toEqual(["ready", 10_000, 0]);
    expect(await aiperfRows(db)).toBe(10_000);
  });

  it("a body cut off after rows were written leaves no run, no rows and no blob", async () => {
    const t = await appForTest();
    const db = t.app.store.db;
    const { body, pending } = await startUploadWithRows(db);
    body.cut();
    const res = await pending;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await db.selectFrom("runs").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("aiperf_requests").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("files").selectAll().execute()).toEqual([]);
    const blobs = path.join(t.dataDir, "blobs");
    const stored = fs.existsSync(blobs)
      ? fs
          .readdirSync(blobs, { recursive: true })
          .map(String)
          .filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}(\.gz|\.raw)?$/.test(f))
      : [];
    expect(stored).toEqual([]);
    expect((await res.json()).error.code).toBe("upload_interrupted");
  });

  it("two identical files in one upload are counted once, as a re-ingest would", async () => {
    await appForTest();
    const content = Array.from({ length: 300 }, (_, i) => trtRecordText(i)).join("\n") + "\n";
    const res = await upload(
      uploadRequest([
        { name: "a/perf_metrics-0.jsonl", content },
        { name: "b/perf_metrics-0.jsonl", content },
      ]),
    );
    expect(res.status).toBe(201);
    const out = await res.json();
    expect(out.status).toBe("ready");
    expect(out.files.map((f: { records: number }) => f.records)).toEqual([300, 0]);
    expect(out.files[1].warnings.map((w: { message: string }) => w.message)).toEqual([
      "identical to another file of this run; not counted twice",
    ]);
  });

  it("the sweeper removes an upload a dead process was receiving, and fails a finished one", async () => {
    const t = await appForTest();
    const db = t.app.store.db;
    const long = Date.now() - 60_000;
    const base = { labels: [], createdAt: long, aggregatorVersion: 1 };
    await insertRun(db, { ...base, id: "receiving", name: "cut off mid-body" }, []);
    const fileId = newFileId();
    await insertRun(db, { ...base, id: "received", name: "all files stored" }, [
      {
        id: fileId,
        run_id: "received",
        ord: 0,
        name: "profile_export.jsonl",
        kind: "aiperf-records",
        format: "jsonl",
        bytes: 1,
        sha256: "0".repeat(64),
        records: 0,
        skipped: 0,
        warnings: "[]",
        meta: "{}",
      },
    ]);
    for (const run_id of ["receiving", "received"])
      await db
        .insertInto("aiperf_requests")
        .values({
          run_id,
          file_id: fileId,
          line: 1,
          request_id: "r",
          phase: "profiling",
          ok: 1,
          cancelled: 0,
          error_type: null,
          start_ms: 0,
          end_ms: 1,
          ttft_ms: 1,
          e2e_ms: 1,
          itl_ms: 1,
          input_tokens: 1,
          output_tokens: 1,
        })
        .execute();
    await db.updateTable("runs").set({ updated_at: long }).execute();

    expect(await dropInterruptedUploads(db, 1000, analyzerTables())).toEqual(["receiving"]);
    expect(await failInterruptedIngests(db, 1000)).toBe(1);
    const runs = await db.selectFrom("runs").select(["id", "status"]).execute();
    expect(runs).toEqual([{ id: "received", status: "failed" }]);
    const rows = await db.selectFrom("aiperf_requests").select("run_id").execute();
    expect(rows).toEqual([{ run_id: "received" }]);
  });
});
