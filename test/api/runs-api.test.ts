import fs from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRun, GET as getRun, PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { GET as download } from "@/app/api/runs/[id]/files/[fileId]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { makeTarGz, makeZip } from "../helpers/archives";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

const C4 = {
  records: fixture("aiperf/qwen-c4__profile_export.jsonl"),
  summary: fixture("aiperf/qwen-c4__profile_export_aiperf.json"),
  gpu: fixture("aiperf/qwen-c4__gpu_telemetry_export.jsonl"),
};
const TRT = fixture("trtllm/perf_metrics-disagg-reconstructed.jsonl");

const t = freshAppEachTest();

async function uploadOk(req: Request) {
  const res = await upload(req);
  expect(res.status).toBe(201);
  return res.json() as Promise<{
    id: string;
    url: string;
    files: Array<{ id: string; name: string; kind: string; records: number; skipped: number }>;
  }>;
}

const get = (id: string) => getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
const list = async (qs = "") => (await listRuns(new Request(`http://localhost/api/runs${qs}`))).json();

describe("uploads", () => {
  it("expands a .zip of an artifacts folder and names files by their path", async () => {
    const zip = await makeZip([
      { name: "artifacts/profile_export.jsonl", content: fs.readFileSync(C4.records) },
      { name: "artifacts/profile_export_aiperf.json", content: fs.readFileSync(C4.summary) },
      { name: "artifacts/__MACOSX/._profile_export.jsonl", content: "junk" },
    ]);
    const body = await uploadOk(uploadRequest([{ name: "artifacts.zip", content: zip }]));
    expect(body.files.map((f) => [f.name, f.kind])).toEqual([
      ["artifacts/profile_export.jsonl", "aiperf-records"],
      ["artifacts/profile_export_aiperf.json", "aiperf-summary"],
    ]);
    const run = await (await get(body.id)).json();
    // Named for what the summary says was run, not for the archive.
    expect(run.name).toBe("Qwen/Qwen3-0.6B · concurrency 4");
  });

  it("expands a .tar.gz and a plain .gz file", async () => {
    const tgz = await makeTarGz([
      { name: "run/perf_metrics-disagg-a.jsonl", content: fs.readFileSync(TRT) },
      { name: "run/gpu_telemetry_export.jsonl", content: fs.readFileSync(C4.gpu) },
    ]);
    const gz = gzipSync(fs.readFileSync(C4.records));
    const body = await uploadOk(
      uploadRequest([
        { name: "run.tar.gz", content: tgz },
        { name: "profile_export.jsonl.gz", content: gz },
      ]),
    );
    expect(body.files.map((f) => [f.name, f.kind])).toEqual([
      ["run/perf_metrics-disagg-a.jsonl", "trtllm-perf-metrics"],
      ["run/gpu_telemetry_export.jsonl", "aiperf-gpu-telemetry"],
      ["profile_export.jsonl", "aiperf-records"],
    ]);
    expect(body.files[2].records).toBe(10);
  });

  it("skips archive entries that try to leave the archive", async () => {
    // zip writers refuse "../" names, so write a same-length safe name and patch it in place.
    const zip = await makeZip([
      { name: "xx/evil.jsonl", content: fs.readFileSync(C4.records) },
      { name: "zabs/evil.json", content: "{}" },
      { name: "ok/profile_export.jsonl", content: fs.readFileSync(C4.records) },
    ]);
    const patched = Buffer.from(
      zip
        .toString("latin1")
        .replaceAll("xx/evil.jsonl", "../evil.jsonl")
        .replaceAll("zabs/evil.json", "/abs/evil.json"),
      "latin1",
    );
    const res = await upload(uploadRequest([{ name: "a.zip", content: patched }]));
    const body = await res.json();
    expect(res.status).toBe(201);
    expect(body.files.map((f: { name: string }) => f.name)).toEqual(["ok/profile_export.jsonl"]);
    expect(body.warnings.join("\n")).toMatch(/unsafe path: \.\.\/evil\.jsonl/);
    expect(body.warnings.join("\n")).toMatch(/unsafe path: \/abs\/evil\.json/);
  });

  it("reports malformed lines with their numbers and keeps the rest", async () => {
    const good = fs.readFileSync(C4.records, "utf8").trim().split("\n");
    const content = [good[0], "{not json", good[1], '{"metadata": {"trunc'].join("\n");
    const body = await uploadOk(uploadRequest([{ name: "profile_export.jsonl", content }]));
    expect(body.files[0].records).toBe(2);
    expect(body.files[0].skipped).toBe(2);
    const run = await (await get(body.id)).json();
    const lines = run.files[0].warnings.map((w: { line?: number }) => w.line);
    expect(lines).toEqual([2, 4]);
  });

  it("413 when the body exceeds RUNLENS_MAX_UPLOAD_BYTES, and nothing is stored", async () => {
    await t.reopen({ RUNLENS_MAX_UPLOAD_BYTES: "1000" });
    const res = await upload(uploadRequest([{ name: "profile_export.jsonl", path: C4.records }]));
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("payload_too_large");
    expect((await list()).runs).toEqual([]);
  });

  it("415 for a body that is not multipart", async () => {
    const res = await upload(
      new Request("http://localhost/api/runs", {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      }),
    );
    expect(res.status).toBe(415);
    expect((await res.json()).error.code).toBe("unsupported_media_type");
  });
});

