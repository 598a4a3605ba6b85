/**
 * Turns a received upload into its runs (docs/formats.md §Sweep uploads): one run as before, or,
 * when it holds several independent runs, one run each and a sweep linking them in folder order.
 * Run folders are told by their names (sweep-layout.ts), or, where the names say nothing, by
 * each folder holding its own aiperf run (its summary or records, outside aiperf's trial
 * folders); one upload never pools the requests of different runs. One file of several
 * benchmarks, or several benchmark results, is one run per benchmark (split-benchmarks.ts).
 * A run that cannot be made takes the runs already made by this upload with it: a sweep upload
 * is stored whole or not at all. An upload of more runs than a sweep holds is refused.
 */
import { plural } from "@/lib/format-number";
import type { UploadResponse } from "@/lib/api/schemas";
import { analyzerTables } from "./analyzers";
import { createRunFromUpload, severalRunsResponse } from "./create-run";
import type { IngestDeps } from "./deps";
import { beginPendingSweep, type PendingSweep } from "./pending-sweep";
import { AIPERF_SWEEP_FILE } from "@/lib/formats/aiperf-sweep";
import { rowFacts } from "@/lib/store/run-facts";
import { deleteRun, getRun, updateRunMeta } from "@/lib/store/runs-repo";
import { parseLabels } from "./run-rows";
import { makeSplitRuns, planSplit, plannedRows, splitBenchmarks } from "./split-benchmarks";
import { runDirOf } from "./sweep-layout";
import type { LiveIngest } from "./live-ingest";
import { MAX_UPLOAD_RUNS, tooManyRuns, type SweepIngest } from "./sweep-ingest";
import type { ReceivedUpload, StagedFile } from "./upload-types";

const AIPERF_RUN_KINDS = new Set(["aiperf-records", "aiperf-summary"]);
/** aiperf's repeated trials of one configuration (`--num-profile-runs`): one run, of the folder above. */
const TRIAL_DIR = /(^|\/)profile_runs\/(run|trial)_\d+$/;
const dirOf = (name: string) => name.replace(/\\/g, "/").split("/").slice(0, -1).join("/");

/**
 * The folders of an upload that each hold their own aiperf run (its summary or records), when
 * there are two or more: aiperf's trial folders (`profile_runs/run_N`) are the run of the folder
 * above them, and a file belongs to the deepest run folder above it.
 */
export function aiperfRunFolders(
  files: Pick<StagedFile, "name" | "kind" | "format" | "sha256">[],
): string[] | null {
  // An aggregate of trials or of a sweep is no run of its own, nor is a copy of another file.
  const seen = new Set<string>();
  const anchors = files.filter((f) => {
    if (!AIPERF_RUN_KINDS.has(f.kind) || f.format === "aggregate-json" || seen.has(f.sha256)) return false;
    seen.add(f.sha256);
    return true;
  });
  const dirs = new Set(anchors.map((f) => dirOf(f.name).replace(TRIAL_DIR, "")));
  return dirs.size >= 2 ? [...dirs].sort() : null;
}

function deepestFolder(name: string, folders: string[]): string | undefined {
  const dir = dirOf(name);
  let best: string | undefined;
  for (const f of folders)
    if ((f === "" || dir === f || dir.startsWith(`${f}/`)) && (best === undefined || f.length > best.length))
      best = f;
  return best;
}

export async function createRunsFromUpload(
  app: IngestDeps,
  upload: ReceivedUpload,
  sink: SweepIngest,
): Promise<UploadResponse> {
  const keys = sink.runKeys();
  if (keys.length >= 2)
    return folderRuns(
      app,
      upload,
      sink,
      keys,
      (f) => runDirOf(f.name).key,
      (k) => sink.groups.get(k),
    );
  const folders = aiperfRunFolders(upload.files.filter((f) => !AIPERF_SWEEP_FILE.test(f.name)));
  if (folders) {
    // The files streamed into one run; each folder is its own: the pooled ingest goes, and every
    // folder's run reads its stored files.
    try {
      for (const g of sink.groups.values()) await g.abandon();
    } catch (err) {
      await sink.abandon();
      throw err;
    }
    const files = upload.files.map((f) => ({ ...f, id: undefined }));
    return folderRuns(
      app,
      { ...upload, files },
      sink,
      folders,
      (f) => deepestFolder(f.name, folders),
      () => undefined,
    );
  }
  try {
    const live = keys.length === 1 ? sink.groups.get(keys[0]) : undefined;
    const whole = { ...upload, warnings: [...upload.warnings, ...sink.warnings] };
    // Benchmarks the live ingest found are planned before its run is committed: the run goes
    // unwritten, and each benchmark's run reads its stored files.
    const plan = live ? planSplit(plannedRows(upload, live.reports)) : null;
    if (live && plan) {
      await live.abandon();
      return await makeSplitRuns(app, whole, plan, null);
    }
    const made = await createRunFromUpload(app, whole, live);
    // A file of several benchmarks, or several results, becomes a run per benchmark.
    return await splitBenchmarks(app, whole, made);
  } catch (err) {
    await sink.abandon();
    throw err;
  } finally {
    await sink.lease.release().catch(() => {});
  }
}

