/** Recognising compressed and archived parts by their magic bytes, and unpacking gzip safely. */
import zlib, { createInflateRaw } from "node:zlib";
import { isBlobTooLarge } from "@/lib/store/blob-store";
import { RequestError, TooLargeError, UnusableContentError } from "@/lib/api/request-errors";

/** zlib's CRC-32 (Node 20.15 and later); without it the member's size is still checked. */
const crc32 = (zlib as { crc32?: (data: Buffer, value?: number) => number }).crc32;

/**
 * A gzip stream is held to the expansion ratio only past this many expanded bytes: a small file
 * of repeated lines may compress very well, but real benchmark output does not expand 200 times
 * (aiperf's records about 8 times), while a gzip of zeros does 1,000 times: such a bomb would
 * otherwise be expanded, hashed and stored up to the upload's expanded-bytes limit (8 GiB, about
 * 3 minutes) before its 413.
 */
export const EXPANSION_RATIO_FLOOR_BYTES = 256 * 1024 * 1024;

/**
 * Decompresses a gzip stream member by member (RFC 1952); a truncated or damaged one becomes a
 * 422 naming the file instead of a zlib error. Bytes after the last member that start no other
 * member are dropped with a warning, as gzip(1) does: zlib alone refuses the whole file, and the
 * output of its last write is lost with the error, so members are framed here. With `maxRatio`,
 * output past EXPANSION_RATIO_FLOOR_BYTES more than `maxRatio` times the compressed bytes read
 * is refused with a 413 at once.
 */
export async function* gunzipChunks(
  source: AsyncIterable<Buffer>,
  name: string,
  warn?: (message: string) => void,
  maxRatio?: number,
): AsyncGenerator<Buffer> {
  const input = new ByteQueue(source);
  let expanded = 0;
  try {
    for (let member = 0; ; member++) {
      if (member > 0 && !(await input.fill(1))) return;
      if (member > 0 && !((await input.fill(2)) && isGzip(input.buffered))) {
        if (await input.dropRest())
          warn?.(`${name.slice(0, 200)}: ignored the bytes after the end of its gzip data`);
        return;
      }
      for await (const out of inflateMember(input)) {
        expanded += out.length;
        if (maxRatio && expanded > EXPANSION_RATIO_FLOOR_BYTES && expanded > maxRatio * input.pulled)
          throw new TooLargeError(
            "payload_too_large",
            `${name.slice(0, 200)} expands more than ${maxRatio} times its compressed size (a gzip bomb?)`,
          );
        yield out;
      }
    }
  } catch (err) {
    if (err instanceof RequestError || isBlobTooLarge(err)) throw err;
    throw new UnusableContentError(
      "bad_gzip",
      `${name.slice(0, 200)} is truncated or damaged (gzip data ends early or is corrupt)`,
    );
  } finally {
    input.close();
  }
}

/** A byte source that can be looked ahead into, taken from, and given bytes back. */
class ByteQueue {
  private readonly it: AsyncIterator<Buffer>;
  buffered: Buffer = Buffer.alloc(0);
  private ended = false;
  /** Bytes read from the source so far */
  pulled = 0;

  constructor(source: AsyncIterable<Buffer>) {
    this.it = source[Symbol.asyncIterator]();
  }

  /** Buffers at least `n` bytes; false if the source ends first. */
  async fill(n: number): Promise<boolean> {
    while (this.buffered.length < n && !this.ended) {
      const r = await this.it.next();
      if (r.done) this.ended = true;
      else {
        this.pulled += r.value.length;
        this.buffered = this.buffered.length ? Buffer.concat([this.buffered, r.value]) : r.value;
      }
    }
    return this.buffered.length >= n;
  }

  take(n: number): Buffer {
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return out;
  }

  /** The next bytes, buffered ones first; null at the end. */
  async next(): Promise<Buffer | null> {
    if (this.buffered.length) return this.take(this.buffered.length);
    if (this.ended) return null;
    const r = await this.it.next();
    if (!r.done) {
      this.pulled += r.value.length;
      return r.value;
    }
    this.ended = true;
    return null;
  }

