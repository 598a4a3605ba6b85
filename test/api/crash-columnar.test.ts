/**
 * A server killed (SIGKILL) after an aiperf run's Parquet request file was written and named,
 * before the run committed: the run is failed after the restart, never shown with half its data,
 * and a re-ingest writes its file again and completes it.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { pollStore } from "../helpers/crash";
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

const RECORDS = 3000;

/** Polls the store until an ingesting run has its request file named: the moment to kill. */
function ingestingRunWithFile(dbFile: string, timeoutMs: number): Promise<string> {
  return pollStore<string>(dbFile, timeoutMs, "an ingesting run with its request file named", (db) => {
    const row = db
      .prepare(
        `select f.run_id as id from run_column_files f join runs r on r.id = f.run_id
          where r.status = 'ingesting'`,
      )
      .get() as { id: string } | undefined;
    return row ? { found: row.id } : { seen: "no ingesting run with a request file yet" };
  });
}

const folder = crashTestFolder(
  "runlens-crash-columnar-",
  async (dir) =>
    (await generateAiperfRun(path.join(dir, "gen"), { records: RECORDS, concurrency: 4, csv: false }))
      .jsonlPath,
);

describe("crash after the request file is written, before the run commits", () => {
  it(
    "leaves a failed run, which re-ingest completes with a new file",
    async () => {
      const { dataDir } = folder;
      // Holds the commit back once the analyzers finished: the file is stored, the run is not.
      const ingest = spawnIngest(
        folder.input,
        { DATA_DIR: dataDir, DATABASE_URL: "" },
        { commitMs: 600_000 },
      );
      const runId = await ingest.until(
        ingestingRunWithFile(path.join(dataDir, "runlens.sqlite"), CHILD_WAIT_MS),
      );
      expect(await ingest.kill()).toBe("SIGKILL");
      expect(ingest.output()).not.toContain("finished");

      const { cleanup } = await restartAfterCrash({ DATA_DIR: dataDir });
      try {
        const run = await expectInterruptedRun(runId);
        expect(run.requests).toBeNull();
        const done = await expectReingestReady(runId);
        expect(done.files[0].records).toBe(RECORDS);
        await expectRequestList(runId, done.requests.count);
      } finally {
        await cleanup();
      }
    },
    CRASH_TEST_MS,
  );
});
