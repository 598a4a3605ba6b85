/**
 * Receives a multipart upload and stages every file it contains in the blob store, streaming:
 * request body → multipart parser → (gunzip / tar / zip expansion) → hash + gzip → blob store.
 * The first megabyte of each file decides its kind; with a live sink, a file it can analyse is
 * also handed to it while it is stored, so parsing runs alongside receiving and compressing.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import Busboy from "busboy";
import tar from "tar-stream";
import yauzl from "yauzl";
import { detectKind, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import type { Kind } from "@/lib/api/kinds";
import type { Format } from "@/lib/formats/kinds";
import { BlobTooLargeError, type BlobStore } from "@/lib/store/blob-store";
import { UploadError } from "./errors";
import { peek } from "./peek";
import { archiveStem, cleanUploadName, isJunkEntry, isUnsafeArchivePath, stripGzSuffix } from "./paths";

export interface StagedFile {
  name: string;
  sha256: string;
  bytes: number;
  kind: Kind;
  format: Format;
  /** The blob did not exist before this upload (deleted again if the upload is refused). */
  created: boolean;
  /** File id given by the live sink that analysed it on arrival */
  id?: string;
}

/** A file the live sink analyses: its id, and the consumer of its (decompressed) bytes. */
export interface LiveFile {
  id: string;
  /** Reads the stream to its end (or gives up on it); never rejects. */
  consume(bytes: Readable): Promise<void>;
}

/** Where recognised files go while they are stored (see LiveIngest). */
export interface LiveSink {
  open(file: { name: string; kind: Kind; format: Format; ord: number }): Promise<LiveFile | null>;
}

export interface UploadLimits {
  maxUploadBytes: number;
  /** The whole body must arrive within this time (a stalled or trickling client is cut off). */
  uploadTimeoutMs?: number;
  maxArchiveEntries: number;
  maxExpandedBytes: number;
}

export interface ReceivedUpload {
  files: StagedFile[];
  fields: { name?: string; labels?: string };
  warnings: string[];
  /** A default run name from the upload itself (archive or folder name, or the first file). */
  suggestedName: string;
}

class ByteLimit extends Transform {
  bytes = 0;
  constructor(private readonly max: number) {
    super();
  }
  _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.max)
      return done(new UploadError(413, "payload_too_large", `upload exceeds ${this.max} bytes`));
    done(null, chunk);
  }
}

export async function receiveUpload(
  req: Request,
  blobs: BlobStore,
  limits: UploadLimits,
  sink?: LiveSink,
): Promise<ReceivedUpload> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data"))
    throw new UploadError(
      415,
      "unsupported_media_type",
      "send the files as multipart/form-data (one `file` part each)",
    );
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxUploadBytes)
    throw new UploadError(413, "payload_too_large", `upload exceeds ${limits.maxUploadBytes} bytes`);
  if (!req.body) throw new UploadError(400, "empty_body", "the request has no body");

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
    throw new UploadError(400, "bad_multipart", "the multipart body could not be read (missing boundary?)");
  }

  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
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
        stream.resume();
      }
    });
  });
  busboy.on("field", (field, value) => {
    if (field === "name") fields.name = value;
    else if (field === "labels" || field === "label")
      fields.labels = fields.labels ? `${fields.labels},${value}` : value;
  });

  const limit = new ByteLimit(limits.maxUploadBytes);
  let bodyBroke = false;
  const timeout = new AbortController();
  const timer = limits.uploadTimeoutMs
    ? setTimeout(() => timeout.abort(), limits.uploadTimeoutMs)
    : undefined;
  try {
    await pipeline(Readable.fromWeb(req.body as import("node:stream/web").ReadableStream), limit, busboy, {
      signal: timeout.signal,
    });
    await chain;
  } catch (err) {
    if (timeout.signal.aborted)
      failure ??= new UploadError(
        408,
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
    if (failure instanceof UploadError) throw failure;
    if (failure instanceof BlobTooLargeError)
      throw new UploadError(413, "payload_too_large", "the upload expands beyond the configured limit");
    const msg = failure instanceof Error ? failure.message : String(failure);
    if (/Unexpected end of form|Malformed|boundary/i.test(msg))
      throw new UploadError(400, "bad_multipart", "the multipart body is malformed or truncated");
    // The request body itself failed (the client went away mid-upload): nothing was kept.
    if (bodyBroke)
      throw new UploadError(400, "upload_interrupted", "the upload was cut off before its body was complete");
    throw failure;
  }
  if (stager.files.length === 0) {
    if (stager.warnings.length > 0)
      throw new UploadError(422, "no_usable_files", "every file in the upload was refused", {
        warnings: stager.warnings,
      });
    throw new UploadError(400, "no_files", "the upload contains no files (send `file` parts)");
  }
  return { files: stager.files, fields, warnings: stager.warnings, suggestedName: stager.suggestedName() };
}

