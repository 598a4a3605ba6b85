/**
 * gzip read member by member: several members in a row, trailing bytes after the last one
 * (dropped with a warning, as gzip(1) does), zero padding, and damage anywhere, under any
 * chunking of the input.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gunzipChunks } from "@/lib/ingest/sniff";

const text = (n: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => `line ${i} ${"x".repeat(i % 50)}\n`).join(""));

async function gunzip(bytes: Buffer, piece: number): Promise<{ out: Buffer; warnings: string[] }> {
  async function* pieces() {
    for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
  }
  const warnings: string[] = [];
  const out: Buffer[] = [];
  for await (const c of gunzipChunks(pieces(), "f.gz", (m) => warnings.push(m))) out.push(c);
  return { out: Buffer.concat(out), warnings };
}

const PIECES = [1, 7, 512, 1 << 16, 1 << 24];

describe("gunzipChunks", () => {
  const a = text(3000);
  const b = text(500);
  for (const piece of PIECES) {
    it(`reads two members in a row, in pieces of ${piece} bytes`, async () => {
      const { out, warnings } = await gunzip(Buffer.concat([gzipSync(a), gzipSync(b)]), piece);
      expect(out.equals(Buffer.concat([a, b]))).toBe(true);
      expect(warnings).toEqual([]);
    });

    it(`drops trailing garbage with a warning, in pieces of ${piece} bytes`, async () => {
      const gz = Buffer.concat([gzipSync(a), Buffer.from("GARBAGE".repeat(100))]);
      const { out, warnings } = await gunzip(gz, piece);
      expect(out.equals(a)).toBe(true);
      expect(warnings).toEqual(["f.gz: ignored the bytes after the end of its gzip data"]);
    });
  }

  it("drops zero padding silently", async () => {
    const { out, warnings } = await gunzip(Buffer.concat([gzipSync(a), Buffer.alloc(4096)]), 1000);
    expect(out.equals(a)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("refuses a truncated member, a bad check value and a bad second member", async () => {
    const gz = gzipSync(a);
    const badCrc = Buffer.from(gz);
    badCrc[badCrc.length - 8] ^= 0xff;
    const badSecond = Buffer.concat([gz, gzipSync(b).subarray(0, 20)]);
    for (const bytes of [gz.subarray(0, gz.length >> 1), gz.subarray(0, gz.length - 3), badCrc, badSecond])
      await expect(gunzip(bytes, 333)).rejects.toMatchObject({ status: 422, code: "bad_gzip" });
  });
});