/** One run per folder key, in key order, and a sweep of them. */
async function folderRuns(
  app: IngestDeps,
  upload: ReceivedUpload,
  sink: SweepIngest,
  keys: string[],
  keyOf: (f: StagedFile) => string | undefined,
  liveOf: (key: string) => LiveIngest | undefined,
): Promise<UploadResponse> {
  const made: UploadResponse[] = [];
  const db = app.store.db;
  const sweepName = (upload.fields.name?.trim() || upload.suggestedName).slice(0, 200);
  // Until every run is made, they are a pending sweep: a kill leaves all of them or none.
  let pending: PendingSweep | null = null;
  try {
    if (keys.length > MAX_UPLOAD_RUNS) throw tooManyRuns(`${keys.length} run folders`);
    const started = keys.map((k) => liveOf(k)?.runId).filter((id): id is string => !!id);
    const sweepOf = await beginPendingSweep(app, sweepName, started);
    pending = sweepOf;
    const ignored: string[] = [];
    const byKey = new Map<string, ReceivedUpload["files"]>(keys.map((k) => [k, []]));
    for (const f of upload.files) {
      if (AIPERF_SWEEP_FILE.test(f.name)) continue;
      const key = keyOf(f);
      const files = key === undefined ? undefined : byKey.get(key);
      if (files) files.push(f);
      else ignored.push(f.name);
    }
    const warnings = [...upload.warnings, ...sink.warnings];
    const split = `this upload holds ${keys.length} runs, one per folder (${listed(keys)}): each is its own run`;
    warnings.push(split);
    if (ignored.length > 0)
      warnings.push(
        `${plural(ignored.length, "file")} outside the run folders were not kept: ${listed(ignored)}`,
      );
    for (const key of keys) {
      const part: ReceivedUpload = {
        files: byKey.get(key)!,
        // The upload's name names the sweep; each run is named for what it measured.
        fields: { labels: upload.fields.labels },
        warnings: [split],
        suggestedName: key || upload.suggestedName,
      };
      const live = liveOf(key);
      made.push(await createRunFromUpload(app, part, live, live ? undefined : (id) => sweepOf.add(id)));
    }
    const mix = await mixOf(
      app,
      made.map((r) => r.id),
      keys,
    );
    if (mix.warning) warnings.push(mix.warning);
    await sweepOf.finish(
      made.map((r) => r.id),
      mix.sweep
        ? {
            name: sweepName,
            meta: JSON.stringify({
              source: "upload",
              folders: keys,
              labels: parseLabels(upload.fields.labels),
              ...(sink.aiperfSweep ? { aiperfSweep: sink.aiperfSweep } : {}),
            }),
          }
        : null,
    );
    // Files that went to no run (and aiperf's sweep aggregate, kept in the sweep) leave no blob.
    await sink.lease.abandon();
    return severalRunsResponse(
      made,
      keys,
      [...warnings, ...made.flatMap((r) => r.warnings)],
      mix.sweep ? sweepOf.id : null,
    );
  } catch (err) {
    if (pending) await pending.abandon([]);
    const tables = analyzerTables();
    for (const r of made) await deleteRun(db, r.id, tables).catch(() => {});
    await sink.abandon();
    throw err;
  } finally {
    pending?.stop();
  }
}

/**
 * Whether the folders' runs are one sweep: not when they measured different models (each stays a
 * run, and the warning says why). Runs whose names read the same are told apart by their folder;
 * a sweep over different input or output lengths says so.
 */
async function mixOf(
  app: IngestDeps,
  ids: string[],
  keys: string[],
): Promise<{ sweep: boolean; warning: string | null }> {
  const db = app.store.db;
  const rows = await Promise.all(ids.map((id) => getRun(db, id)));
  const facts = rows.map((r) => (r ? rowFacts(r) : null));
  const names = rows.map((r) => r?.name ?? "");
  for (const [i, id] of ids.entries())
    if (keys[i] && names.filter((n) => n === names[i]).length > 1 && !names[i].includes(keys[i]))
      await updateRunMeta(db, id, { name: `${names[i]} · ${keys[i]}`.slice(0, 200) });
  const models = [...new Set(facts.map((f) => f?.model?.value).filter((m): m is string => !!m))];
  if (models.length > 1)
    return {
      sweep: false,
      warning: `they are not one sweep: they measured different models (${listed(models)})`,
    };
  const spread = (k: "isl" | "osl") => {
    const v = facts.map((f) => f?.[k]?.value).filter((x): x is number => typeof x === "number" && x > 0);
    let lo = Infinity;
    let hi = 0;
    for (const x of v) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    return v.length > 1 && hi > 1.1 * lo ? v : null;
  };
  const isl = spread("isl");
  const osl = spread("osl");
  const differ = [
    isl && `ISL ${listed(isl.map((x) => String(Math.round(x))))}`,
    osl && `OSL ${listed(osl.map((x) => String(Math.round(x))))}`,
  ].filter(Boolean);
  return {
    sweep: true,
    warning: differ.length > 0 ? `the sweep's runs ran different workloads (${differ.join("; ")})` : null,
  };
}

function listed(names: string[]): string {
  return `${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}`;
}
