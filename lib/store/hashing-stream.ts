import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { BlobTooLargeError } from "./blob-store";

/** Bytes gathered before passing a piece on to compression. */
const GATHER_BYTES = 256 << 10;

/** Pass-through that hashes and counts the bytes flowing by, and stops past a byte limit. */
export class HashingStream extends Transform {
  private readonly hash = createHash("sha256");
  private parts: Buffer[] = [];
  private held = 0;
  bytes = 0;

  constructor(private readonly maxBytes = Infinity) {
    super({ readableHighWaterMark: GATHER_BYTES });
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new BlobTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    // Passed on in pieces of GATHER_BYTES: compressing the 16–64 KiB pieces a request body
    // arrives in costs the event loop several times more per byte.
    this.parts.push(Buffer.from(chunk));
    this.held += chunk.length;
    if (this.held >= GATHER_BYTES) this.push(this.gathered());
    done();
  }

  _flush(done: TransformCallback): void {
    if (this.held > 0) this.push(this.gathered());
    done();
  }

  private gathered(): Buffer {
    const out = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.held);
    this.parts = [];
    this.held = 0;
    return out;
  }

  digest(): string {
    return this.hash.digest("hex");
  }
}
