/** Recognising compressed and archived parts by their magic bytes, and unpacking gzip safely. */
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { isBlobTooLarge } from "@/lib/store/blob-store";
import { UploadError } from "./errors";

/**
 * Decompresses a gzip stream; a truncated or damaged one becomes a 422 naming the file instead
 * of a zlib error (which `pipe` would otherwise throw as an uncaught exception).
 */
export async function* gunzipChunks(source: AsyncIterable<Buffer>, name: string): AsyncGenerator<Buffer> {
  const input = Readable.from(source);
  const gunzip = createGunzip();
  input.once("error", (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (err) {
    if (err instanceof UploadError || isBlobTooLarge(err)) throw err;
    throw new UploadError(
      422,
      "bad_gzip",
      `${name.slice(0, 200)} is truncated or damaged (gzip data ends early or is corrupt)`,
    );
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

export function isZip(head: Buffer): boolean {
  return (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    (head[2] === 3 || head[2] === 5) &&
    (head[3] === 4 || head[3] === 6)
  );
}

export function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export function isTar(head: Buffer): boolean {
  return head.length >= 262 && head.toString("latin1", 257, 262) === "ustar";
}
