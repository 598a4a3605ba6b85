/**
 * An upload whose benchmark results hold several benchmarks (docs/formats.md §Multi-benchmark
 * files) becomes one run per benchmark: an SGLang concurrency sweep's lines, a GuideLLM rate
 * sweep, vLLM `--append-result` lines, a `vllm bench sweep serve` experiment folder (one
 * `run=N.json` per combination and run), or several result files side by side: results at the
 * same load are several runs too, never "the first file kept". They are a sweep, in upload order,
 * when they ran one workload (model, dataset, input and output lengths as the tools state them);
 * otherwise they are runs side by side and a warning says why they are not one sweep. Each run's
 * facts carry the concurrency or rate its benchmark states; runs whose names would read the same
 * are told apart by their benchmark's label or file.
 *
 * Each run holds its benchmark and the files that belong to it: a file named like it (a console
 * log beside its result), or the files of a folder that holds that benchmark alone. A file of
 * several benchmarks says which is the run's in its file row (`part`, lib/store/file-part.ts), so
 * a re-ingest reads the same one; the runs share the stored blobs. The upload's other files that
 * Runlens reads make one more run of their own, never copied into every run; files nobody reads go
 * with the first run. The same benchmark twice (a report's JSON and YAML copies) is one run. A
 * vLLM combination's `summary.json` repeats its `run=N.json` files and is left out beside them.
 *
 * The plan is made from what the analyzers reported of each file while the upload streamed,
 * before its run is committed (create-runs.ts); a run already committed is split the same way.
 */
import type { UploadResponse } from "@/lib/api/schemas";
import { newFileId, newRunId } from "@/lib/store/ids";
import { deleteRun, getFiles, getRun, insertRun, updateRunMeta, type FileRow } from "@/lib/store/runs-repo";
import { figuresMatch, type ConsoleFigures, type FigureKey } from "@/lib/formats/bench-console";
import { analyzerTables } from "./analyzers";
import { nameFromContent, severalRunsResponse, uploadResponse } from "./create-run";
import type { FileReport } from "./analyzer";
import type { IngestDeps } from "./deps";
import { beginPendingSweep } from "./pending-sweep";
import { ingestRun } from "./ingest-run";
import { fileRows, parseLabels, runName } from "./run-rows";
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
  keys?: unknown;
  workloads?: unknown;
  labels?: unknown;
  genaiExport?: unknown;
  figures?: unknown;
  consoleFigures?: unknown;
}

const metaOf = (f: FileRow): FileMeta => {
  try {
    return JSON.parse(f.meta) as FileMeta;
  } catch {
    return {};
  }
};

const isRecord = (v: unknown): v is Record<string, never> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const strAt = (v: unknown, k: number): string | undefined =>
  Array.isArray(v) && typeof v[k] === "string" ? (v[k] as string) : undefined;

/** One benchmark of the upload: its file, which of the file's benchmarks, and the files that go with it. */
export interface BenchUnit {
  file: FileRow;
  part: number | undefined;
  load: string;
  /** What tells it from another benchmark: the same key twice is one benchmark */
  key: string;
  /** The workload it ran, as its tool states it ("" when it states none) */
  workload: string;
  /** Its own name within its file, or "" */
  label: string;
  /** The figures a console printed for it would state (bench-import `resultFigures`) */
  figures: Partial<Record<FigureKey, number | null>> | null;
  companions: FileRow[];
  /** Which benchmark of a companion of several is this one's (a copy of the unit's file) */
  companionParts: Map<string, number>;
}

export interface SplitPlan {
  units: BenchUnit[];
  /** Files Runlens reads that belong to no benchmark: one more run of their own */
  rest: FileRow[];
  /** The runs of the units are one sweep (one workload) */
  sweep: boolean;
  /** Why they are not a sweep, when they are not */
  notSweep: string | null;
}

const dirOf = (name: string) => name.replace(/\\/g, "/").replace(/[^/]*$/, "");
const stemOf = (name: string) => name.replace(/\\/g, "/").replace(/\.[^/.]*(\.(gz|zst))?$/i, "");
const VLLM_RUN_FILE = /(^|\/)run=\d+\.json$/;
const VLLM_SUMMARY_FILE = /(^|\/)summary\.json$/;

