/**
 * A server killed (SIGKILL) after an aiperf run's Parquet request file was written and named,
 * before the run committed: the run is failed after the restart, never shown with half its data,
 * and a re-ingest writes its file again and completes it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import {
  expectInterruptedRun,
  expectReingestReady,
  restartAfterCrash,
  spawnIngest,
} from "../helpers/crash-ingest";
import { idParams } from "../helpers/test-app";

const RECORDS = 3000;

const CHILD = `
import fs from "node:fs";
import { POST } from "@/app/api/runs/route";
async function main() {
  const form = new FormData();
  form.append("file", new Blob([fs.readFileSync(process.argv[2])]), "profile_export.jsonl");
  const res = await POST(new Request("http://localhost/api/runs", { method: "POST", body: form }));
  console.log("finished", res.status);
}
main();
`;

/** Polls the store until an ingesting run has its request file named: the moment to kill. */
async function ingestingRunWithFile(dbFile: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(dbFile)) {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        const row = db
          .prepare(
            `select f.run_id as id from run_column_files f join runs r on r.id = f.run_id
              where r.status = 'ingesting'`,
          )
          .get() as { id: string } | undefined;
        if (row) return row.id;
      } catch {
        // the schema is not there yet
      } finally {
        db.close();
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no run got its request file in time");
}

let dir: string;
let input: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-crash-columnar-"));
  input = (await generateAiperfRun(path.join(dir, "gen"), { records: RECORDS, concurrency: 4, csv: false }))
    .jsonlPath;
  fs.writeFileSync(path.join(dir, "child.ts"), CHILD);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("crash after the request file is written, before the run commits", () => {
  it("leaves a failed run, which re-ingest completes with a new file", async () => {
    const dataDir = path.join(dir, "data");
    const ingest = spawnIngest(dir, input, {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      // Holds the commit back once the analyzers finished: the file is stored, the run is not.
      RUNLENS_TEST_COMMIT_DELAY_MS: "600000",
    });
    const runId = await ingest.until(ingestingRunWithFile(path.join(dataDir, "runlens.sqlite"), 240_000));
    expect(await ingest.kill()).toBe("SIGKILL");
    expect(ingest.output()).not.toContain("finished");

    const { cleanup } = await restartAfterCrash({ DATA_DIR: dataDir });
    try {
      const run = await expectInterruptedRun(runId);
      expect(run.requests).toBeNull();
      const done = await expectReingestReady(runId);
      expect(done.files[0].records).toBe(RECORDS);
      const list = await (
        await listRequests(
          new Request(`http://localhost/api/runs/${runId}/aiperf/requests?sort=ttft&limit=5`),
          idParams(runId),
        )
      ).json();
      expect(list.total).toBe(done.requests.count);
      expect(list.rows).toHaveLength(5);
    } finally {
      await cleanup();
    }
  }, 300_000); // the child compiles the sources first: slow on a busy machine
});
