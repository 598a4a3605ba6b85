/**
 * Receives a multipart upload and stages every file it contains in the blob store, streaming:
 * request body → multipart parser → (gunzip / tar / zip expansion) → hash + gzip → blob store.
 * The first megabyte of each file decides its kind; with a live sink, a file it can analyse is
 * also handed to it while it is stored, so parsing runs alongside receiving and compressing.
 */
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import Busboy from "busboy";
import { isBlobTooLarge, type BlobStore } from "@/lib/store/blob-store";
import {
  MalformedRequestError,
  RequestError,
  RequestTimeoutError,
  TooLargeError,
  UnsupportedMediaTypeError,
  UnusableContentError,
} from "@/lib/api/request-errors";
import { cleanUploadName } from "./paths";
import { Stager } from "./stager";
import type { LiveSink, ReceivedUpload, UploadLimits } from "./upload-types";

class ByteLimit extends Transform {
  bytes = 0;
  /** The body went past the limit (one sent chunked, without a declared length). */
  crossed = false;
  constructor(private readonly max: number) {
    super();
  }
  _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.max) {
      this.crossed = true;
      return done(new TooLargeError("payload_too_large", `upload exceeds ${this.max} bytes`));
    }
    done(null, chunk);
  }
}

/**
 * How long the rest of a body over the size limit is read and dropped after the 413 has gone out:
 * long enough for a client still sending to read the answer and stop (as nginx's lingering close
 * does), where closing at once would reset the connection under it and lose the answer. Time, not
 * bytes, bounds it: dropped bytes cost no storage.
 */
const LINGER_MS = 30_000;

/**
 * The request body, read as a Node stream that can be let go of without cancelling the body:
 * cancelling could tear the socket down before the answer is written.
 */
class RequestBody {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly stream: Readable;

  constructor(body: ReadableStream<Uint8Array>) {
    const reader = (this.reader = body.getReader());
    this.stream = new Readable({
      read() {
        reader.read().then(
          (r) => {
            if (this.destroyed) return;
            this.push(r.done ? null : Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength));
          },
          (err: unknown) => this.destroy(err instanceof Error ? err : new Error(String(err))),
        );
      },
    });
  }

  /**
   * Reads the rest of the body and drops it, in the background: the answer goes out at once,
   * and the client, still sending, is not reset before it has read it. Past `maxBytes` or `ms`
   * the body is cancelled instead.
   */
  discardRest(maxBytes: number, ms: number | undefined): void {
    const giveUp = () => void this.reader.cancel().catch(() => {});
    const timer = ms === undefined ? undefined : setTimeout(giveUp, Math.max(0, ms));
    timer?.unref();
    (async () => {
      for (let left = maxBytes; ;) {
        const r = await this.reader.read();
        if (r.done) return;
        left -= r.value.byteLength;
        if (left < 0) return giveUp();
      }
    })()
      .catch(() => {})
      .finally(() => clearTimeout(timer));
  }
}

/** The error, marked to close the connection: the rest of its request body will never be read. */
function leavingBodyUnread(err: RequestError): RequestError {
  err.closesConnection = true;
  return err;
}

