/**
 * An upload whose benchmark results hold several loads (docs/formats.md §Multi-benchmark files)
 * becomes one run per benchmark and a sweep linking them in upload order, as a folder per load
 * does (create-runs.ts): an SGLang concurrency sweep's lines, a GuideLLM rate sweep, vLLM
 * `--append-result` lines, or a `vllm bench sweep serve` experiment folder (one `run=N.json` per
 * combination and run). Each run's facts carry the concurrency or rate its benchmark states.
 *
 * Every run holds the upload's other files and one benchmark: a file of several says which is
 * the run's in its file row (`part`, lib/store/file-part.ts), so a re-ingest reads the same one;
 * the runs share the stored blobs. A vLLM combination's `summary.json` repeats its `run=N.json`
 * files and is left out beside them. Benchmarks that all state one load (repeated runs of one
 * configuration) are not a sweep: the upload stays one run that says what it left out.
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

/**
 * Most runs one upload is split into. Every run re-reads its file, so a file of thousands of
 * lines (appended results of a long CI history) stays one run that says what it left out.
 */
export const MAX_SPLIT_BENCHMARKS = 64;

interface FileMeta {
  benchmarks?: unknown;
  loads?: unknown;
  part?: unknown;
}

const metaOf = (f: FileRow): FileMeta => {
  try {
    return JSON.parse(f.meta) as FileMeta;
  } catch {
    return {};
  }
};

/** One benchmark of the upload: its file, and which of the file's benchmarks (when it holds several). */
export interface BenchUnit {
  file: FileRow;
  part: number | undefined;
  load: string;
}

const dirOf = (name: string) => name.replace(/\\/g, "/").replace(/[^/]*$/, "");
const VLLM_RUN_FILE = /(^|\/)run=\d+\.json$/;
const VLLM_SUMMARY_FILE = /(^|\/)summary\.json$/;

/** The upload's benchmarks, or null when it is not a split case (one benchmark, one load, too many). */
export function splitUnits(files: FileRow[]): BenchUnit[] | null {
  // InferenceX results beside aiperf files describe (or aggregate) the aiperf run: not runs of their own.
  const aiperfRun = files.some((f) => f.kind === "aiperf-records" || f.kind === "aiperf-summary");
  const holding = files
    .filter((file) => !(aiperfRun && file.kind === "inferencex-result"))
    .map((file) => ({ file, meta: metaOf(file) }))
    .filter(({ meta }) => typeof meta.benchmarks === "number" && meta.benchmarks > 0);
  if (holding.some(({ meta }) => meta.part !== undefined)) return null;
  const runDirs = new Set(
    holding.filter((h) => VLLM_RUN_FILE.test(h.file.name)).map((h) => dirOf(h.file.name)),
  );
  const units: BenchUnit[] = [];
  for (const { file, meta } of holding) {
    if (VLLM_SUMMARY_FILE.test(file.name) && runDirs.has(dirOf(file.name))) continue;
    const count = meta.benchmarks as number;
    const loads = typeof meta.loads === "string" ? meta.loads.split(",") : [];
    for (let k = 0; k < count; k++)
      units.push({ file, part: count > 1 ? k : undefined, load: loads[k] ?? `${file.id}#${k}` });
  }
  if (units.length < 2 || units.length > MAX_SPLIT_BENCHMARKS) return null;
  return new Set(units.map((u) => u.load)).size > 1 ? units : null;
}

/**
 * Splits the run `first` made from `upload` when its benchmarks hold several loads; returns the
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
  const units = splitUnits(files);
  if (!units) return first;
  const benchFiles = new Set(units.map((u) => u.file.id));
  const others = files.filter((f) => !benchFiles.has(f.id) && metaOf(f).benchmarks === undefined);
  // One file of several benchmarks: the upload's run keeps the first and all its files.
  const oneFile = benchFiles.size === 1;
  const made: string[] = [];
  const fallback = (k: number) => `${upload.suggestedName} (${k + 1} of ${units.length})`;
  try {
    const responses: UploadResponse[] = [];
    for (const [k, unit] of units.entries()) {
      if (k === 0 && oneFile) {
        made.push(first.id);
        await setFilePart(db, unit.file.id, 0);
        responses.push(uploadResponse(first.id, files, await ingestRun(app, first.id), upload.warnings));
        await nameFromContent(app, first.id, fallback(0));
        continue;
      }
      const id = newRunId();
      const own = oneFile ? files : [...others, unit.file].sort((a, b) => a.ord - b.ord);
      const rows: FileRow[] = own.map((f, ord) => ({
        ...f,
        id: newFileId(),
        run_id: id,
        ord,
        records: 0,
        skipped: 0,
        warnings: "[]",
        meta: f.id === unit.file.id && unit.part !== undefined ? JSON.stringify({ part: unit.part }) : "{}",
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
    // Several files: each run has its own copies of the file rows, and the upload's run goes.
    if (!oneFile) await deleteRun(db, first.id, analyzerTables());
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
          files: [...new Set(units.map((u) => u.file.name))],
          benchmarks: units.length,
          labels: parseLabels(upload.fields.labels),
        }),
      },
      made,
    );
    return {
      ...responses[0],
      warnings: [...new Set(responses.flatMap((r) => r.warnings))],
      sweep: { id: sweepId, url: `/sweeps/${sweepId}` },
      runs: responses.map((r, i) => ({
        id: r.id,
        url: r.url,
        folder: names[i],
        status: r.status,
        summaryReadyAt: r.summaryReadyAt,
        drilldownReadyAt: r.drilldownReadyAt,
      })),
    };
  } catch (err) {
    const tables = analyzerTables();
    for (const id of made) await deleteRun(db, id, tables).catch(() => {});
    throw err;
  }
}
