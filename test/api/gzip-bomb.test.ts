/**
 * A gzip bomb is refused once it has expanded past EXPANSION_RATIO_FLOOR_BYTES, not at the
 * upload's expanded-bytes limit (issue 31, the probe's 188 s before the 413 of a 10 MB gzip of
 * 10 GB of zeros under the default 8 GiB limit: every byte was expanded, hashed and stored first).
 * Real benchmark output compressed as well stays within the ratio.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { EXPANSION_RATIO_FLOOR_BYTES } from "@/lib/ingest/sniff";
import { cachedInput } from "../helpers/input-cache";
import { freshAppEachTest, uploadRequest } from "../helpers/test-app";

const ctx = freshAppEachTest();

/** gzip -9 of the chunks `source` yields. */
async function gzipOf(source: Iterable<Buffer>): Promise<Buffer> {
  const gz = createGzip({ level: 9 });
  const out: Buffer[] = [];
  const collected = (async () => {
    for await (const c of gz as AsyncIterable<Buffer>) out.push(c);
  })();
  await new Promise<void>((resolve, reject) => {
    Readable.from(source).pipe(gz).on("error", reject).on("finish", resolve);
  });
  await collected;
  return Buffer.concat(out);
}

/** `bytes` zeros, 16 MiB at a time (gzip -9 makes them about 1,000 times smaller). */
function* zeros(bytes: number): Generator<Buffer> {
  const block = Buffer.alloc(16 << 20);
  for (let left = bytes; left > 0; left -= block.length)
    yield block.subarray(0, Math.min(left, block.length));
}

/** Distinct record-like lines, past `bytes`, 1 MiB at a time. */
function* lines(bytes: number): Generator<Buffer> {
  let i = 0;
  for (let size = 0; size <= bytes;) {
    const chunk: string[] = [];
    let n = 0;
    while (n < 1 << 20) {
      const line = `{"metadata":{"x_request_id":"${i.toString(36)}-${(i * 2654435761) % 1000003}"},"n":${i}}\n`;
      chunk.push(line);
      n += line.length;
      i++;
    }
    size += n;
    yield Buffer.from(chunk.join(""));
  }
}

/**
 * gzip -9 of `bytes` zeros, made once and kept (test/helpers/input-cache.ts): compressing a GiB
 * takes half a minute on a loaded machine (the key holds this file: an edit makes it anew).
 */
async function gzippedZeros(bytes: number): Promise<Buffer> {
  const file = await cachedInput(
    { gzipZeros: bytes },
    async (dir) => {
      const out = path.join(dir, "zeros.gz");
      fs.writeFileSync(out, await gzipOf(zeros(bytes)));
      return out;
    },
    [__filename],
  );
  return fs.readFileSync(file);
}

/**
 * Record-like lines past `bytes`, as gzip -9 members of 1 MiB of lines each, one after the other
 * (as bgzip writes them; gunzip reads them as one stream): each member compresses as the lines
 * do, so the whole expands as much as one gzip of them would, and making it takes one gzip of
 * 1 MiB instead of a minute of generating and compressing a quarter of a GiB.
 */
async function gzippedLines(bytes: number): Promise<{ gz: Buffer; expanded: number }> {
  const chunk = lines(0).next().value as Buffer;
  const member = await gzipOf([chunk]);
  const n = Math.floor(bytes / chunk.length) + 1;
  return { gz: Buffer.concat(Array.from({ length: n }, () => member)), expanded: n * chunk.length };
}

describe("a gzip bomb", () => {
  it("is answered 413 once past the floor, long before the expanded-bytes limit, and leaves nothing", async () => {
    expect(ctx.app.config.maxExpandedBytes).toBeGreaterThan(1 << 30);
    const bomb = await gzippedZeros(1 << 30);
    const t0 = performance.now();
    const res = await upload(uploadRequest([{ name: "records.jsonl.gz", content: bomb }]));
    const ms = performance.now() - t0;
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.message).toMatch(/records\.jsonl\.gz expands more than 200 times its compressed size/);
    console.log(`[gzip bomb] ${bomb.length} bytes expanding to 1 GiB: 413 in ${Math.round(ms)} ms`);
    const db = ctx.app.store.db;
    expect(await db.selectFrom("runs").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("files").select("id").execute()).toEqual([]);
  }, 300_000); // a quarter of a GiB and more expanded, hashed and stored: minutes on a loaded machine

  it("lets a well-compressed file past the floor through when it stays within the ratio", async () => {
    const { gz, expanded } = await gzippedLines(EXPANSION_RATIO_FLOOR_BYTES + (2 << 20));
    expect(expanded).toBeGreaterThan(EXPANSION_RATIO_FLOOR_BYTES);
    expect(expanded / gz.length).toBeGreaterThan(5);
    expect(expanded / gz.length).toBeLessThan(200);
    const res = await upload(uploadRequest([{ name: "lines.txt.gz", content: gz }]));
    // Not a bomb: whatever the file is told to be, it is not refused for its size.
    expect(res.status).not.toBe(413);
  }, 300_000); // a quarter of a GiB and more expanded, hashed and stored: minutes on a loaded machine
});