/** How the upload's files make runs, or null when it is one run (one benchmark, or too many). */
export function planSplit(files: FileRow[]): SplitPlan | null {
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
  const leftOut = new Set<string>();
  let units: BenchUnit[] = [];
  for (const { file, meta } of holding) {
    if (VLLM_SUMMARY_FILE.test(file.name) && runDirs.has(dirOf(file.name))) {
      leftOut.add(file.id);
      continue;
    }
    const count = meta.benchmarks as number;
    const loads = typeof meta.loads === "string" ? meta.loads.split(",") : [];
    for (let k = 0; k < count; k++)
      units.push({
        file,
        part: count > 1 ? k : undefined,
        load: loads[k] ?? `${file.id}#${k}`,
        key: strAt(meta.keys, k) ?? `${file.id}#${k}`,
        workload: strAt(meta.workloads, k) ?? "",
        label: strAt(meta.labels, k) ?? "",
        figures: Array.isArray(meta.figures) && isRecord(meta.figures[k]) ? meta.figures[k] : null,
        companions: [],
        companionParts: new Map(),
      });
  }
  if (units.length > MAX_SPLIT_BENCHMARKS) return null;
  // The same benchmark twice is one: the later file goes with the first (its analyzer reads it once).
  const byKey = new Map<string, BenchUnit>();
  units = units.filter((u) => {
    const first = byKey.get(u.key);
    if (!first) {
      byKey.set(u.key, u);
      return true;
    }
    if (u.file.id !== first.file.id && !first.companions.includes(u.file)) {
      first.companions.push(u.file);
      // A copy of several benchmarks is read for the one it repeats, not for all of them.
      if (u.part !== undefined) first.companionParts.set(u.file.id, u.part);
    }
    return false;
  });
  // A genai-perf summary goes with the one per-request export of its folder.
  const isExport = (u: BenchUnit) => metaOf(u.file).genaiExport === true;
  const isGenaiSummary = (u: BenchUnit) => u.file.kind === "genai-perf-summary";
  for (const dir of new Set(units.map((u) => dirOf(u.file.name)))) {
    const inDir = units.filter((u) => dirOf(u.file.name) === dir);
    const exports = inDir.filter(isExport);
    const summaries = inDir.filter(isGenaiSummary);
    if (exports.length === 1 && summaries.length === 1) {
      exports[0].companions = exports[0].companions.concat([summaries[0].file], summaries[0].companions);
      units = units.filter((u) => u !== summaries[0]);
    }
  }
  if (units.length < 2) return null;

  const taken = new Set<string>([
    ...leftOut,
    ...units.flatMap((u) => [u.file.id, ...u.companions.map((c) => c.id)]),
  ]);
  const unitFiles = new Map<string, BenchUnit>();
  for (const u of units) if (!unitFiles.has(u.file.id)) unitFiles.set(u.file.id, u);
  const singleOf = (u: BenchUnit) => units.filter((o) => o.file.id === u.file.id).length === 1;
  const rest: FileRow[] = [];
  const strays: FileRow[] = [];
  for (const f of files) {
    if (taken.has(f.id)) continue;
    // A benchmark's console output goes with the benchmark whose numbers it printed, whatever its
    // name; one that prints none of theirs is read by no run (the first says so).
    if (f.kind === "bench-console") {
      const printed = metaOf(f).consoleFigures;
      const blocks = Array.isArray(printed) ? printed.filter(isRecord) : [];
      const owner = units.find(
        (u) => u.figures && blocks.some((b) => figuresMatch(b as ConsoleFigures, u.figures!)),
      );
      if (owner) owner.companions.push(f);
      else strays.push(f);
      continue;
    }
    const owner =
      // A copy of a benchmark file (read once by the analyzer of identical files).
      [...unitFiles.values()].find((u) => u.file.sha256 === f.sha256) ??
      // Named like a benchmark file: its console log, its notes.
      [...unitFiles.values()].find((u) => f.name.startsWith(stemOf(u.file.name) + ".")) ??
      ownerByFolder(f, [...unitFiles.values()].filter(singleOf));
    if (owner) owner.companions.push(f);
    else if (f.kind === "unknown") strays.push(f);
    else rest.push(f);
  }
  units[0].companions = units[0].companions.concat(strays);
  const workloads = [...new Set(units.map((u) => u.workload))];
  const sweep = workloads.length === 1;
  return {
    units,
    rest,
    sweep,
    notSweep: sweep
      ? null
      : `they are not one sweep: their workloads differ (${workloads.map((w) => w || "not stated").join("; ")})`,
  };
}

/** The benchmark whose file is alone in the nearest folder above `f` that holds any. */
function ownerByFolder(f: FileRow, singles: BenchUnit[]): BenchUnit | undefined {
  let dir = dirOf(f.name);
  for (;;) {
    const here = singles.filter((u) => dirOf(u.file.name) === dir);
    if (here.length === 1) return here[0];
    if (here.length > 1 || dir === "") return undefined;
    dir = dir.replace(/[^/]*\/$/, "");
  }
}

/** The upload's benchmarks, or null when it is not a split case. */
export function splitUnits(files: FileRow[]): BenchUnit[] | null {
  return planSplit(files)?.units ?? null;
}

/**
 * Splits the run `first` made from `upload` when it holds several benchmarks; returns the
 * upload's answer, with every run (and the sweep, when there is one) when it split. A run that
 * cannot be made takes the others with it, as in a folder sweep.
 */
export async function splitBenchmarks(
  app: IngestDeps,
  upload: ReceivedUpload,
  first: UploadResponse,
): Promise<UploadResponse> {
  if (first.status !== "ready") return first;
  const files = await getFiles(app.store.db, first.id);
  const plan = planSplit(files);
  if (!plan) return first;
  return makeSplitRuns(app, upload, plan, first.id);
}

