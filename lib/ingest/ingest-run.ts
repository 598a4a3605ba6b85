/**
 * The only writer: turns uploaded files into a run. A run row exists from the start with status
 * `ingesting` (never listed), per-request rows are written in batches as files stream through
 * the analyzers, and one final transaction stores summary, chart payloads and `ready`. Any
 * failure removes the derived rows and leaves a `failed` run whose raw files can be re-ingested.
 *
 * An upload is ingested live: each recognised file is fed to its analyzer while its bytes are
 * being stored (see LiveIngest), so receiving, storing and parsing overlap. Re-ingest reads the
 * stored files back through the same IngestSession.
 */
import type { UploadResponse } from "@/lib/api/schemas";
import type { Kind } from "@/lib/api/kinds";
import type { Format } from "@/lib/formats/kinds";
import type { AppContext } from "@/lib/server/app-context";
import { startHeartbeat } from "@/lib/runs/interrupted-ingest";
import { newFileId, newRunId } from "@/lib/store/ids";
import { sqliteWriterFor } from "@/lib/store/sqlite-writer";
import {
  clearDerived,
  commitRun,
  deleteRun,
  finishUploadCatalog,
  getFiles,
  getRun,
  insertRun,
  markRunStatus,
  unreferenced,
  type FileRow,
} from "@/lib/store/runs-repo";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "./analyzer";
import { createAnalyzers } from "./analyzers";
import { publicMessage, UploadError } from "./errors";
import { mergeCharts, mergeResults, pickBackend, pickRequestCount } from "./merge-results";
import type { LiveFile, LiveSink, ReceivedUpload, StagedFile } from "./upload";
import { AGGREGATOR_VERSION } from "./version";

/**
 * One set of analyzers for questions that need no ingest state (which tables, which files);
 * every ingest makes fresh ones of its own.
 */
let reference: Analyzer[] | null = null;
const referenceAnalyzers = () => (reference ??= createAnalyzers());

/** Every table any analyzer writes rows to (for delete and re-ingest). */
export function analyzerTables(): string[] {
  return [...new Set(referenceAnalyzers().flatMap((a) => a.tables))];
}

export function parseLabels(raw: string | undefined): string[] {
  if (!raw) return [];
  const labels = raw
    .split(",")
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => l.slice(0, 64));
  return [...new Set(labels)].slice(0, 32);
}

export interface IngestOutcome {
  status: "ready" | "failed";
  reports: Map<string, FileReport>;
  warnings: string[];
}

/**
 * One ingest of one run: fresh analyzers, fed file by file in upload order, then one commit.
 * An analyzer that throws fails the whole ingest; later files are no longer analysed.
 */
