/**
 * A server killed (SIGKILL) while an upload is made into several runs (issue 31 N6): the upload
 * is stored whole or not at all. Here a file of 64 SGLang benchmarks (python/sglang/bench_serving.py
 * appends one line per benchmark; test/generators/sglang-bench.ts) is killed once a few of its runs
 * are ready; after the restart, no run and no sweep of it is left. The upload runs in a child
 * process (jiti runs the TypeScript sources), as in crash-ingest.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as listRuns } from "@/app/api/runs/route";
import { GET as listSweeps } from "@/app/api/sweeps/route";
import { sglangSweep } from "../generators/sglang-bench";
import { pollStore } from "../helpers/crash";
import {
  CHILD_WAIT_MS,
  CRASH_TEST_MS,
  restartAfterCrash,
  spawnIngest,
  crashTestFolder,
} from "../helpers/crash-ingest";
import { fixture } from "../helpers/test-app";

const folder = crashTestFolder("runlens-crash-split-", (dir) => {
  const input = path.join(dir, "sweep.jsonl");
  fs.writeFileSync(
    input,
    sglangSweep(
      Array.from({ length: 64 }, (_, i) => i + 1),
      { requests: 4, details: true },
    ),
  );
  // A folder sweep: twelve run folders of aiperf records (test/fixtures/aiperf, real aiperf output).
  const records = fs.readFileSync(fixture("aiperf/qwen-c4__profile_export.jsonl"));
  for (let c = 1; c <= 12; c++) {
    fs.mkdirSync(path.join(dir, "folders", `cfg_c${c}`), { recursive: true });
    fs.writeFileSync(path.join(dir, "folders", `cfg_c${c}`, "profile_export.jsonl"), records);
  }
  return input;
});

/** Polls the store the child writes until `n` runs are ready. */
function readyRuns(dbFile: string, n: number, timeoutMs: number): Promise<number> {
  return pollStore<number>(dbFile, timeoutMs, `${n} ready runs`, (db) => {
    const { c } = db.prepare("select count(*) as c from runs where status = 'ready'").get() as { c: number };
    return c >= n ? { found: c } : { seen: `${c} ready runs` };
  });
}

/**
 * Uploads input in a child, each run's commit held so the kill lands while the split is under
 * way on any machine; kills it once `ready` runs are; after the restart, none of the upload's
 * runs and no sweep is left.
 */
async function expectKilledSplitLeavesNothing(input: string, data: string, ready: number): Promise<void> {
  const ingest = spawnIngest(input, { DATA_DIR: data, DATABASE_URL: "" }, { commitMs: 300 });
  await ingest.until(readyRuns(path.join(data, "runlens.sqlite"), ready, CHILD_WAIT_MS));
  expect(await ingest.kill()).toBe("SIGKILL");
  expect(ingest.output()).not.toContain("finished");

  const { cleanup } = await restartAfterCrash({ DATA_DIR: data });
  try {
    const runs = (await (await listRuns(new Request("http://localhost/api/runs"))).json()) as {
      runs: unknown[];
    };
    expect(runs.runs).toEqual([]);
    const sweeps = (await (await listSweeps(new Request("http://localhost/api/sweeps"))).json()) as {
      sweeps: unknown[];
    };
    expect(sweeps.sweeps).toEqual([]);
  } finally {
    await cleanup();
  }
}

describe("crash during a multi-benchmark split", () => {
  it(
    "leaves none of the upload's runs and no sweep once the next process sweeps",
    async () => {
      // The upload's own run and two of its benchmarks' runs are ready.
      await expectKilledSplitLeavesNothing(folder.input, folder.dataDir, 3);
    },
    CRASH_TEST_MS,
  );

  it(
    "of a folder sweep leaves none of its runs and no sweep either",
    async () => {
      await expectKilledSplitLeavesNothing(
        path.join(folder.dir, "folders"),
        path.join(folder.dir, "data-folders"),
        2,
      );
    },
    CRASH_TEST_MS,
  );
});
