/** One file into the blob store: its kind sniffed from the head, its bytes teed to a live analyzer. */
import { PassThrough, Readable, Transform, type TransformCallback } from "node:stream";
import { detectKind, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import type { BlobLease } from "@/lib/store/blob-leases";
import type { BlobStore } from "@/lib/store/blob-store";
import { peek } from "./peek";
import type { LiveSink, StagedFile } from "./upload-types";

/**
 * Copies every chunk to a side stream (a live analyzer) before passing it on, waiting while the
 * side is full. A side that has stopped reading (finished, failed or destroyed) is skipped.
 */
class Tee extends Transform {
  constructor(private readonly side: PassThrough) {
    super();
  }
  _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback) {
    const side = this.side;
    if (side.destroyed || side.writableEnded || side.write(chunk)) return done(null, chunk);
    const go = () => {
      side.off("drain", go);
      side.off("close", go);
      done(null, chunk);
    };
    side.on("drain", go);
    side.on("close", go);
  }
  _flush(done: TransformCallback) {
    if (!this.side.destroyed && !this.side.writableEnded) this.side.end();
    done();
  }
}

/**
 * Stores one file's bytes, detecting its kind from the first megabyte before the rest flows.
 * With a live sink that takes the file, the bytes go to the blob store and to the sink at once.
 */
export async function stageStream(
  blobs: BlobStore,
  name: string,
  source: Readable,
  maxBytes?: number,
  live?: { sink: LiveSink; ord: number },
  lease?: BlobLease,
): Promise<StagedFile> {
  // One byte past the detection window tells whether the head is the whole file.
  const { head, stream, ended } = await peek(source, DETECT_HEAD_BYTES + 1);
  const detected = detectKind(head.subarray(0, DETECT_HEAD_BYTES), ended && head.length <= DETECT_HEAD_BYTES);
  const liveFile =
    live && detected.kind !== "unknown"
      ? await live.sink.open({ name, kind: detected.kind, format: detected.format, ord: live.ord })
      : null;
  const body = Readable.from(stream, { objectMode: false });
  let input: Readable = body;
  let side: PassThrough | null = null;
  let fed: Promise<void> = Promise.resolve();
  if (liveFile) {
    side = new PassThrough({ highWaterMark: 1 << 20 });
    const sideStream = side;
    // Whatever the analyzer leaves unread is drained, so storing never waits on it.
    fed = liveFile.consume(sideStream).finally(() => {
      if (!sideStream.destroyed) sideStream.resume();
    });
    input = body.pipe(new Tee(sideStream));
  }
  // `pipe` does not forward errors: a failing source (truncated gzip) would leave the blob
  // store waiting for an end that never comes.
  body.once("error", (err) => {
    if (input !== body) input.destroy(err);
    side?.destroy(err);
  });
  let put;
  try {
    put = await blobs.put(input, { ...(maxBytes === undefined ? {} : { maxBytes }), lease });
  } catch (err) {
    side?.destroy(err instanceof Error ? err : new Error(String(err)));
    await fed;
    throw err;
  }
  await fed;
  return {
    name,
    sha256: put.sha256,
    bytes: put.bytes,
    kind: detected.kind,
    format: detected.format,
    created: put.created,
    ...(liveFile ? { id: liveFile.id } : {}),
  };
}