export class IngestSession {
  readonly reports = new Map<string, FileReport>();
  private readonly analyzers = createAnalyzers();
  private readonly ctx: IngestContext;
  private stopHeartbeat: (() => void) | null = null;
  private failure: unknown = null;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly app: AppContext,
    readonly runId: string,
  ) {
    this.ctx = {
      runId,
      db: app.store.db,
      dialect: app.store.dialect,
      limits: {
        maxLineBytes: app.config.maxLineBytes,
        maxJsonDocumentBytes: app.config.maxJsonDocumentBytes,
      },
    };
  }

  get tables(): string[] {
    return [...new Set(this.analyzers.flatMap((a) => a.tables))];
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Marks the run ingesting, starts its heartbeat and removes rows of an earlier ingest. */
  async begin(): Promise<void> {
    const db = this.app.store.db;
    await markRunStatus(db, this.runId, "ingesting");
    this.stopHeartbeat = startHeartbeat(db, this.runId, this.app.config.ingestStaleMs);
    try {
      await clearDerived(db, this.runId, this.tables);
    } catch (err) {
      this.end();
      throw err;
    }
  }

  /** Streams one file through its analyzer; never throws (a failure is kept for `finish`). */
  ingest(file: IngestFile): Promise<void> {
    this.current = this.ingestOne(file);
    return this.current;
  }

  private async ingestOne(file: IngestFile): Promise<void> {
    if (this.failure) return;
    const analyzer = this.analyzers.find((a) => a.accepts(file));
    if (!analyzer) return;
    try {
      this.reports.set(file.id, await analyzer.ingestFile(file, this.ctx));
    } catch (err) {
      this.failure = err;
    }
  }

  /**
   * Waits for the file being analysed (at most `timeoutMs`) and for every row it handed to the
   * SQLite writer thread, so that removing the run's rows afterwards leaves none behind.
   */
  async settle(timeoutMs = 5000): Promise<void> {
    await Promise.race([this.current, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    await sqliteWriterFor(this.app.store.db)?.idle();
  }

  /** Summarises and commits the run (`ready`), or marks it `failed` after any analyzer failure. */
  async finish(files: FileRow[]): Promise<IngestOutcome> {
    const db = this.app.store.db;
    try {
      if (this.failure) throw this.failure;
      const results: AnalyzerResult[] = [];
      for (const a of this.analyzers) results.push(await a.finish(this.ctx));
      const unknown = files.filter((f) => f.kind === "unknown").map((f) => f.name);
      const notes = unknown.length
        ? [
            `not recognised and stored only: ${unknown.slice(0, 10).join(", ")}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ""}`,
          ]
        : [];
      // Upload-level warnings live on the run row, so a re-ingest repeats them too.
      const run = await getRun(db, this.runId);
      const uploadWarnings = run ? (JSON.parse(run.warnings) as string[]) : [];
      const blocks = mergeResults(results, [...uploadWarnings, ...notes]);
      await commitRun(db, this.runId, {
        blocks,
        backend: pickBackend(blocks, results),
        requestCount: pickRequestCount(blocks, results),
        aggregatorVersion: AGGREGATOR_VERSION,
        charts: mergeCharts(results),
        files: files.map((f) => {
          const r = this.reports.get(f.id);
          return {
            id: f.id,
            records: r?.records ?? 0,
            skipped: r?.skipped ?? 0,
            warnings: JSON.stringify(r?.warnings ?? []),
            meta: JSON.stringify(r?.meta ?? {}),
          };
        }),
      });
      return { status: "ready", reports: this.reports, warnings: blocks.warnings };
    } catch (err) {
      const message = "ingest failed: " + publicMessage(err);
      // The full error (stack, paths) goes to the server log only.
      console.error(`[runlens] run ${this.runId}: ingest failed`, err);
      await this.settle().catch(() => {});
      await clearDerived(db, this.runId, this.tables).catch(() => {});
      await markRunStatus(db, this.runId, "failed", message).catch(() => {});
      return { status: "failed", reports: this.reports, warnings: [message] };
    } finally {
      this.end();
    }
  }

  /** Stops the heartbeat (the run is left as it is). */
  end(): void {
    this.stopHeartbeat?.();
    this.stopHeartbeat = null;
  }
}

/** Re-ingest (and the fallback for uploads not ingested live): reads the run's stored files back. */
export async function ingestRun(app: AppContext, runId: string): Promise<IngestOutcome> {
  const session = new IngestSession(app, runId);
  let files: FileRow[] = [];
  try {
    await session.begin();
    files = await getFiles(app.store.db, runId);
  } catch (err) {
    session.end();
    console.error(`[runlens] run ${runId}: ingest failed`, err);
    await markRunStatus(app.store.db, runId, "failed", "ingest failed: " + publicMessage(err)).catch(
      () => {},
    );
    return { status: "failed", reports: session.reports, warnings: ["ingest failed: " + publicMessage(err)] };
  }
  for (const row of files)
    await session.ingest({
      id: row.id,
      ord: row.ord,
      name: row.name,
      kind: row.kind as Kind,
      format: row.format as Format,
      bytes: row.bytes,
      sha256: row.sha256,
      open: () => app.blobs.open(row.sha256),
    });
  return session.finish(files);
}

/**
 * The upload side of a live ingest: creates the run when the first file an analyzer accepts
 * arrives, and hands that file's bytes to the session while they are stored. Files nobody
 * analyses are only stored. Until `complete`, the run has no file rows (an interrupted upload
 * leaves nothing re-ingestable; the sweeper removes such runs).
 */
export class LiveIngest implements LiveSink {
  private session: IngestSession | null = null;

  constructor(private readonly app: AppContext) {}

  get runId(): string | null {
    return this.session?.runId ?? null;
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

  /** The upload was refused or cut off: the run and every row written for it go. */
  async abandon(): Promise<void> {
    const session = this.session;
    if (!session) return;
    session.end();
    this.session = null;
    await session.settle().catch(() => {});
    await deleteRun(this.app.store.db, session.runId, session.tables).catch(() => {});
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

function runName(upload: ReceivedUpload): string {
  return (upload.fields.name?.trim() || upload.suggestedName).slice(0, 200);
}

function fileRows(runId: string, staged: StagedFile[]): FileRow[] {
  return staged.map((f, ord) => ({
    id: f.id ?? newFileId(),
    run_id: runId,
    ord,
    name: f.name,
    kind: f.kind,
    format: f.format,
    bytes: f.bytes,
    sha256: f.sha256,
    records: 0,
    skipped: 0,
    warnings: "[]",
    meta: "{}",
  }));
}

export async function createRunFromUpload(
  app: AppContext,
  upload: ReceivedUpload,
  live?: LiveIngest,
): Promise<UploadResponse> {
  const recognised = upload.files.filter((f) => f.kind !== "unknown");
  if (recognised.length === 0) {
    await live?.abandon();
    const orphans = await unreferenced(
      app.store.db,
      upload.files.filter((f) => f.created).map((f) => f.sha256),
    );
    for (const sha of orphans) await app.blobs.delete(sha).catch(() => {});
    throw new UploadError(
      422,
      "no_recognized_files",
      "none of the uploaded files is a format Runlens reads",
      {
        files: upload.files.map((f) => ({ name: f.name, kind: f.kind, format: f.format, bytes: f.bytes })),
      },
    );
  }
  let id: string;
  let files: FileRow[];
  let outcome: IngestOutcome;
  if (live?.runId) {
    ({ id, files, outcome } = await live.complete(upload));
  } else {
    id = newRunId();
    files = fileRows(id, upload.files);
    try {
      await insertRun(
        app.store.db,
        {
          id,
          name: runName(upload),
          labels: parseLabels(upload.fields.labels),
          createdAt: Date.now(),
          aggregatorVersion: AGGREGATOR_VERSION,
          warnings: upload.warnings,
        },
        files,
      );
    } catch (err) {
      // No run row means nothing references the blobs this upload created (the store may be locked
      // or away, so this is best effort).
      const created = upload.files.filter((f) => f.created).map((f) => f.sha256);
      const orphans = await unreferenced(app.store.db, created).catch(() => [] as string[]);
      for (const sha of orphans) await app.blobs.delete(sha).catch(() => {});
      throw err;
    }
    outcome = await ingestRun(app, id);
  }
  return {
    id,
    url: `/runs/${id}`,
    status: outcome.status,
    files: files.map((f) => {
      const report = outcome.reports.get(f.id);
      return {
        id: f.id,
        name: f.name,
        kind: f.kind as Kind,
        records: report?.records ?? 0,
        skipped: report?.skipped ?? 0,
        warnings: report?.warnings ?? [],
      };
    }),
    warnings: [...new Set([...upload.warnings, ...outcome.warnings])],
  };
}
