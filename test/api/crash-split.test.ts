/**
 * A server killed (SIGKILL) while an upload is made into several runs (issue 31 N6): the upload
 * is stored whole or not at all. Here a file of 64 SGLang benchmarks (python/sglang/bench_serving.py
 * appends one line per benchmark; test/generators/sglang-bench.ts) is killed once a few of its runs
 * are ready; after the restart, no run and no sweep of it is left. The upload runs in a child
 * process (jiti runs the TypeScript sources), as in crash-ingest.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRuns } from "@/app/api/runs/route";
import { GET as listSweeps } from "@/app/api/sweeps/route";
import { sglangSweep } from "../generators/sglang-bench";
import { restartAfterCrash, spawnIngest } from "../helpers/crash-ingest";
import { fixture } from "../helpers/test-app";

/** Uploads the file argv[2] as sweep.jsonl, or every file of the folder argv[2] under its path. */
const CHILD = `
import fs from "node:fs";
import path from "node:path";
import { POST } from "@/app/api/runs/route";
async function main() {
  const form = new FormData();
  const input = process.argv[2];
  if (fs.statSync(input).isDirectory()) {
    for (const sub of fs.readdirSync(input).sort())
      for (const f of fs.readdirSync(path.join(input, sub)))
        form.append("file", new Blob([fs.readFileSync(path.join(input, sub, f))]), sub + "/" + f);
  } else form.append("file", new Blob([fs.readFileSync(input)]), "sweep.jsonl");
  const res = await POST(new Request("http://localhost/api/runs", { method: "POST", body: form }));
  console.log("finished", res.status);
}
main();
`;

let dir: string;
let dataDir: string;
let input: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-crash-split-"));
  dataDir = path.join(dir, "data");
  input = path.join(dir, "sweep.jsonl");
  fs.writeFileSync(
    input,
    sglangSweep(
      Array.from({ length: 64 }, (_, i) => i + 1),
      { requests: 4, details: true },
    ),
  );
  fs.writeFileSync(path.join(dir, "child.ts"), CHILD);
  // A folder sweep: twelve run folders of aiperf records (test/fixtures/aiperf, real aiperf output).
  const records = fs.readFileSync(fixture("aiperf/qwen-c4__profile_export.jsonl"));
  for (let c = 1; c <= 12; c++) {
    fs.mkdirSync(path.join(dir, "folders", `cfg_c${c}`), { recursive: true });
    fs.writeFileSync(path.join(dir, "folders", `cfg_c${c}`, "profile_export.jsonl"), records);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Polls the store the child writes until `n` runs are ready. */
async function readyRuns(dbFile: string, n: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(dbFile)) {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        const { c } = db.prepare("select count(*) as c from runs where status = 'ready'").get() as {
          c: number;
        };
        if (c >= n) return c;
      } catch {
        // the schema is not there yet
      } finally {
        db.close();
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`fewer than ${n} runs got ready in time`);
}

describe("crash during a multi-benchmark split", () => {
  it("leaves none of the upload's runs and no sweep once the next process sweeps", async () => {
    const ingest = spawnIngest(dir, input, {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      // Each run's commit waits, so the kill lands while the split is under way on any machine.
      RUNLENS_TEST_COMMIT_DELAY_MS: "300",
    });
    // The upload's own run and two of its benchmarks' runs are ready.
    await ingest.until(readyRuns(path.join(dataDir, "runlens.sqlite"), 3, 150_000));
    expect(await ingest.kill()).toBe("SIGKILL");
    expect(ingest.output()).not.toContain("finished");

    const { cleanup } = await restartAfterCrash({ DATA_DIR: dataDir });
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
  }, 200_000);

  it("of a folder sweep leaves none of its runs and no sweep either", async () => {
    const data = path.join(dir, "data-folders");
    const ingest = spawnIngest(dir, path.join(dir, "folders"), {
      DATA_DIR: data,
      DATABASE_URL: "",
      RUNLENS_TEST_COMMIT_DELAY_MS: "300",
    });
    await ingest.until(readyRuns(path.join(data, "runlens.sqlite"), 2, 150_000));
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
  }, 200_000);
});