export async function receiveUpload(
  req: Request,
  blobs: BlobStore,
  limits: UploadLimits,
  sink?: LiveSink,
): Promise<ReceivedUpload> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data"))
    throw new UnsupportedMediaTypeError(
      "unsupported_media_type",
      "send the files as multipart/form-data (one `file` part each)",
    );
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxUploadBytes)
    throw new TooLargeError("payload_too_large", `upload exceeds ${limits.maxUploadBytes} bytes`);
  if (!req.body) throw new MalformedRequestError("empty_body", "the request has no body");

  const stager = new Stager(blobs, limits, sink);
  const fields: ReceivedUpload["fields"] = {};
  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({
      headers: { "content-type": contentType },
      preservePath: true,
      limits: { fieldSize: 64 * 1024, fields: 50, parts: 100_000 },
    });
  } catch {
    throw new MalformedRequestError(
      "bad_multipart",
      "the multipart body could not be read (missing boundary?)",
    );
  }

  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  // Stops parsing the body: on a refused part (the rest of the body changes nothing) or at the
  // timeout. A part held by a reader cannot be drained with `resume()`, so the parser would stall
  // on it, and the answer would wait for a body that is no longer read.
  const halt = new AbortController();
  let timedOut = false;
  let refusedPart = false;
  busboy.on("file", (_field, stream, info) => {
    const name = cleanUploadName(info.filename, `file-${stager.partCount + 1}`);
    stager.partCount++;
    chain = chain.then(async () => {
      if (failure) {
        stream.resume();
        return;
      }
      try {
        await stager.stagePart(name, stream);
      } catch (err) {
        failure ??= err;
        refusedPart = true;
        halt.abort();
      }
    });
  });
  busboy.on("field", (field, value) => {
    if (field === "name") fields.name = value;
    else if (field === "series" || field === "commit" || field === "branch" || field === "order")
      fields[field] = value;
    else if (field === "labels" || field === "label")
      fields.labels = fields.labels ? `${fields.labels},${value}` : value;
  });

  const body = new RequestBody(req.body);
  const limit = new ByteLimit(limits.maxUploadBytes);
  let bodyBroke = false;
  const started = Date.now();
  const timer = limits.uploadTimeoutMs
    ? setTimeout(() => {
        timedOut = true;
        halt.abort();
      }, limits.uploadTimeoutMs)
    : undefined;
  try {
    await pipeline(body.stream, limit, busboy, { signal: halt.signal });
    await chain;
  } catch (err) {
    if (timedOut)
      failure ??= new RequestTimeoutError(
        "upload_timeout",
        `the upload did not arrive within ${Math.round((limits.uploadTimeoutMs ?? 0) / 1000)} s`,
      );
    // A part being staged when the body was cut off may never see its end: do not wait for it forever.
    await Promise.race([chain.catch(() => {}), new Promise((r) => setTimeout(r, 2000).unref())]);
    failure ??= err;
    bodyBroke = true;
  } finally {
    clearTimeout(timer);
  }
  if (failure) {
    await stager.discard();
    const refused = uploadFailure(failure, bodyBroke);
    if (!bodyBroke || !(refused instanceof RequestError)) throw refused;
    // A refused part: the rest of the body is still read (and dropped) within the upload's limits,
    // so the connection ends cleanly. Past the size limit (a part is refused then too) it is read
    // for LINGER_MS, so the client hears the 413 before the connection closes. At the timeout it
    // is not read any more.
    if (!timedOut && (refusedPart || limit.crossed)) {
      const timeLeft = limits.uploadTimeoutMs ? limits.uploadTimeoutMs - (Date.now() - started) : undefined;
      if (limit.crossed) body.discardRest(Infinity, Math.min(LINGER_MS, timeLeft ?? LINGER_MS));
      else body.discardRest(limits.maxUploadBytes - limit.bytes, timeLeft);
      throw refused;
    }
    throw leavingBodyUnread(refused);
  }
  if (stager.files.length === 0) {
    if (stager.warnings.length > 0)
      throw new UnusableContentError("no_usable_files", "every file in the upload was refused", {
        warnings: stager.warnings,
      });
    throw new MalformedRequestError("no_files", "the upload contains no files (send `file` parts)");
  }
  return { files: stager.files, fields, warnings: stager.warnings, suggestedName: stager.suggestedName() };
}

/** Why an upload failed, as the client should hear it. */
function uploadFailure(failure: unknown, bodyBroke: boolean): unknown {
  if (failure instanceof RequestError) return failure;
  if (isBlobTooLarge(failure))
    return new TooLargeError("payload_too_large", "the upload expands beyond the configured limit");
  const msg = failure instanceof Error ? failure.message : String(failure);
  if (/Unexpected end of form|Malformed|boundary/i.test(msg))
    return new MalformedRequestError("bad_multipart", "the multipart body is malformed or truncated");
  // The request body itself failed (the client went away mid-upload): nothing was kept.
  if (bodyBroke)
    return new MalformedRequestError(
      "upload_interrupted",
      "the upload was cut off before its body was complete",
    );
  return failure;
}
