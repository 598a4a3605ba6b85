/**
 * Turns a received upload into its runs: one run as before, or, when files sit in two or more run
 * folders (sweep-layout.ts), one run per folder and a sweep linking them in folder order; one
 * file of several benchmarks is one run per benchmark and their sweep (split-benchmarks.ts).
 * A run that cannot be made takes the runs already made by this upload with it: a sweep upload
 * is stored whole or not at all.
 */
import type { UploadResponse } from "@/lib/api/schemas";
import { newRunId } from "@/lib/store/ids";
import { insertSweep } from "@/lib/store/sweeps-repo";
import { analyzerTables } from "./analyzers";
import { createRunFromUpload } from "./create-run";
import type { IngestDeps } from "./deps";
import { AIPERF_SWEEP_FILE } from "@/lib/formats/aiperf-sweep";
import { deleteRun } from "@/lib/store/runs-repo";
import { parseLabels } from "./run-rows";
import { splitBenchmarks } from "./split-benchmarks";
import { runDirOf } from "./sweep-layout";
import type { SweepIngest } from "./sweep-ingest";
import type { ReceivedUpload } from "./upload-types";

export async function createRunsFromUpload(
  app: IngestDeps,
  upload: ReceivedUpload,
  sink: SweepIngest,
): Promise<UploadResponse> {
  const keys = sink.runKeys();
  if (keys.length < 2) {
    try {
      const live = keys.length === 1 ? sink.groups.get(keys[0]) : undefined;
      const whole = { ...upload, warnings: [...upload.warnings, ...sink.warnings] };
      const made = await createRunFromUpload(app, whole, live);
      // A file of several benchmarks becomes a run per benchmark and their sweep.
      return await splitBenchmarks(app, whole, made);
    } catch (err) {
      await sink.abandon();
      throw err;
    } finally {
      await sink.lease.release().catch(() => {});
    }
  }
  const made: UploadResponse[] = [];
  try {
    const ignored: string[] = [];
    const byKey = new Map<string, ReceivedUpload["files"]>(keys.map((k) => [k, []]));
    for (const f of upload.files) {
      if (AIPERF_SWEEP_FILE.test(f.name)) continue;
      const files = byKey.get(runDirOf(f.name).key);
      if (files) files.push(f);
      else ignored.push(f.name);
    }
    const warnings = [...upload.warnings, ...sink.warnings];
    if (ignored.length > 0)
      warnings.push(
        `${ignored.length} file(s) outside the run folders were not kept: ${ignored.slice(0, 5).join(", ")}${ignored.length > 5 ? ", …" : ""}`,
      );
    for (const key of keys) {
      const part: ReceivedUpload = {
        files: byKey.get(key)!,
        // The upload's name names the sweep; each run is named for what it measured.
        fields: { labels: upload.fields.labels },
        warnings: [],
        suggestedName: key,
      };
      made.push(await createRunFromUpload(app, part, sink.groups.get(key)));
    }
    const sweepId = newRunId();
    const now = Date.now();
    await insertSweep(
      app.store.db,
      {
        id: sweepId,
        name: (upload.fields.name?.trim() || upload.suggestedName).slice(0, 200),
        created_at: now,
        updated_at: now,
        meta: JSON.stringify({
          source: "upload",
          folders: keys,
          labels: parseLabels(upload.fields.labels),
          ...(sink.aiperfSweep ? { aiperfSweep: sink.aiperfSweep } : {}),
        }),
      },
      made.map((r) => r.id),
    );
    // Files that went to no run (and aiperf's sweep aggregate, kept in the sweep) leave no blob.
    await sink.lease.abandon();
    return {
      ...made[0],
      warnings: [...new Set([...warnings, ...made.flatMap((r) => r.warnings)])],
      sweep: { id: sweepId, url: `/sweeps/${sweepId}` },
      runs: made.map((r, i) => ({
        id: r.id,
        url: r.url,
        folder: keys[i],
        status: r.status,
        summaryReadyAt: r.summaryReadyAt,
        drilldownReadyAt: r.drilldownReadyAt,
      })),
    };
  } catch (err) {
    const tables = analyzerTables();
    for (const r of made) await deleteRun(app.store.db, r.id, tables).catch(() => {});
    await sink.abandon();
    throw err;
  }
}
