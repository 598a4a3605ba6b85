import type { Kind } from "@/lib/api/kinds";
import type { Format } from "@/lib/formats/kinds";
import type { BlobLease } from "@/lib/store/blob-leases";
import { newFileId, newRunId } from "@/lib/store/ids";
import { deleteRun, finishUploadCatalog, insertRun, type FileRow } from "@/lib/store/runs-repo";
import type { FileReport, IngestFile } from "./analyzer";
import { referenceAnalyzers } from "./analyzers";
import type { IngestDeps } from "./deps";
import { ingestRun, IngestSession, type IngestOutcome } from "./ingest-run";
import { fileRows, parseLabels, runName } from "./run-rows";
import type { LiveFile, LiveSink, ReceivedUpload } from "./upload-types";
import { AGGREGATOR_VERSION } from "./version";

/**
 * The upload side of a live ingest: creates the run when the first file an analyzer accepts
 * arrives, and hands that file's bytes to the session while they are stored. Files nobody
 * analyses are only stored. Until `complete`, the run has no file rows (an interrupted upload
 * leaves nothing re-ingestable; the sweeper removes such runs). The upload's blob lease keeps
 * the blobs it stores from being deleted until then.
 */
export class LiveIngest implements LiveSink {
  private session: IngestSession | null = null;
  readonly lease: BlobLease;
  /** A lease handed in is the caller's (one upload making several runs): released by it, not here. */
  private readonly ownsLease: boolean;

  constructor(
    private readonly app: IngestDeps,
    sharedLease?: BlobLease,
  ) {
    this.lease = sharedLease ?? app.blobs.lease(app.config.ingestStaleMs);
    this.ownsLease = !sharedLease;
  }

  get runId(): string | null {
    return this.session?.runId ?? null;
  }

  /** What the analyzers reported of each file read so far (by file id); empty when the ingest failed. */
  get reports(): ReadonlyMap<string, FileReport> {
    return this.session && !this.session.failed ? this.session.reports : new Map();
  }

  async open(file: { name: string; kind: Kind; format: Format; ord: number }): Promise<LiveFile | null> {
    if (this.session?.failed) return null;
    const id = newFileId();
    let stream: import("node:stream").Readable | null = null;
    const ingestFile: IngestFile = {
      id,
      ord: file.ord,
      name: file.name,
      kind: file.kind,
      format: file.format,
      bytes: 0,
      // Unknown until stored; a unique stand-in never matches another file (duplicates replay, see complete).
      sha256: `pending:${id}`,
      open: async () => {
        if (!stream) throw new Error("live file opened before its bytes arrived");
        const s = stream;
        stream = null;
        return s;
      },
    };
    if (!referenceAnalyzers().some((a) => a.accepts(ingestFile))) return null;
    const session = await this.ensureSession(file.name);
    return {
      id,
      consume: (bytes) => {
        stream = bytes;
        return session.ingest(ingestFile);
      },
    };
  }

  private async ensureSession(firstName: string): Promise<IngestSession> {
    if (this.session) return this.session;
    const id = newRunId();
    await insertRun(
      this.app.store.db,
      {
        id,
        name: firstName.slice(0, 200),
        labels: [],
        createdAt: Date.now(),
        aggregatorVersion: AGGREGATOR_VERSION,
      },
      [],
    );
    const session = new IngestSession(this.app, id);
    try {
      await session.begin();
    } catch (err) {
      await deleteRun(this.app.store.db, id, session.tables).catch(() => {});
      throw err;
    }
    this.session = session;
    return session;
  }

  /**
   * The upload was refused or cut off: the run and every row written for it go, and so do the
   * blobs it created unless another run or upload uses them.
   */
  async abandon(): Promise<void> {
    const session = this.session;
    if (session) {
      session.end();
      this.session = null;
      await session.settle().catch(() => {});
      await deleteRun(this.app.store.db, session.runId, session.tables).catch(() => {});
    }
    if (this.ownsLease) await this.lease.abandon();
  }

  /** Lets go of the upload's hold on its blobs, unless the lease is the caller's. */
  async releaseLease(): Promise<void> {
    if (this.ownsLease) await this.lease.release().catch(() => {});
  }

  /** All files are stored: writes their catalog rows and commits the run. */
  async complete(upload: ReceivedUpload): Promise<{ id: string; files: FileRow[]; outcome: IngestOutcome }> {
    const session = this.session!;
    const files = fileRows(session.runId, upload.files);
    try {
      await finishUploadCatalog(this.app.store.db, session.runId, {
        name: runName(upload),
        labels: parseLabels(upload.fields.labels),
        warnings: upload.warnings,
        files,
      });
    } catch (err) {
      await this.abandon();
      throw err;
    }
    // The file rows now hold the blobs.
    await this.releaseLease();
    // Analyzers skip a file identical to an earlier one by its hash, which a live file does not
    // have yet: an upload holding such a pair is ingested again from the stored files.
    const hashes = new Set(upload.files.map((f) => f.sha256));
    if (hashes.size < upload.files.length) {
      session.end();
      return { id: session.runId, files, outcome: await ingestRun(this.app, session.runId) };
    }
    return { id: session.runId, files, outcome: await session.finish(files) };
  }
}
