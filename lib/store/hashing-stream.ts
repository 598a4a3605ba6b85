import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { BlobTooLargeError } from "./blob-store";

/** Pass-through that hashes and counts the bytes flowing by, and stops past a byte limit. */
export class HashingStream extends Transform {
  private readonly hash = createHash("sha256");
  bytes = 0;

  constructor(private readonly maxBytes = Infinity) {
    super();
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new BlobTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest("hex");
  }
}
