/**
 * The production server (bin/server.mjs) SIGKILLed in the middle of an ingest, then restarted on
 * the same data directory: the run shows as failed (never complete), its raw file is intact and
 * re-ingest completes it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { trtRecordText } from "../fixtures/bad/generate-big";
import { ingestingRunWithRows } from "../helpers/crash";
import { WAIT_MS, waitUntil } from "../helpers/wait.mjs";
import { startApp, type RunningApp } from "./harness";

const RECORDS = 60_000;
const ENV = { RUNLENS_INGEST_STALE_MS: "1500" };

describe("server killed mid-ingest", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-crash-e2e-"));
  const dataDir = path.join(dir, "data");
  const input = path.join(dir, "perf_metrics-0.jsonl");
  let apps: RunningApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("restarts with the run failed, its file kept, and re-ingest completes it", async () => {
    fs.writeFileSync(input, Array.from({ length: RECORDS }, (_, i) => trtRecordText(i)).join("\n") + "\n");
    const first = await startApp({ dataDir, env: ENV });
    apps.push(first);
    const form = new FormData();
    form.append("file", new Blob([fs.readFileSync(input)]), "perf_metrics-0.jsonl");
    let answered = "";
    const pending = fetch(`${first.url}/api/runs`, { method: "POST", body: form }).then(
      async (res) => {
        answered = `the upload was answered ${res.status}: ${await res.text()}\n`;
        return res;
      },
      () => null,
    );

    // A timeout shows what the server printed (and the upload's answer, if it came first).
    const id = await ingestingRunWithRows(
      path.join(dataDir, "runlens.sqlite"),
      WAIT_MS,
      () => `${answered}${first.logs()}`,
    );
    first.process.kill("SIGKILL");
    expect(await pending).toBeNull();

    const second = await startApp({ dataDir, env: ENV });
    // The first one is gone already; stopping it would only wait for an exit that has happened.
    apps = [second];
    type Run = { status: string; error: string | null; files: Array<{ id: string }> };
    const run = await waitUntil(
      `run ${id} no longer ingesting after the restart`,
      async () => {
        const r = (await (await fetch(`${second.url}/api/runs/${id}`)).json()) as Run;
        return r.status !== "ingesting" && r;
      },
      { intervalMs: 200, output: second.logs },
    );
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/interrupted/);
    const list = await (await fetch(`${second.url}/api/runs`)).json();
    expect(list.runs.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[id, "failed"]]);

    const file = await fetch(`${second.url}/api/runs/${id}/files/${run.files[0].id}`);
    expect(Buffer.from(await file.arrayBuffer()).equals(fs.readFileSync(input))).toBe(true);

    const re = await fetch(`${second.url}/api/runs/${id}/reingest`, { method: "POST" });
    expect(re.status).toBe(200);
    const done = await re.json();
    expect([done.status, done.files[0].records, done.timeBreakdown.requestCount]).toEqual([
      "ready",
      RECORDS,
      RECORDS,
    ]);
  }, 480_000); // two server starts, 60,000 requests ingested twice: minutes on a loaded machine
});
