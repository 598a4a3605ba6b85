/**
 * Stages the files of one upload part by part: plain files, .gz, .tar(.gz) and .zip archives
 * (expanded entry by entry, within the upload's entry and size limits).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import yauzl from "yauzl";
import { isBlobTooLarge, type BlobStore } from "@/lib/store/blob-store";
import { RequestError, TooLargeError, UnusableContentError } from "@/lib/api/request-errors";
import { archiveStem, cleanUploadName, isJunkEntry, isUnsafeArchivePath, stripGzSuffix } from "./paths";
import { peek } from "./peek";
import { gunzipChunks, isGzip, isTar, isZip } from "./sniff";
import { stageStream } from "./stage-stream";
import type { LiveSink, StagedFile, UploadLimits } from "./upload-types";

/** Tar entries that are not regular files, by what a warning calls them (directories pass silently). */
const SKIPPED_TAR_TYPES: Partial<Record<string, string>> = {
  symlink: "symbolic link",
  link: "hard link",
  "character-device": "character device",
  "block-device": "block device",
  fifo: "fifo",
};

export class Stager {
  files: StagedFile[] = [];
  warnings: string[] = [];
  partCount = 0;
  private entries = 0;
  private expanded = 0;
  private firstPartName: string | null = null;
  private archiveName: string | null = null;

