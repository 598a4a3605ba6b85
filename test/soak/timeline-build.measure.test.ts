/**
 * Measurement, not a regression test (that is test/api/timeline-build-turns.test.ts): the longest
 * slice of main-thread CPU between two turns of the event loop while a big TensorRT-LLM run's
 * timeline is built from its rows, its first window cut and its timeline file written, printed.
 * Runs only with RUNLENS_MEASURE=1:
 *
 *   RUNLENS_MEASURE=1 RUNLENS_MEASURE_N=100000 npx vitest run --project soak test/soak/timeline-build.measure.test.ts
 *
 * In-process, SQLite. The upload's own line includes the test's multipart encoding of the body,
 * which runs on the same loop.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "vitest";
import { firstWindowInTurns, timelineFromRows } from "@/lib/ingest/timeline-columns";
import { packTimeline } from "@/lib/metrics/request-timeline-pack";
import { writeTimelineFile } from "@/lib/store/columnar/timeline-file";
import { getFiles } from "@/lib/store/runs-repo";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { cpuSlices } from "../helpers/cpu-slices";
import { useStoreTestApp } from "../helpers/pg-schema";
import { uploadRun, waitForDrilldown } from "../helpers/test-app";

const N = Number(process.env.RUNLENS_MEASURE_N ?? 100_000);

describe.skipIf(process.env.RUNLENS_MEASURE !== "1")("timeline build of a big TensorRT-LLM run", () => {
  const t = useStoreTestApp(undefined);

  it("prints each step's longest slice of main-thread CPU", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-timeline-build-"));
    try {
      const gen = generateTrtllmRun({ dir, mode: "disaggregated", requests: N, seed: 2 });
      let probe = cpuSlices();
      const id = await uploadRun(gen.files.map((f) => ({ name: `run/${path.basename(f)}`, path: f })));
      await waitForDrilldown(id, 600_000);
      console.log("upload and drill-down", probe.stop());
      const db = t.app.store.db;
      probe = cpuSlices();
      const timeline = (await timelineFromRows(db, id, await getFiles(db, id), null))!;
      console.log("timeline from rows", probe.stop());
      probe = cpuSlices();
      await firstWindowInTurns(timeline);
      console.log("first window", probe.stop());
      probe = cpuSlices();
      await writeTimelineFile(db, id, packTimeline(timeline));
      console.log("timeline file", probe.stop());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});