/**
 * The upload's files as the catalog rows the plan reads, with what the live ingest's analyzers
 * reported of each (their benchmarks, loads and identities), before any run is committed.
 */
export function plannedRows(upload: ReceivedUpload, reports: ReadonlyMap<string, FileReport>): FileRow[] {
  return fileRows("", upload.files, (f) => (f.id ? reports.get(f.id)?.meta : undefined));
}

/**
 * Makes the plan's runs from the upload's stored files (and its sweep, when they are one); the
 * run the upload was first read into, when there is one, goes once they are all made.
 */
export async function makeSplitRuns(
  app: IngestDeps,
  upload: ReceivedUpload,
  plan: SplitPlan,
  firstId: string | null,
): Promise<UploadResponse> {
  const db = app.store.db;
  const { units, rest } = plan;
  const fileNames = [...new Set(units.map((u) => u.file.name))];
  const split =
    `this upload holds ${units.length} benchmarks (${listed(fileNames)}): each is its own run` +
    (plan.sweep ? ", and together a sweep" : `; ${plan.notSweep}`) +
    (rest.length > 0
      ? `; ${listed(rest.map((f) => f.name))}, which belong to none of them, make a run of their own`
      : "");
  const warnings = [...upload.warnings, split];
  const made: string[] = [];
  const fallback = (k: number) => `${upload.suggestedName} (${k + 1} of ${units.length})`;
  const makeRun = async (own: FileRow[], unit: BenchUnit | null, name: string): Promise<UploadResponse> => {
    const id = newRunId();
    const rows: FileRow[] = [...own]
      .sort((a, b) => a.ord - b.ord)
      .map((f, ord) => ({
        ...f,
        id: newFileId(),
        run_id: id,
        ord,
        records: 0,
        skipped: 0,
        warnings: "[]",
        meta: JSON.stringify(partOf(f, unit)),
      }));
    await insertRun(
      db,
      {
        id,
        name,
        labels: parseLabels(upload.fields.labels),
        createdAt: Date.now(),
        aggregatorVersion: AGGREGATOR_VERSION,
        warnings,
      },
      rows,
    );
    made.push(id);
    await pending.add(id);
    const outcome = await ingestRun(app, id);
    if (outcome.status === "ready") await nameFromContent(app, id, name);
    return uploadResponse(id, rows, outcome, warnings);
  };
  // Until every run is made, they and the upload's run are a pending sweep: a kill leaves all or none.
  const pending = await beginPendingSweep(app, runName(upload), firstId ? [firstId] : []);
  try {
    const responses: UploadResponse[] = [];
    for (const [k, unit] of units.entries())
      responses.push(await makeRun([unit.file, ...unit.companions], unit, fallback(k)));
    await distinctNames(app, made, units);
    if (rest.length > 0) responses.push(await makeRun(rest, null, `${upload.suggestedName} (other files)`));
    // Each run has its own copies of the file rows: the upload's run goes.
    if (firstId) await deleteRun(db, firstId, analyzerTables());
    const names = await Promise.all(made.map(async (id) => (await getRun(db, id))?.name ?? id));
    await pending.finish(
      made.slice(0, units.length),
      plan.sweep
        ? {
            // The upload's name names the sweep; each run is named for what it measured.
            name: runName(upload),
            meta: JSON.stringify({
              source: "upload",
              files: fileNames,
              benchmarks: units.length,
              labels: parseLabels(upload.fields.labels),
            }),
          }
        : null,
    );
    return severalRunsResponse(
      responses,
      names,
      responses.flatMap((r) => r.warnings),
      plan.sweep ? pending.id : null,
    );
  } catch (err) {
    await pending.abandon(made);
    throw err;
  } finally {
    pending.stop();
  }
}

/**
 * Runs of one upload whose names read the same (one model, backend and load) are told apart by
 * their benchmark's label, else by its file (and its place in the file).
 */
async function distinctNames(app: IngestDeps, ids: string[], units: BenchUnit[]): Promise<void> {
  const db = app.store.db;
  const names = await Promise.all(ids.map(async (id) => (await getRun(db, id))?.name ?? ""));
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  for (const [i, id] of ids.entries()) {
    if ((count.get(names[i]) ?? 0) < 2) continue;
    const u = units[i];
    const base = u.file.name.replace(/\\/g, "/").replace(/^.*\//, "");
    const tag = u.label || (u.part === undefined ? base : `${base} #${u.part + 1}`);
    if (names[i].includes(tag)) continue;
    await updateRunMeta(db, id, { name: `${names[i]} · ${tag}`.slice(0, 200) });
  }
}

/** The file row meta that says which benchmark of `f` the unit's run reads, when it holds several. */
function partOf(f: FileRow, unit: BenchUnit | null): { part?: number } {
  if (!unit) return {};
  if (f.id === unit.file.id) return unit.part === undefined ? {} : { part: unit.part };
  const part = unit.companionParts.get(f.id);
  return part === undefined ? {} : { part };
}

function listed(names: string[]): string {
  return `${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}`;
}
