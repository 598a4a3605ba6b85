import type { SummaryBlocks, UploadResponse } from "@/lib/api/schemas";
import type { Kind } from "@/lib/api/kinds";
import { newRunId } from "@/lib/store/ids";
import { getRun, insertRun, updateRunMeta, type FileRow } from "@/lib/store/runs-repo";
import type { IngestDeps } from "./deps";
import { UnusableContentError } from "@/lib/api/request-errors";
import { ingestRun, type IngestOutcome } from "./ingest-run";
import type { LiveIngest } from "./live-ingest";
import { rowFacts } from "@/lib/store/run-facts";
import { defaultRunName, nameFacts } from "./run-name";
import { fileRows, parseLabels, runName } from "./run-rows";
import type { ReceivedUpload } from "./upload-types";
import { AGGREGATOR_VERSION } from "./version";

/**
 * Turns a received upload into a run: completes the live ingest when one started, else creates
 * the run and ingests its stored files; refuses an upload with no file Runlens reads.
 */
export async function createRunFromUpload(
  app: IngestDeps,
  upload: ReceivedUpload,
  live?: LiveIngest,
  /** Called with the new run's id once its row exists, before its stored files are read */
  onRun?: (id: string) => Promise<void>,
): Promise<UploadResponse> {
  try {
    return await createRun(app, upload, live, onRun);
  } finally {
    // Committed file rows hold the blobs now, or the upload was dropped: the lease has no more use.
    await live?.releaseLease();
  }
}

async function createRun(
  app: IngestDeps,
  upload: ReceivedUpload,
  live?: LiveIngest,
  onRun?: (id: string) => Promise<void>,
): Promise<UploadResponse> {
  // The blobs this upload created go unless another run or upload uses them (best effort: the
  // store may be locked or away, and the collector removes what stays).
  const drop = async () => {
    if (live) await live.abandon();
    else await app.blobs.removeUnused(upload.files.filter((f) => f.created).map((f) => f.sha256));
  };
  const recognised = upload.files.filter((f) => f.kind !== "unknown");
  if (recognised.length === 0) {
    await drop();
    throw new UnusableContentError(
      "no_recognized_files",
      "none of the uploaded files is a format Runlens reads",
      {
        files: upload.files.map((f) => ({ name: f.name, kind: f.kind, format: f.format, bytes: f.bytes })),
      },
    );
  }
  // A tool's console output says what it printed of a result: alone it is no run (its run would
  // have no figure but those printed, and an all-failed run prints 0.00 for what it never measured).
  if (recognised.every((f) => f.kind === "bench-console")) {
    await drop();
    throw new UnusableContentError(
      "no_recognized_files",
      "console output of a benchmark tool alone is not a run: upload it beside the tool's result file (vLLM --save-result JSON, SGLang --output-file JSONL, GuideLLM report), whose numbers it is matched to",
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
      await drop();
      throw err;
    }
    await live?.releaseLease();
    await onRun?.(id);
    outcome = await ingestRun(app, id);
  }
  if (outcome.status === "ready" && !upload.fields.name?.trim())
    await nameFromContent(app, id, upload.suggestedName);
  return uploadResponse(id, files, outcome, upload.warnings);
}

/** What the upload route answers for one run: its files' reports and every warning once. */
export function uploadResponse(
  id: string,
  files: FileRow[],
  outcome: IngestOutcome,
  uploadWarnings: string[],
): UploadResponse {
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
        ...(report?.meta ? { meta: report.meta } : {}),
      };
    }),
    warnings: [...new Set([...uploadWarnings, ...outcome.warnings])],
    summaryReadyAt: isoOrNull(outcome.summaryReadyAt),
    drilldownReadyAt: isoOrNull(outcome.drilldownReadyAt),
  };
}

/**
 * What the upload route answers for an upload made into several runs: the first run's answer,
 * every warning once, the sweep that links them when there is one, and each run by its folder.
 */
export function severalRunsResponse(
  made: UploadResponse[],
  folders: string[],
  warnings: string[],
  sweepId: string | null,
): UploadResponse {
  return {
    ...made[0],
    warnings: [...new Set(warnings)],
    ...(sweepId ? { sweep: { id: sweepId, url: `/sweeps/${sweepId}` } } : {}),
    runs: made.map((r, i) => ({
      id: r.id,
      url: r.url,
      folder: folders[i],
      status: r.status,
      summaryReadyAt: r.summaryReadyAt,
      drilldownReadyAt: r.drilldownReadyAt,
    })),
  };
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * A run the uploader did not name is named for what it measured once its files are read
 * (`defaultRunName`); best effort: the upload's own default stays when the rename fails.
 */
export async function nameFromContent(app: IngestDeps, id: string, fallback: string): Promise<void> {
  try {
    const row = await getRun(app.store.db, id);
    if (!row?.summary) return;
    const blocks = JSON.parse(row.summary) as SummaryBlocks;
    const facts = nameFacts(rowFacts(row), blocks, row.backend, row.request_count);
    const name = defaultRunName(facts, fallback);
    if (name !== row.name) await updateRunMeta(app.store.db, id, { name });
  } catch (err) {
    console.error(`[runlens] run ${id}: default name not set`, err);
  }
}
