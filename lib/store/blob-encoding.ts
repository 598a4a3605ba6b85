/**
 * How a blob's bytes are kept. Most uploads are text and are gzip-compressed (level 1 as they
 * are stored, level 6 by the file store's background job); bytes that are compressed already (a run's zstd Parquet file, a gzip, zstd, xz,
 * bzip2 or zip file) are kept as they are: gzip would spend CPU on them and save nothing. The
 * choice is made from the first bytes alone (their magic number); either way a blob is named by
 * the sha256 of its original bytes, and both forms are read back the same.
 */
import { Transform, type TransformCallback } from "node:stream";
import { createGzip, type Gzip } from "node:zlib";

/** `gzip`: compressed by the store; `identity`: the original bytes. As in HTTP's Content-Encoding. */
export type BlobEncoding = "gzip" | "identity";

const COMPRESSED_MAGIC: readonly Buffer[] = [
  Buffer.from([0x1f, 0x8b]), // gzip (RFC 1952)
  Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), // zstd frame (RFC 8878)
  Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), // xz
  Buffer.from("BZh"), // bzip2
  Buffer.from([0x50, 0x4b, 0x03, 0x04]), // zip
  Buffer.from("PAR1"), // Parquet (its pages are compressed inside: zstd for runs' files)
];

/** The encoding to store bytes beginning with `head` in. */
export function encodingFor(head: Buffer): BlobEncoding {
  return COMPRESSED_MAGIC.some((m) => head.length >= m.length && head.subarray(0, m.length).equals(m))
    ? "identity"
    : "gzip";
}

/** gzip as the stores write it while an upload streams in: level 1, 256 KiB output pieces. */
export function storeGzip(): Gzip {
  return createGzip({ level: 1, chunkSize: 256 << 10 });
}

/**
 * The level of the file store's background gzip, after the run's drill-down is ready. zlib's
 * stream runs on the thread pool, so the event loop is free at any level; what a level costs is
 * CPU beside the server's other work. On a generated 100,000-request aiperf upload of 63.0 MB
 * (`node test/bench/gzip-levels.mjs`, docs/performance.md §Data dir growth): level 1 gives
 * 9.50 MB for ~0.32 s of CPU, level 6 7.65 MB (19% less) for ~0.65 s, level 9 7.26 MB (4% less
 * again) for ~1.5 s. Level 6, zlib's default, is where the curve bends: past it each byte saved
 * costs four times the CPU, and a 400 MB upload would hold a core ~10 s rather than ~4 s.
 */
export const BACKGROUND_GZIP_LEVEL = 6;

/** gzip as the file store's background job writes it: `BACKGROUND_GZIP_LEVEL`, 256 KiB output pieces. */
export function backgroundGzip(): Gzip {
  return createGzip({ level: BACKGROUND_GZIP_LEVEL, chunkSize: 256 << 10 });
}

/**
 * Encodes a blob's bytes as they flow to the store: tells the encoding from the first chunk
 * (the hashing stream hands on pieces of 256 KiB, or the whole of a smaller file), then gzips or
 * passes the bytes on. `encoding` is set once the first chunk (or the end of an empty input) has
 * gone by, before any byte reaches the store.
 */
export class BlobEncoder extends Transform {
  encoding: BlobEncoding | null = null;
  private gz: Gzip | null = null;

  /** `compress` false: only tells the encoding, the bytes pass as they are (gzipped later). */
  constructor(private readonly compress = true) {
    super();
  }

  private start(encoding: BlobEncoding): void {
    this.encoding = encoding;
    if (encoding !== "gzip" || !this.compress) return;
    const gz = storeGzip();
    gz.on("data", (d: Buffer) => this.push(d));
    gz.on("error", (err) => this.destroy(err));
    this.gz = gz;
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.encoding === null) this.start(encodingFor(chunk));
    // One chunk at a time: the next is taken once gzip has consumed this one, so at most one
    // chunk's output is held here.
    if (this.gz) this.gz.write(chunk, (err) => done(err));
    else done(null, chunk);
  }

  _flush(done: TransformCallback): void {
    if (this.encoding === null) this.start("gzip");
    const gz = this.gz;
    if (!gz) return done();
    // 'end' comes after the last 'data': every compressed byte has been pushed by then.
    gz.once("end", () => done());
    gz.end();
  }

  _destroy(err: Error | null, done: (err: Error | null) => void): void {
    this.gz?.destroy();
    done(err);
  }
}
