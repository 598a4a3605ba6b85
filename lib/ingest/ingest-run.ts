/**
 * The only writer: turns staged blobs into a run. A run row exists from the start with status
 * `ingesting` (never listed), per-request rows are written in batches as files stream through
 * the analyzers, and one final transaction stores summary, chart payloads and `ready`. Any
 * failure removes the derived rows and leaves a `failed` run whose raw files can be re-ingested.
 */
import type { UploadResponse } from "@/lib/api/schemas";
import type { Format, Kind } from "@/lib/formats/kinds";
import type { AppContext } from "@/lib/server/app-context";
import { startHeartbeat } from "@/lib/runs/interrupted-ingest";
import { newFileId, newRunId } from "@/lib/store/ids";
import {
  clearDerived,
  commitRun,
  getFiles,
  getRun,
  insertRun,
  markRunStatus,
  unreferenced,
  type FileRow,
} from "@/lib/store/runs-repo";
import type { AnalyzerResult, FileReport, IngestContext, IngestFile } from "./analyzer";
import { createAnalyzers } from "./analyzers";
import { publicMessage, UploadError } from "./errors";
import { mergeCharts, mergeResults, pickBackend, pickRequestCount } from "./merge-results";
import type { ReceivedUpload } from "./upload";
import { AGGREGATOR_VERSION } from "./version";

/** Every table any analyzer writes rows to (for delete and re-ingest). */
export function analyzerTables(): string[] {
  return [...new Set(createAnalyzers().flatMap((a) => a.tables))];
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

export async function createRunFromUpload(app: AppContext, upload: ReceivedUpload): Promise<UploadResponse> {
  const recognised = upload.files.filter((f) => f.kind !== "unknown");
  if (recognised.length === 0) {
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
  const id = newRunId();
  const name = (upload.fields.name?.trim() || upload.suggestedName).slice(0, 200);
  const files: FileRow[] = upload.files.map((f, ord) => ({
    id: newFileId(),
    run_id: id,
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
  try {
    await insertRun(
      app.store.db,
      {
        id,
        name,
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
  const outcome = await ingestRun(app, id);
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

export interface IngestOutcome {
  status: "ready" | "failed";
  reports: Map<string, FileReport>;
  warnings: string[];
}

export async function ingestRun(app: AppContext, runId: string): Promise<IngestOutcome> {
  const db = app.store.db;
  const analyzers = createAnalyzers();
  const tables = [...new Set(analyzers.flatMap((a) => a.tables))];
  const ctx: IngestContext = {
    runId,
    db,
    dialect: app.store.dialect,
    limits: { maxLineBytes: app.config.maxLineBytes, maxJsonDocumentBytes: app.config.maxJsonDocumentBytes },
  };
  const reports = new Map<string, FileReport>();
  await markRunStatus(db, runId, "ingesting");
  const stopHeartbeat = startHeartbeat(db, runId, app.config.ingestStaleMs);
  try {
    await clearDerived(db, runId, tables);
    const files = await getFiles(db, runId);
    for (const row of files) {
      const file: IngestFile = {
        id: row.id,
        ord: row.ord,
        name: row.name,
        kind: row.kind as Kind,
        format: row.format as Format,
        bytes: row.bytes,
        sha256: row.sha256,
        open: () => app.blobs.open(row.sha256),
      };
      const analyzer = analyzers.find((a) => a.accepts(file));
      if (!analyzer) continue;
      reports.set(row.id, await analyzer.ingestFile(file, ctx));
    }
    const results: AnalyzerResult[] = [];
    for (const a of analyzers) results.push(await a.finish(ctx));
    const unknown = files.filter((f) => f.kind === "unknown").map((f) => f.name);
    const notes = unknown.length
      ? [
          `not recognised and stored only: ${unknown.slice(0, 10).join(", ")}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ""}`,
        ]
      : [];
    // Upload-level warnings live on the run row, so a re-ingest repeats them too.
    const run = await getRun(db, runId);
    const uploadWarnings = run ? (JSON.parse(run.warnings) as string[]) : [];
    const blocks = mergeResults(results, [...uploadWarnings, ...notes]);
    await commitRun(db, runId, {
      blocks,
      backend: pickBackend(blocks, results),
      requestCount: pickRequestCount(blocks, results),
      aggregatorVersion: AGGREGATOR_VERSION,
      charts: mergeCharts(results),
      files: files.map((f) => {
        const r = reports.get(f.id);
        return {
          id: f.id,
          records: r?.records ?? 0,
          skipped: r?.skipped ?? 0,
          warnings: JSON.stringify(r?.warnings ?? []),
          meta: JSON.stringify(r?.meta ?? {}),
        };
      }),
    });
    return { status: "ready", reports, warnings: blocks.warnings };
  } catch (err) {
    const message = "ingest failed: " + publicMessage(err);
    // The full error (stack, paths) goes to the server log only.
    console.error(`[runlens] run ${runId}: ingest failed`, err);
    await clearDerived(db, runId, tables).catch(() => {});
    await markRunStatus(db, runId, "failed", message).catch(() => {});
    return { status: "failed", reports, warnings: [message] };
  } finally {
    stopHeartbeat();
  }
}