describe("auth", () => {
  it("401 on writes without the bearer token, reads stay open", async () => {
    await t.reopen({ RUNLENS_API_TOKEN: "s3cret" });
    const denied = await upload(uploadRequest([{ name: "p.jsonl", path: C4.records }]));
    expect(denied.status).toBe(401);
    expect((await denied.json()).error.code).toBe("unauthorized");
    const wrong = await upload(
      uploadRequest([{ name: "p.jsonl", path: C4.records }], {}, { authorization: "Bearer nope" }),
    );
    expect(wrong.status).toBe(401);
    const body = await uploadOk(
      uploadRequest([{ name: "p.jsonl", path: C4.records }], {}, { authorization: "Bearer s3cret" }),
    );
    expect((await get(body.id)).status).toBe(200);
    const del = await deleteRun(
      new Request(`http://localhost/api/runs/${body.id}`, { method: "DELETE" }),
      idParams(body.id),
    );
    expect(del.status).toBe(401);
    const re = await reingest(
      new Request(`http://localhost/api/runs/${body.id}/reingest`, { method: "POST" }),
      idParams(body.id),
    );
    expect(re.status).toBe(401);
  });
});

describe("runs", () => {
  it("lists newest first with cursor pagination, search and label filter", async () => {
    const ids: string[] = [];
    for (const [name, labels] of [
      ["alpha", "base"],
      ["beta", "base,h100"],
      ["gamma", "h100"],
    ]) {
      ids.push((await uploadOk(uploadRequest([{ name: "p.jsonl", path: C4.records }], { name, labels }))).id);
      await new Promise((r) => setTimeout(r, 5));
    }
    const page1 = await list("?limit=2");
    expect(page1.runs.map((r: { name: string }) => r.name)).toEqual(["gamma", "beta"]);
    expect(page1.nextCursor).toBeTruthy();
    const page2 = await list(`?limit=2&cursor=${page1.nextCursor}`);
    expect(page2.runs.map((r: { name: string }) => r.name)).toEqual(["alpha"]);
    expect(page2.nextCursor).toBeNull();
    expect((await list("?q=ALP")).runs.map((r: { name: string }) => r.name)).toEqual(["alpha"]);
    expect((await list("?q=h10")).runs.map((r: { name: string }) => r.name)).toEqual(["gamma", "beta"]);
    expect((await list("?label=base")).runs.map((r: { name: string }) => r.name)).toEqual(["beta", "alpha"]);
    expect((await list("?q=100%25")).runs).toEqual([]);
    expect((await list("?limit=0")).error.code).toBe("bad_request");
    expect(page1.runs[0]).toMatchObject({
      status: "ready",
      kinds: ["aiperf-records"],
      requestCount: 10,
      labels: ["h100"],
    });
  });

  it("404 for unknown and malformed ids", async () => {
    expect((await get("AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    const res = await get("../../etc/passwd");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  });

  it("downloads the original bytes of a file", async () => {
    const body = await uploadOk(uploadRequest([{ name: "profile_export.jsonl", path: C4.records }]));
    const res = await download(new Request("http://localhost/x"), {
      params: Promise.resolve({ id: body.id, fileId: body.files[0].id }),
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(C4.records))).toBe(true);
  });

  it("renames and relabels through PATCH", async () => {
    const body = await uploadOk(uploadRequest([{ name: "p.jsonl", path: C4.records }], { name: "old" }));
    const res = await patchRun(
      new Request(`http://localhost/api/runs/${body.id}`, {
        method: "PATCH",
        body: JSON.stringify({ name: "new", labels: ["x", "y"] }),
      }),
      idParams(body.id),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "new", labels: ["x", "y"] });
    expect((await list("?label=y")).runs).toHaveLength(1);
    const bad = await patchRun(
      new Request(`http://localhost/api/runs/${body.id}`, { method: "PATCH", body: "nope" }),
      idParams(body.id),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("bad_request");
  });

  it("deletes a run and the raw files no other run shares", async () => {
    const a = await uploadOk(uploadRequest([{ name: "p.jsonl", path: C4.records }]));
    const b = await uploadOk(
      uploadRequest([
        { name: "p.jsonl", path: C4.records },
        { name: "g.jsonl", path: C4.gpu },
      ]),
    );
    const runB = await (await get(b.id)).json();
    const gpuSha = runB.files[1].sha256;
    const sharedSha = runB.files[0].sha256;
    const del = await deleteRun(
      new Request(`http://localhost/api/runs/${b.id}`, { method: "DELETE" }),
      idParams(b.id),
    );
    expect(del.status).toBe(204);
    expect((await get(b.id)).status).toBe(404);
    expect(await t.app.blobs.has(gpuSha)).toBe(false);
    expect(await t.app.blobs.has(sharedSha)).toBe(true);
    expect((await get(a.id)).status).toBe(200);
  });

  it("re-ingests from the stored raw files with the same result", async () => {
    const body = await uploadOk(
      uploadRequest([
        { name: "p.jsonl", path: C4.records },
        { name: "s.json", path: C4.summary },
      ]),
    );
    const before = await (await get(body.id)).json();
    const res = await reingest(
      new Request(`http://localhost/api/runs/${body.id}/reingest`, { method: "POST" }),
      idParams(body.id),
    );
    expect(res.status).toBe(200);
    const after = await res.json();
    expect(after.status).toBe("ready");
    expect(after.requests).toEqual(before.requests);
    expect(after.files.map((f: { records: number }) => f.records)).toEqual(
      before.files.map((f: { records: number }) => f.records),
    );
  });

  it("health names the store", async () => {
    expect(await (await health(new Request("http://localhost/api/health"))).json()).toEqual({
      ok: true,
      store: "sqlite",
    });
  });
});
