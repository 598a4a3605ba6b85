/**
 * One uploaded file holding several benchmarks (docs/formats.md §Benchmark tools: an SGLang
 * concurrency sweep, a GuideLLM rate sweep, vLLM `--append-result` lines or a sweep
 * `summary.json`) becomes one run per benchmark and a sweep linking them in file order, as a
 * folder per load does (create-runs.ts). The upload's own run keeps the first benchmark; every
 * other benchmark is a run over the same stored files (no blob is copied) whose copy of the file
 * row says which benchmark is its (`part`, lib/store/file-part.ts), so a re-ingest reads the same
 * one. Each run's facts carry the concurrency or rate its benchmark states.
 *
 * Only an upload whose benchmarks all sit in one file is split: several result files (a vLLM
 * sweep folder holds each run twice, in `run=N.json` and in `summary.json`) stay one run that
 * says how many benchmarks it left out.
 */
import type { UploadResponse } from "@/lib/api/schemas";
import { setFilePart } from "@/lib/store/file-part";
import { newFileId, newRunId } from "@/lib/store/ids";
import { deleteRun, getFiles, getRun, insertRun, type FileRow } from "@/lib/store/runs-repo";
import { insertSweep } from "@/lib/store/sweeps-repo";
import { analyzerTables } from "./analyzers";
import { nameFromContent, uploadResponse } from "./create-run";
import type { IngestDeps } from "./deps";
import { ingestRun } from "./ingest-run";
import { parseLabels, runName } from "./run-rows";
import type { ReceivedUpload } from "./upload-types";
import { AGGREGATOR_VERSION } from "./version";

interface FileMeta {
  benchmarks?: unknown;
  part?: unknown;
}

const metaOf = (f: FileRow): FileMeta => {
  try {
    return JSON.parse(f.meta) as FileMeta;
  } catch {
    return {};
  }
};

/**
 * Most benchmarks one file is split into. Every run re-reads the file, so a file of thousands of
 * lines (appended results of a long CI history) stays one run that says what it left out.
 */
export const MAX_SPLIT_BENCHMARKS = 64;

/** The one file to split and its benchmark count, or null when the run is not a split case. */
export function fileToSplit(files: FileRow[]): { file: FileRow; count: number } | null {
  const holding = files
    .map((file) => ({ file, meta: metaOf(file) }))
    .filter(({ meta }) => typeof meta.benchmarks === "number" && meta.benchmarks > 0);
  if (holding.length !== 1 || holding[0].meta.part !== undefined) return null;
  const count = holding[0].meta.benchmarks as number;
  return count > 1 && count <= MAX_SPLIT_BENCHMARKS ? { file: holding[0].file, count } : null;
}

/**
 * Splits the run `first` made from `upload` when its benchmarks sit in one file; returns the
 * upload's answer, with the sweep and every run when it split. A run that cannot be made takes
 * the others with it, as in a folder sweep.
 */
export async function splitBenchmarks(
  app: IngestDeps,
  upload: ReceivedUpload,
  first: UploadResponse,
): Promise<UploadResponse> {
  if (first.status !== "ready") return first;
  const db = app.store.db;
  const files = await getFiles(db, first.id);
  const split = fileToSplit(files);
  if (!split) return first;
  const made: string[] = [first.id];
  try {
    const fallback = (k: number) => `${upload.suggestedName} (${k + 1} of ${split.count})`;
    await setFilePart(db, split.file.id, 0);
    const responses: UploadResponse[] = [
      uploadResponse(first.id, files, await ingestRun(app, first.id), upload.warnings),
    ];
    await nameFromContent(app, first.id, fallback(0));
    for (let k = 1; k < split.count; k++) {
      const id = newRunId();
      const rows: FileRow[] = files.map((f) => ({
        ...f,
        id: newFileId(),
        run_id: id,
        records: 0,
        skipped: 0,
        warnings: "[]",
        meta: f.id === split.file.id ? JSON.stringify({ part: k }) : "{}",
      }));
      await insertRun(
        db,
        {
          id,
          name: fallback(k),
          labels: parseLabels(upload.fields.labels),
          createdAt: Date.now(),
          aggregatorVersion: AGGREGATOR_VERSION,
          warnings: upload.warnings,
        },
        rows,
      );
      made.push(id);
      const outcome = await ingestRun(app, id);
      if (outcome.status === "ready") await nameFromContent(app, id, fallback(k));
      responses.push(uploadResponse(id, rows, outcome, upload.warnings));
    }
    const names = await Promise.all(made.map(async (id) => (await getRun(db, id))?.name ?? id));
    const sweepId = newRunId();
    const now = Date.now();
    await insertSweep(
      db,
      {
        id: sweepId,
        // The upload's name names the sweep; each run is named for what it measured.
        name: runName(upload),
        created_at: now,
        updated_at: now,
        meta: JSON.stringify({
          source: "upload",
          file: split.file.name,
          benchmarks: split.count,
          labels: parseLabels(upload.fields.labels),
        }),
      },
      made,
    );
    return {
      ...responses[0],
      warnings: [...new Set(responses.flatMap((r) => r.warnings))],
      sweep: { id: sweepId, url: `/sweeps/${sweepId}` },
      runs: responses.map((r, i) => ({ id: r.id, url: r.url, folder: names[i], status: r.status })),
    };
  } catch (err) {
    const tables = analyzerTables();
    for (const id of made) await deleteRun(db, id, tables).catch(() => {});
    throw err;
  }
}
