/**
 * A server killed (SIGKILL) while DuckDB writes an aiperf run's Parquet request file: after the
 * restart the run is failed, never shown with half its data and with no request file named, and a
 * re-ingest writes the whole file and completes it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import {
  expectInterruptedRun,
  expectReingestReady,
  expectRequestList,
  restartAfterCrash,
  spawnIngest,
  crashTestFolder,
  CHILD_WAIT_MS,
  CRASH_TEST_MS,
} from "../helpers/crash-ingest";
import { idParams } from "../helpers/test-app";
import { waitUntil } from "../helpers/wait.mjs";

/** Enough records that the COPY to Parquet is still writing when the test sees its file. */
const RECORDS = 100_000;

/** Polls for DuckDB's Parquet file being written (the run-file temp folder): the moment to kill. */
function parquetBeingWritten(tmpDir: string, timeoutMs: number): Promise<string> {
  return waitUntil(
    `a Parquet file being written in ${tmpDir}`,
    () => (fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).find((n) => n.endsWith(".parquet")) : undefined),
    { timeoutMs, intervalMs: 5 },
  );
}

const folder = crashTestFolder(
  "runlens-crash-parquet-",
  async (dir) =>
    (await generateAiperfRun(path.join(dir, "gen"), { records: RECORDS, concurrency: 8, csv: false }))
      .jsonlPath,
  120_000,
);

describe("crash while the request file is written", () => {
  it(
    "leaves a failed run with no request file, which re-ingest completes",
    async () => {
      const { dataDir } = folder;
      const ingest = spawnIngest(folder.input, { DATA_DIR: dataDir, DATABASE_URL: "" });
      await ingest.until(parquetBeingWritten(path.join(dataDir, "columnar-cache", "tmp"), CHILD_WAIT_MS));
      expect(await ingest.kill()).toBe("SIGKILL");
      expect(ingest.output()).not.toContain("finished");

      const { app, cleanup } = await restartAfterCrash({ DATA_DIR: dataDir });
      try {
        const ids = (await app.store.db.selectFrom("runs").select("id").execute()).map((r) => r.id);
        expect(ids).toHaveLength(1);
        const runId = ids[0];
        const run = await expectInterruptedRun(runId);
        expect(run.requests).toBeNull();
        const named = await app.store.db
          .selectFrom("run_column_files")
          .select("run_id")
          .where("run_id", "=", runId)
          .execute();
        expect(named).toEqual([]);
        const list = await listRequests(
          new Request(`http://localhost/api/runs/${runId}/aiperf/requests?sort=ttft&limit=5`),
          idParams(runId),
        );
        expect(list.status).toBe(409);

        const done = await expectReingestReady(runId);
        expect(done.files[0].records).toBe(RECORDS);
        const file = await app.store.db
          .selectFrom("run_column_files")
          .select("rows")
          .where("run_id", "=", runId)
          .executeTakeFirstOrThrow();
        expect(Number(file.rows)).toBe(RECORDS);
        await expectRequestList(runId, done.requests.count);
      } finally {
        await cleanup();
      }
    },
    CRASH_TEST_MS + 100_000,
  ); // and a re-ingest of RECORDS requests
});
