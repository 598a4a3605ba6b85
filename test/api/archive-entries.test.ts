/**
 * What an archive holds besides regular files: links, devices and fifos are skipped with a
 * warning each (an archive of nothing else is a 422 that says so), and a tar or .tar.gz inside a
 * zip is expanded like one sent on its own; a .gz with bytes after its gzip data is read as gzip(1)
 * reads it.
 */
import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { trtRecordText } from "../fixtures/bad/generate-big";
import { makeTarGz, makeZip } from "../helpers/archives";
import { freshAppEachTest, uploadRequest } from "../helpers/test-app";

/** Three TensorRT-LLM records from `from` on. */
const records = (from: number) => [0, 1, 2].map((i) => trtRecordText(from + i)).join("\n") + "\n";

/** A tar of a symlink, a hard link, a fifo and a character device, plus the regular files given. */
async function tarWithSpecials(files: Array<{ name: string; content: string }> = []): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name: "run/", type: "directory" });
  pack.entry({ name: "run/passwd", type: "symlink", linkname: "/etc/passwd" });
  pack.entry({ name: "run/hard", type: "link", linkname: "run/passwd" });
  pack.entry({ name: "run/pipe", type: "fifo" });
  pack.entry({ name: "run/null", type: "character-device", devmajor: 1, devminor: 3 });
  for (const f of files) pack.entry({ name: f.name }, f.content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const SKIPPED = [
  "skipped archive entry that is a symbolic link: run/passwd",
  "skipped archive entry that is a hard link: run/hard",
  "skipped archive entry that is a fifo: run/pipe",
  "skipped archive entry that is a character device: run/null",
];

describe("archive entries", () => {
  freshAppEachTest();

  it("a tar of only links, devices and fifos: 422 naming each skipped entry", async () => {
    const res = await upload(
      uploadRequest([{ name: "links.tar.gz", content: gzipSync(await tarWithSpecials()) }]),
    );
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(body.error.code).toBe("no_usable_files");
    expect(body.error.details.warnings).toEqual(SKIPPED);
  });

  it("links beside regular files are skipped with a warning each; the files are kept", async () => {
    const tarball = await tarWithSpecials([{ name: "run/perf_metrics.jsonl", content: records(0) }]);
    const res = await upload(uploadRequest([{ name: "run.tar", content: tarball }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.files.map((f: { name: string; records: number }) => [f.name, f.records])).toEqual([
      ["run/perf_metrics.jsonl", 3],
    ]);
    expect(body.warnings).toEqual(expect.arrayContaining(SKIPPED));
  });

  it("a .tar.gz and a .tar inside a zip are expanded, their entries under their own stems", async () => {
    const zip = await makeZip([
      {
        name: "x/run.tar.gz",
        content: await makeTarGz([{ name: "perf_metrics.jsonl", content: records(0) }]),
      },
      {
        name: "y.tar",
        content: await tarWithSpecials([{ name: "b/perf_metrics.jsonl", content: records(3) }]),
      },
    ]);
    const res = await upload(uploadRequest([{ name: "bundle.zip", content: zip }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(
      body.files.map((f: { name: string; kind: string; records: number }) => [f.name, f.kind, f.records]),
    ).toEqual([
      ["x/run/perf_metrics.jsonl", "trtllm-perf-metrics", 3],
      ["y/b/perf_metrics.jsonl", "trtllm-perf-metrics", 3],
    ]);
    expect(body.warnings).toEqual(expect.arrayContaining(SKIPPED));
  });

  it("a .gz with bytes after its gzip data is read, with a warning, as gzip(1) does", async () => {
    const gz = Buffer.concat([gzipSync(records(0)), Buffer.from("GARBAGE".repeat(100))]);
    const res = await upload(uploadRequest([{ name: "perf_metrics.jsonl.gz", content: gz }]));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.files.map((f: { name: string; records: number }) => [f.name, f.records])).toEqual([
      ["perf_metrics.jsonl", 3],
    ]);
    expect(body.warnings).toEqual([
      "perf_metrics.jsonl.gz: ignored the bytes after the end of its gzip data",
    ]);
  });
});
