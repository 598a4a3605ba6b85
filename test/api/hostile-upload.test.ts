/**
 * The bad-input corpus (test/fixtures/bad): each file uploaded alone gets the status, code and
 * file report its manifest entry names; the big cases are generated here. Never a 500.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import {
  writeExpandingZip,
  writeGzipBomb,
  writeHugeLine,
  writeJsonArray,
  writeManyEntriesZip,
} from "../fixtures/bad/generate-big";
import { appForTest, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

const BAD = path.resolve(__dirname, "../fixtures/bad");

interface Case {
  file: string;
  status: number;
  code?: string;
  message?: string;
  format?: string;
  kind?: string;
  storedName?: string;
  records?: number;
  minRecords?: number;
  skipped?: number;
  minSkipped?: number;
  listedWarnings?: number;
  warningMatch?: string;
  firstWarningLine?: number;
  moreWarnings?: string;
  requestCount?: number;
  uploadWarnings?: string[];
}

const manifest = JSON.parse(fs.readFileSync(path.join(BAD, "manifest.json"), "utf8")) as { cases: Case[] };

interface FileReport {
  name: string;
  kind: string;
  records: number;
  skipped: number;
  warnings: Array<{ line?: number; message: string }>;
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-bad-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** No error body may carry a stack trace or a server path. */
function expectCleanError(body: unknown): void {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/work\/|\/tmp\/|Error: /);
}

describe("bad-input corpus", () => {
  freshAppEachTest();

  it("has a manifest entry for every corpus file", () => {
    const files = fs.readdirSync(path.join(BAD, "files")).sort();
    expect(manifest.cases.map((c) => c.file).sort()).toEqual(files);
  });

  for (const c of manifest.cases) {
    it(`${c.file} → ${c.status}${c.code ? ` ${c.code}` : ""}`, async () => {
      const res = await upload(uploadRequest([{ name: c.file, path: path.join(BAD, "files", c.file) }]));
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(c.status);
      if (c.status >= 400) {
        expect(body.error.code).toBe(c.code);
        if (c.message) expect(body.error.message).toContain(c.message);
        if (c.format) expect(body.error.details.files[0].format).toBe(c.format);
        expectCleanError(body);
        const list = await (await listRuns(new Request("http://localhost/api/runs"))).json();
        expect(list.runs).toEqual([]);
        return;
      }
      expect(body.status).toBe("ready");
      const run = await (
        await getRun(new Request(`http://localhost/api/runs/${body.id}`), idParams(body.id))
      ).json();
      expect(run.status).toBe("ready");
      const f = run.files[0] as FileReport;
      if (c.kind) expect(f.kind).toBe(c.kind);
      if (c.storedName) expect(run.files.map((x: FileReport) => x.name)).toEqual([c.storedName]);
      if (c.records !== undefined) expect(f.records).toBe(c.records);
      if (c.minRecords !== undefined) expect(f.records).toBeGreaterThanOrEqual(c.minRecords);
      if (c.skipped !== undefined) expect(f.skipped).toBe(c.skipped);
      if (c.minSkipped !== undefined) expect(f.skipped).toBeGreaterThanOrEqual(c.minSkipped);
      if (c.warningMatch) expect(f.warnings[0].message).toContain(c.warningMatch);
      if (c.firstWarningLine !== undefined) expect(f.warnings[0].line).toBe(c.firstWarningLine);
      if (c.listedWarnings !== undefined)
        expect(f.warnings.filter((w) => w.line !== undefined)).toHaveLength(c.listedWarnings);
      if (c.moreWarnings) expect(f.warnings.at(-1)?.message).toBe(c.moreWarnings);
      if (c.requestCount !== undefined) expect(run.requests.count).toBe(c.requestCount);
      for (const w of c.uploadWarnings ?? []) {
        expect(body.warnings.join("\n")).toContain(`unsafe path: ${w}`);
        // Kept with the run, not only in the upload response.
        expect(run.warnings.join("\n")).toContain(`unsafe path: ${w}`);
      }
      if (c.uploadWarnings) {
        expect(body.warnings).toHaveLength(c.uploadWarnings.length);
        const again = await reingest(
          new Request("http://localhost/x", { method: "POST" }),
          idParams(body.id),
        );
        expect((await again.json()).warnings).toEqual(run.warnings);
      }
    });
  }

  it("keeps the valid files of an upload that also holds junk", async () => {
    const res = await upload(
      uploadRequest([
        { name: "junk.bin", path: path.join(BAD, "files/binary-junk.bin") },
        { name: "empty.jsonl", path: path.join(BAD, "files/empty.jsonl") },
        { name: "profile_export.jsonl", path: path.join(BAD, "files/every-other-line-broken.jsonl") },
      ]),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.files.map((f: FileReport) => [f.kind, f.records])).toEqual([
      ["unknown", 0],
      ["unknown", 0],
      ["aiperf-records", 25],
    ]);
  });
});