class Stager {
  files: StagedFile[] = [];
  warnings: string[] = [];
  partCount = 0;
  private entries = 0;
  private expanded = 0;
  private firstPartName: string | null = null;
  private archiveName: string | null = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly limits: UploadLimits,
    private readonly sink?: LiveSink,
  ) {}

  suggestedName(): string {
    if (this.archiveName) return archiveStem(this.archiveName);
    const first = this.firstPartName ?? "upload";
    const parts = first.split("/");
    return parts.length > 1 ? parts[0] : first;
  }

  /** One multipart file part: a plain file, a .gz, a .tar(.gz) or a .zip. */
  async stagePart(name: string, stream: Readable): Promise<void> {
    this.firstPartName ??= name;
    const { head, stream: body } = await peek(stream, 512);
    if (isZip(head)) {
      this.archiveName ??= name;
      return this.stageZip(name, body);
    }
    if (isGzip(head)) {
      const inner = await peek(gunzipChunks(body, name), 512);
      if (isTar(inner.head)) {
        this.archiveName ??= name;
        return this.stageTar(Readable.from(inner.stream));
      }
      this.countEntry();
      return this.stageFile(stripGzSuffix(name), Readable.from(inner.stream), true);
    }
    if (isTar(head)) {
      this.archiveName ??= name;
      return this.stageTar(Readable.from(body));
    }
    // Plain parts count toward the same file limit as archive entries: 100,000 tiny parts are a bomb too.
    this.countEntry();
    return this.stageFile(name, Readable.from(body), false);
  }

  private countEntry(): void {
    this.entries++;
    if (this.entries > this.limits.maxArchiveEntries)
      throw new UploadError(
        413,
        "archive_too_many_entries",
        `an upload may hold at most ${this.limits.maxArchiveEntries} files, archive entries included`,
      );
  }

  async stageFile(name: string, source: Readable, expanded: boolean): Promise<void> {
    const budget = this.limits.maxExpandedBytes - this.expanded;
    const staged = await stageStream(
      this.blobs,
      name,
      source,
      expanded ? budget : undefined,
      this.sink && { sink: this.sink, ord: this.files.length },
    );
    if (expanded) this.expanded += staged.bytes;
    this.files.push(staged);
  }

  private async stageTar(source: Readable): Promise<void> {
    const extract = tar.extract();
    const done = pipeline(source, extract);
    // The loop below sees the same failure; keep the pipeline's copy from going unhandled.
    done.catch(() => {});
    try {
      await this.walkTar(extract);
      await done;
    } catch (err) {
      if (err instanceof UploadError || err instanceof BlobTooLargeError) throw err;
      throw new UploadError(422, "bad_archive", "the tar archive is truncated or damaged");
    }
  }

  private async walkTar(extract: tar.Extract): Promise<void> {
    for await (const entry of extract) {
      const h = entry.header;
      if (h.type !== "file" && h.type !== "contiguous-file") {
        entry.resume();
        continue;
      }
      this.countEntry();
      if (isUnsafeArchivePath(h.name)) {
        this.warnings.push(`skipped archive entry with an unsafe path: ${h.name.slice(0, 200)}`);
        entry.resume();
        continue;
      }
      if (isJunkEntry(h.name)) {
        entry.resume();
        continue;
      }
      await this.stageMaybeGz(cleanUploadName(h.name, "entry"), entry as unknown as Readable);
    }
  }

  private async stageMaybeGz(name: string, stream: Readable): Promise<void> {
    const { head, stream: body } = await peek(stream, 2);
    if (isGzip(head))
      return this.stageFile(stripGzSuffix(name), Readable.from(gunzipChunks(body, name)), true);
    return this.stageFile(name, Readable.from(body), true);
  }

  private async stageZip(name: string, body: AsyncIterable<Buffer>): Promise<void> {
    // Zip's directory sits at the end, so the archive is spooled to a temp file first.
    const tmp = path.join(os.tmpdir(), `runlens-${randomUUID()}.zip`);
    try {
      await pipeline(Readable.from(body), fs.createWriteStream(tmp));
      const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
        // decodeStrings off: yauzl would abort the whole archive on one unsafe name; we skip that entry instead.
        yauzl.open(tmp, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false }, (err, z) =>
          err || !z
            ? reject(new UploadError(422, "bad_archive", `${name} is not a readable zip archive`))
            : resolve(z),
        ),
      );
      // The central directory states the entry count: refuse a bomb before staging any entry.
      if (this.entries + zip.entryCount > this.limits.maxArchiveEntries) {
        zip.close();
        throw new UploadError(
          413,
          "archive_too_many_entries",
          `an upload may hold at most ${this.limits.maxArchiveEntries} files, archive entries included`,
        );
      }
      try {
        await this.walkZip(zip);
      } finally {
        zip.close();
      }
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  private walkZip(zip: yauzl.ZipFile): Promise<void> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        reject(
          err instanceof UploadError || err instanceof BlobTooLargeError
            ? err
            : new UploadError(422, "bad_archive", "the zip archive is damaged"),
        );
      };
      zip.on("error", fail);
      zip.on("end", () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      });
      zip.on("entry", (entry: yauzl.Entry) => {
        (async () => {
          const raw = entry.fileName as unknown as Buffer;
          // Bit 11: the name is UTF-8; otherwise CP437, whose ASCII range is all a path needs.
          const fileName = raw.toString((entry.generalPurposeBitFlag & 0x800) !== 0 ? "utf8" : "latin1");
          if (fileName.endsWith("/")) return;
          this.countEntry();
          if (isUnsafeArchivePath(fileName)) {
            this.warnings.push(`skipped archive entry with an unsafe path: ${fileName.slice(0, 200)}`);
            return;
          }
          if (isJunkEntry(fileName)) return;
          if (this.expanded + entry.uncompressedSize > this.limits.maxExpandedBytes)
            throw new UploadError(
              413,
              "payload_too_large",
              "the archive expands beyond the configured limit",
            );
          const stream = await new Promise<Readable>((res, rej) =>
            zip.openReadStream(entry, (err, s) => (err || !s ? rej(err ?? new Error("zip entry")) : res(s))),
          );
          await this.stageMaybeGz(cleanUploadName(fileName, "entry"), stream);
        })().then(() => zip.readEntry(), fail);
      });
      zip.readEntry();
    });
  }

  /** Removes blobs this upload created, when the upload is refused (unless another run uses them meanwhile). */
  async discard(): Promise<void> {
    for (const f of this.files) if (f.created) await this.blobs.delete(f.sha256).catch(() => {});
  }
}

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
    put = await blobs.put(input, maxBytes === undefined ? {} : { maxBytes });
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
    if (err instanceof UploadError || err instanceof BlobTooLargeError) throw err;
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
