/** One file into the blob store: its kind sniffed from the head, its bytes teed to a live analyzer. */
import { PassThrough, Readable, Transform, type TransformCallback } from "node:stream";
import { detectDocumentKind, detectHead, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import { jsonSkeleton } from "@/lib/formats/json-skeleton";
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
/**
 * Kinds a head of one large JSON document may wrongly give (a one-line GuideLLM report looks like
 * an aiperf record, a document whose telling keys sort late looks like nothing).
 */
const UNSURE_FROM_HEAD = new Set<string>(["unknown", "aiperf-records", "engine-config"]);

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
  const window = head.subarray(0, DETECT_HEAD_BYTES);
  const complete = ended && head.length <= DETECT_HEAD_BYTES;
  // Detection reads the whole megabyte (decoded once, its rules' patterns over it): a turn of its
  // own, not added to what ran before it in the turn the head's last bytes came (issue 31).
  await new Promise<void>((resolve) => setImmediate(resolve));
  const fromHead = detectHead(window, complete);
  let detected = fromHead.detected;
  // One JSON document larger than the head whose head told nothing sure: its telling keys may
  // come after it, so its kind is told from the whole document's outline, read as the bytes are
  // stored (no live analyzer then). A head that names its kind by its own keys (aiperf's
  // inputs.json and server-metrics export, a vLLM result) is believed and streamed live.
  const partial = fromHead.partial && UNSURE_FROM_HEAD.has(detected.kind);
  const liveFile =
    live && !partial && detected.kind !== "unknown"
      ? await live.sink.open({ name, kind: detected.kind, format: detected.format, ord: live.ord })
      : null;
  const body = Readable.from(stream, { objectMode: false });
  let input: Readable = body;
  let side: PassThrough | null = null;
  let fed: Promise<void> = Promise.resolve();
  let outline: Promise<unknown> = Promise.resolve(null);
  if (liveFile || partial) {
    side = new PassThrough({ highWaterMark: 1 << 20 });
    const sideStream = side;
    // Whatever the reader leaves unread is drained, so storing never waits on it.
    const drain = () => {
      if (!sideStream.destroyed) sideStream.resume();
    };
    if (liveFile) fed = liveFile.consume(sideStream).finally(drain);
    else {
      outline = jsonSkeleton(sideStream).catch(() => null);
      fed = outline.then(drain, drain);
    }
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
  const whole = await outline;
  if (whole !== null) {
    const told = detectDocumentKind(whole);
    if (told.kind !== "unknown") detected = told;
  }
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