describe("malformed requests", () => {
  freshAppEachTest();

  const post = (body: BodyInit | null, contentType?: string) =>
    upload(
      new Request("http://localhost/api/runs", {
        method: "POST",
        body,
        headers: contentType ? { "content-type": contentType } : {},
      }),
    );

  it.each([
    ["JSON instead of multipart", () => post('{"a":1}', "application/json"), 415, "unsupported_media_type"],
    ["no content type", () => post("abc"), 415, "unsupported_media_type"],
    ["multipart without a boundary", () => post("abc", "multipart/form-data"), 400, "bad_multipart"],
    [
      "multipart with the wrong boundary",
      () =>
        post(
          '--other\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx\r\n--other--\r\n',
          "multipart/form-data; boundary=zzz",
        ),
      400,
      null,
    ],
    [
      "multipart cut in the middle of a part",
      () =>
        post(
          '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n{"metadata":',
          "multipart/form-data; boundary=zzz",
        ),
      400,
      "bad_multipart",
    ],
    [
      "multipart with fields only",
      () =>
        post(
          '--zzz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--zzz--\r\n',
          "multipart/form-data; boundary=zzz",
        ),
      400,
      "no_files",
    ],
    ["an empty body", () => post(null, "multipart/form-data; boundary=zzz"), 400, null],
  ])("%s", async (_label, send, status, code) => {
    const res = await send();
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(status);
    if (code) expect(body.error.code).toBe(code);
    expectCleanError(body);
  });
});

describe("big hostile inputs (generated)", () => {
  it("skips a 100 MB single line, keeps the lines around it, and keeps serving meanwhile", async () => {
    await appForTest();
    const file = path.join(tmp, "huge-line.jsonl");
    await writeHugeLine(file, 100 * 1024 * 1024);
    let uploading = true;
    const reads: number[] = [];
    const reader = (async () => {
      while (uploading) {
        reads.push(
          (await health(new Request("http://localhost/api/health"))).status,
          (await listRuns(new Request("http://localhost/api/runs"))).status,
        );
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const res = await upload(uploadRequest([{ name: "profile_export.jsonl", path: file }]));
    uploading = false;
    await reader;
    fs.rmSync(file);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.files[0]).toMatchObject({ kind: "aiperf-records", records: 8, skipped: 1 });
    expect(body.files[0].warnings).toEqual([
      { line: 5, message: "skipped line: longer than the line-length limit" },
    ]);
    expect(reads.length).toBeGreaterThan(2);
    expect(new Set(reads)).toEqual(new Set([200]));
    // 100 MB written, uploaded and read: minutes on a loaded machine.
  }, 240_000);

  it("streams a JSON array far larger than the whole-document limit", async () => {
    // The array is 4 MB against a 1 MB document limit: it can only be read element by element.
    await appForTest({ RUNLENS_MAX_JSON_DOCUMENT_BYTES: String(1 << 20) });
    const file = path.join(tmp, "perf_metrics.json");
    const elements = await writeJsonArray(file, 4 * 1024 * 1024);
    const res = await upload(uploadRequest([{ name: "perf_metrics.json", path: file }]));
    fs.rmSync(file);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.files[0], JSON.stringify(body.files[0])).toMatchObject({
      kind: "trtllm-perf-metrics",
      records: elements,
      skipped: 0,
    });
    // Thousands of elements ingested: minutes on a loaded machine.
  }, 240_000);

  it("refuses a zip with more entries than the default limit (413)", async () => {
    await appForTest();
    const file = path.join(tmp, "many.zip");
    await writeManyEntriesZip(file, 10_001);
    const res = await upload(uploadRequest([{ name: "many.zip", path: file }]));
    fs.rmSync(file);
    const body = await res.json();
    expect(res.status).toBe(413);
    expect(body.error.code).toBe("archive_too_many_entries");
    const list = await (await listRuns(new Request("http://localhost/api/runs"))).json();
    expect(list.runs).toEqual([]);
  });

  it("refuses a zip and a gzip that expand beyond the limit (413) and stores nothing", async () => {
    // Each expands to four times the limit.
    const { dataDir } = await appForTest({ RUNLENS_MAX_EXPANDED_BYTES: String(4 << 20) });
    const zip = path.join(tmp, "bomb.zip");
    const gz = path.join(tmp, "bomb.jsonl.gz");
    await writeExpandingZip(zip, 16 << 20);
    await writeGzipBomb(gz, 16 << 20);
    expect(fs.statSync(zip).size).toBeLessThan(1 << 20);
    for (const [name, p] of [
      ["bomb.zip", zip],
      ["bomb.jsonl.gz", gz],
    ]) {
      const res = await upload(uploadRequest([{ name, path: p }]));
      const body = await res.json();
      expect(res.status, name).toBe(413);
      expect(body.error.code).toBe("payload_too_large");
      expectCleanError(body);
    }
    // No blob survives a refused upload.
    const blobs = fs
      .readdirSync(path.join(dataDir, "blobs"), { recursive: true })
      .filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}(\.gz|\.raw)?$/.test(String(f)));
    expect(blobs).toEqual([]);
  });

  it("refuses more plain file parts than the file limit (413)", async () => {
    await appForTest({ RUNLENS_MAX_ARCHIVE_ENTRIES: "5" });
    const valid = fs.readFileSync(path.join(BAD, "files/valid-aiperf.jsonl"));
    const five = Array.from({ length: 5 }, (_, i) => ({
      name: `p${i}.jsonl`,
      content: Buffer.concat([valid, Buffer.from("\n".repeat(i))]),
    }));
    expect((await upload(uploadRequest(five))).status).toBe(201);
    const six = [...five, { name: "p5.jsonl", content: valid }];
    const res = await upload(uploadRequest(six));
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("archive_too_many_entries");
  });

  it("refuses an upload over the byte limit (413)", async () => {
    await appForTest({ RUNLENS_MAX_UPLOAD_BYTES: "4096" });
    const res = await upload(uploadRequest([{ name: "profile_export.jsonl", content: "x".repeat(10_000) }]));
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("payload_too_large");
  });
});