  giveBack(bytes: Buffer): void {
    if (bytes.length) this.buffered = this.buffered.length ? Buffer.concat([bytes, this.buffered]) : bytes;
  }

  /** Reads the rest and drops it; tells whether any of it was not zero (zero padding is no news). */
  async dropRest(): Promise<boolean> {
    let news = false;
    for (let b = await this.next(); b !== null; b = await this.next()) news ||= b.some((x) => x !== 0);
    return news;
  }

  close(): void {
    void this.it.return?.()?.catch(() => {});
  }
}

/** Length of the gzip header at the front of `b`, or -1 while more bytes are needed. */
function gzipHeaderLength(b: Buffer): number {
  if (b.length < 10) return -1;
  const flags = b[3];
  let at = 10;
  if (flags & 4) at = b.length < 12 ? Infinity : 12 + b.readUInt16LE(10);
  for (const bit of [8, 16]) {
    if (!(flags & bit) || at > b.length) continue;
    const nul = b.indexOf(0, at);
    at = nul < 0 ? Infinity : nul + 1;
  }
  if (flags & 2) at += 2;
  return at <= b.length ? at : -1;
}

/** Resolves once a full stream can take more, or will take nothing more. */
function drained(stream: NodeJS.WritableStream & NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      stream.off("drain", go).off("end", go).off("close", go);
      resolve();
    };
    stream.on("drain", go).on("end", go).on("close", go);
  });
}

/** One gzip member: header, deflate data (inflated and yielded), then its CRC and size checked. */
async function* inflateMember(input: ByteQueue): AsyncGenerator<Buffer> {
  let header: number;
  while ((header = gzipHeaderLength(input.buffered)) < 0)
    if (!(await input.fill(input.buffered.length + 1))) throw new Error("gzip header cut short");
  if (input.buffered[2] !== 8) throw new Error("unknown gzip compression method");
  input.take(header);

  const inflate = createInflateRaw();
  let stopped = false;
  const stop = () => (stopped = true);
  inflate.once("end", stop).once("error", stop);
  // Written chunks not yet known to be consumed: what the deflate data leaves over is the next
  // member's (or the trailer's) and goes back to the input.
  const unconsumed: Array<{ bytes: Buffer; end: number }> = [];
  let written = 0;
  let overshoot: Buffer | null = null;
  const feed = (async () => {
    while (!stopped) {
      const chunk = await input.next();
      if (chunk === null) return void inflate.end();
      if (stopped) return void (overshoot = chunk);
      written += chunk.length;
      unconsumed.push({ bytes: chunk, end: written });
      while (unconsumed.length && unconsumed[0].end <= inflate.bytesWritten) unconsumed.shift();
      if (!inflate.write(chunk)) await drained(inflate);
    }
  })().catch((err: unknown) => void inflate.destroy(err instanceof Error ? err : new Error(String(err))));
  let crc = 0;
  let size = 0;
  try {
    for await (const out of inflate as AsyncIterable<Buffer>) {
      if (crc32) crc = crc32(out, crc);
      size = (size + out.length) % 2 ** 32;
      yield out;
    }
  } finally {
    stopped = true;
    inflate.destroy();
  }
  await feed;
  if (overshoot) input.giveBack(overshoot);
  const consumed = inflate.bytesWritten;
  for (let i = unconsumed.length - 1; i >= 0; i--) {
    const { bytes, end } = unconsumed[i];
    input.giveBack(bytes.subarray(Math.max(0, bytes.length - (end - consumed))));
  }
  if (!(await input.fill(8))) throw new Error("gzip trailer cut short");
  const trailer = input.take(8);
  if ((crc32 && trailer.readUInt32LE(0) !== crc) || trailer.readUInt32LE(4) !== size)
    throw new Error("gzip check failed");
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
