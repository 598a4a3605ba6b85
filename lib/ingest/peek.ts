/**
 * Reads up to `n` bytes from the front of a stream and returns them with a stream of the whole
 * input; `ended` tells that the input ended within those bytes.
 */
export async function peek(
  source: AsyncIterable<Buffer>,
  n: number,
): Promise<{ head: Buffer; stream: AsyncIterable<Buffer>; ended: boolean }> {
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
  return { head: head.subarray(0, n), stream: whole(), ended: finished };
}
