import { Transform, type TransformCallback } from "node:stream";

/** Pass-through that keeps a copy of the first `limit` bytes, for content detection. */
export class HeadCapture extends Transform {
  private parts: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly limit: number) {
    super();
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.total += chunk.length;
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept);
      this.parts.push(Buffer.from(part));
      this.kept += part.length;
    }
    done(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.parts, this.kept);
  }
}

/** Reads up to `n` bytes from the front of a stream and returns them with a stream of the whole input. */
export async function peek(
  source: AsyncIterable<Buffer>,
  n: number,
): Promise<{ head: Buffer; stream: AsyncIterable<Buffer> }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const taken: Buffer[] = [];
  let size = 0;
  let finished = false;
  while (size < n) {
    const r = await it.next();
    if (r.done) {
      finished = true;
      break;
    }
    taken.push(r.value);
    size += r.value.length;
  }
  const head = Buffer.concat(taken, size);
  async function* whole(): AsyncGenerator<Buffer> {
    if (head.length) yield head;
    if (finished) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { head: head.subarray(0, n), stream: whole() };
}
