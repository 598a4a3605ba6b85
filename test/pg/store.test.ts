import fs from "node:fs";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRun, GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { makeTarGz } from "../helpers/archives";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";
import { fixture, idParams, uploadRequest } from "../helpers/test-app";

const C4 = fixture("aiperf/qwen-c4__profile_export.jsonl");
const C4_SUMMARY = fixture("aiperf/qwen-c4__profile_export_aiperf.json");
const TRT = fixture("trtllm/perf_metrics-disagg-reconstructed.jsonl");

/** The store tests of test/api, on PostgreSQL: catalog, rows and chunked bytea blobs. */
describe.skipIf(!PG_URL)("PostgreSQL store", () => {
  const t = usePgTestApp();

  it("health names postgres", async () => {
    expect(await (await health(new Request("http://localhost/api/health"))).json()).toEqual({
      ok: true,
      store: "postgres",
    });
  });

  it("uploads, lists, reads, downloads, re-ingests and deletes", async () => {
    const tgz = await makeTarGz([
      { name: "a/profile_export.jsonl", content: fs.readFileSync(C4) },
      { name: "a/profile_export_aiperf.json", content: fs.readFileSync(C4_SUMMARY) },
      { name: "a/perf_metrics-disagg.jsonl", content: fs.readFileSync(TRT) },
    ]);
    const res = await upload(
      uploadRequest([{ name: "a.tar.gz", content: tgz }], { name: "pg-run", labels: "pg" }),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.files.map((f: { kind: string }) => f.kind)).toEqual([
      "aiperf-records",
      "aiperf-summary",
      "trtllm-perf-metrics",
    ]);

    const list = await (await listRuns(new Request("http://localhost/api/runs?label=pg"))).json();
    expect(list.runs.map((r: { id: string }) => r.id)).toEqual([body.id]);

    const run = await (await getRun(new Request("http://localhost/x"), idParams(body.id))).json();
    expect(run).toMatchObject({ name: "pg-run", status: "ready", labels: ["pg"] });
    // The 10 records are a sample of the 64 requests aiperf's summary counts: the run is aiperf's.
    expect(run.requests.count).toBe(JSON.parse(fs.readFileSync(C4_SUMMARY, "utf8")).request_count.avg);

    // Raw files live in PostgreSQL as gzip chunks keyed by their sha256.
    const chunks = await sql<{
      n: number;
    }>`select count(*)::int as n from blob_chunks where blob_key = ${run.files[0].sha256}`.execute(
      t.app.store.db,
    );
    expect(chunks.rows[0].n).toBeGreaterThan(0);
    const dl = await download(new Request("http://localhost/x"), {
      params: Promise.resolve({ id: body.id, fileId: body.files[0].id }),
    });
    expect(Buffer.from(await dl.arrayBuffer()).equals(fs.readFileSync(C4))).toBe(true);

    const again = await (
      await reingest(new Request("http://localhost/x", { method: "POST" }), idParams(body.id))
    ).json();
    expect(again.requests).toEqual(run.requests);
    expect(again.timeBreakdown).toEqual(run.timeBreakdown);

    const del = await deleteRun(new Request("http://localhost/x", { method: "DELETE" }), idParams(body.id));
    expect(del.status).toBe(204);
    expect((await getRun(new Request("http://localhost/x"), idParams(body.id))).status).toBe(404);
    expect(await t.app.blobs.has(run.files[0].sha256)).toBe(false);
  });

  it("refuses an unrecognised upload with 422 and keeps no blob", async () => {
    const res = await upload(uploadRequest([{ name: "x.txt", content: "plain words" }]));
    expect(res.status).toBe(422);
    const left = await sql<{ n: number }>`select count(*)::int as n from blob_chunks`.execute(t.app.store.db);
    expect(left.rows[0].n).toBe(0);
  });
});