  private readonly warn = (message: string) => void this.warnings.push(message);

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
    return this.stageTarOrFile(name, head, body, { prefix: "", inArchive: false });
  }

  /**
   * A part, or a zip's entry, that may be a .gz, a tar or a .tar.gz: a tar is expanded (its
   * entries named under `prefix`, never expanding a tar inside it in turn), anything else is
   * staged as one file, gunzipped if need be.
   */
  private async stageTarOrFile(
    name: string,
    head: Buffer,
    body: AsyncIterable<Buffer>,
    at: { prefix: string; inArchive: boolean },
  ): Promise<void> {
    const gz = isGzip(head);
    const inner = gz
      ? await peek(gunzipChunks(body, name, this.warn, this.limits.maxExpansionRatio), 512)
      : { head, stream: body };
    if (isTar(inner.head)) {
      if (!at.inArchive) this.archiveName ??= name;
      return this.stageTar(Readable.from(inner.stream), at.prefix);
    }
    // Plain parts count toward the same file limit as archive entries: 100,000 tiny parts are a bomb too.
    if (!at.inArchive) this.countEntry();
    return this.stageFile(gz ? stripGzSuffix(name) : name, Readable.from(inner.stream), gz || at.inArchive);
  }

  private countEntry(): void {
    this.entries++;
    if (this.entries > this.limits.maxArchiveEntries)
      throw new TooLargeError(
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
      this.sink?.lease,
    );
    if (expanded) this.expanded += staged.bytes;
    this.files.push(staged);
  }

  private async stageTar(source: Readable, prefix = ""): Promise<void> {
    const extract = tar.extract();
    const done = pipeline(source, extract);
    // The loop below sees the same failure; keep the pipeline's copy from going unhandled.
    done.catch(() => {});
    try {
      await this.walkTar(extract, prefix);
      await done;
    } catch (err) {
      if (err instanceof RequestError || isBlobTooLarge(err)) throw err;
      throw new UnusableContentError("bad_archive", "the tar archive is truncated or damaged");
    }
  }

  private async walkTar(extract: tar.Extract, prefix: string): Promise<void> {
    for await (const entry of extract) {
      const h = entry.header;
      if (h.type !== "file" && h.type !== "contiguous-file") {
        // Only regular files hold bytes to read; a link's target is not followed, in or out of the archive.
        const what = h.type && SKIPPED_TAR_TYPES[h.type];
        if (what) this.warnings.push(`skipped archive entry that is a ${what}: ${h.name.slice(0, 200)}`);
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
      await this.stageMaybeGz(cleanUploadName(prefix + h.name, "entry"), entry as unknown as Readable);
    }
  }

  private async stageMaybeGz(name: string, stream: Readable): Promise<void> {
    const { head, stream: body } = await peek(stream, 2);
    if (isGzip(head))
      return this.stageFile(
        stripGzSuffix(name),
        Readable.from(gunzipChunks(body, name, this.warn, this.limits.maxExpansionRatio)),
        true,
      );
    return this.stageFile(name, Readable.from(body), true);
  }

  private async stageZip(name: string, body: AsyncIterable<Buffer>): Promise<void> {
    // Zip's directory sits at the end, so the archive is spooled to a temp file first.
    const tmp = path.join(os.tmpdir(), `runlens-${randomUUID()}.zip`);
    try {
      await pipeline(Readable.from(body), fs.createWriteStream(tmp));
      const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
        // decodeStrings off: yauzl would abort the whole archive on one unsafe name; we skip that entry instead.
        yauzl.open(
          tmp,
          { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: false },
          (err, z) =>
            err || !z
              ? reject(new UnusableContentError("bad_archive", `${name} is not a readable zip archive`))
              : resolve(z),
        ),
      );
      try {
        await this.walkZip(zip);
      } catch (err) {
        if (err instanceof RequestError || isBlobTooLarge(err)) throw err;
        throw new UnusableContentError("bad_archive", "the zip archive is damaged");
      } finally {
        zip.close();
      }
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  /**
   * The central directory states the entry count and every entry's size: a bomb is refused
   * before any entry is expanded. Sizes can lie, so each entry is also held to what is left of
   * the limit while it expands (stageFile).
   */
  private async walkZip(zip: yauzl.ZipFile): Promise<void> {
    if (this.entries + zip.entryCount > this.limits.maxArchiveEntries)
      throw new TooLargeError(
        "archive_too_many_entries",
        `an upload may hold at most ${this.limits.maxArchiveEntries} files, archive entries included`,
      );
    const kept: Array<{ entry: yauzl.Entry; fileName: string }> = [];
    let declared = 0;
    for (const entry of await zipDirectory(zip)) {
      const raw = entry.fileName as unknown as Buffer;
      // Bit 11: the name is UTF-8; otherwise CP437, whose ASCII range is all a path needs.
      const fileName = raw.toString((entry.generalPurposeBitFlag & 0x800) !== 0 ? "utf8" : "latin1");
      if (fileName.endsWith("/")) continue;
      this.countEntry();
      if (isUnsafeArchivePath(fileName)) {
        this.warnings.push(`skipped archive entry with an unsafe path: ${fileName.slice(0, 200)}`);
        continue;
      }
      if (isJunkEntry(fileName)) continue;
      declared += entry.uncompressedSize;
      kept.push({ entry, fileName });
    }
    if (this.expanded + declared > this.limits.maxExpandedBytes)
      throw new TooLargeError("payload_too_large", "the archive expands beyond the configured limit");
    for (const { entry, fileName } of kept) {
      const stream = await new Promise<Readable>((res, rej) =>
        zip.openReadStream(entry, (err, s) => (err || !s ? rej(err ?? new Error("zip entry")) : res(s))),
      );
      const entryName = cleanUploadName(fileName, "entry");
      const { head, stream: body } = await peek(stream, 512);
      // A tar (or .tar.gz) inside the zip is expanded, its entries named under its own stem.
      const dir = entryName.slice(0, entryName.lastIndexOf("/") + 1);
      const prefix = `${dir}${archiveStem(stripGzSuffix(entryName))}/`;
      await this.stageTarOrFile(entryName, head, body, { prefix, inArchive: true });
    }
  }

  /**
   * The upload is refused: removes the blobs it created unless another run or upload uses them
   * meanwhile (the store's locked check), and lets go of the rest.
   */
  async discard(): Promise<void> {
    if (this.sink?.lease) return this.sink.lease.abandon();
    await this.blobs.removeUnused(this.files.filter((f) => f.created).map((f) => f.sha256));
  }
}

/** Every entry of a zip's central directory, read without expanding any. */
function zipDirectory(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    // A damaged directory rejects here. The listener stays so that no later error goes unhandled:
    // the entry streams report their own.
    zip.on("error", reject);
    zip.readEntry();
  });
}
