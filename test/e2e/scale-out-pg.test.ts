/**
 * Two server instances on one PostgreSQL schema behave as one Runlens: a run uploaded
 * through one is listed, summarised, charted, drilled into and downloaded through the other,
 * and a delete through either is seen by both. Nothing may live only in one instance's memory
 * or disk. Skipped unless RUNLENS_TEST_DATABASE_URL is set.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { apiUpload, startApp, type RunningApp } from "./harness";
import { waitUntil } from "../helpers/wait.mjs";

describe.skipIf(!PG_URL)("scale-out: two instances on one PostgreSQL", () => {
  let a: RunningApp;
  let b: RunningApp;
  let drop: () => Promise<void>;
  let inputs: string;

  beforeAll(async () => {
    const schema = await freshSchema();
    drop = schema.drop;
    inputs = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-scale-out-"));
    await generateAiperfRun(path.join(inputs, "aiperf"), { records: 2_000, csv: false });
    generateTrtllmRun({ dir: path.join(inputs, "trtllm"), mode: "disaggregated", requests: 300 });
    // Started one after the other so the second sees the first's migrations already applied.
    a = await startApp({ env: { DATABASE_URL: schema.url } });
    b = await startApp({ env: { DATABASE_URL: schema.url } });
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await drop?.();
    if (inputs) fs.rmSync(inputs, { recursive: true, force: true });
  });

  it("reads through B what was uploaded through A, and deletes through B", async () => {
    const up = await apiUpload(a.url, [{ path: path.join(inputs, "aiperf/profile_export.jsonl") }]);
    expect(up.files[0].records).toBe(2_000);

    const list = await (await fetch(`${b.url}/api/runs`)).json();
    expect(list.runs.map((r: { id: string }) => r.id)).toContain(up.id);

    const viaA = await (await fetch(`${a.url}/api/runs/${up.id}`)).json();
    const viaB = await (await fetch(`${b.url}/api/runs/${up.id}`)).json();
    expect(viaB.status).toBe("ready");
    expect(viaB.requests).toEqual(viaA.requests);
    expect(viaB.requests.count).toBeGreaterThan(0);

    // The raw file (a blob in PostgreSQL, not on A's disk) downloads through B byte for byte.
    const file = await fetch(`${b.url}/api/runs/${up.id}/files/${viaB.files[0].id}`);
    expect(file.status).toBe(200);
    const original = fs.readFileSync(path.join(inputs, "aiperf/profile_export.jsonl"));
    expect(Buffer.from(await file.arrayBuffer()).equals(original)).toBe(true);

    // A run is deleted once its drill-down, built by A after the summary, is stored too (before
    // that a delete is refused with 409 ingest_in_progress).
    await waitUntil(
      `run ${up.id}'s drill-down`,
      async () =>
        ((await (await fetch(`${b.url}/api/runs/${up.id}`)).json()) as { drilldownReadyAt: string | null })
          .drilldownReadyAt,
      { intervalMs: 200, output: b.logs },
    );
    expect((await fetch(`${b.url}/api/runs/${up.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(`${a.url}/api/runs/${up.id}`)).status).toBe(404);
    expect((await fetch(`${b.url}/api/runs/${up.id}`)).status).toBe(404);
  });

  it("serves B's per-request rows and charts through A, and deletes through A", async () => {
    const dir = path.join(inputs, "trtllm");
    const files = fs.readdirSync(dir).map((f) => ({ path: path.join(dir, f) }));
    const up = await apiUpload(b.url, files);

    const sample = await fetch(`${a.url}/api/runs/${up.id}/trtllm/requests?sort=e2e&order=desc&limit=50`);
    expect(sample.status).toBe(200);
    const body = await sample.json();
    expect(JSON.stringify(body).length).toBeGreaterThan(100);

    const summary = await (await fetch(`${a.url}/api/runs/${up.id}`)).json();
    expect(summary.timeBreakdown).not.toBeNull();
    const chartA = await fetch(`${a.url}/api/runs/${up.id}/charts/trtllm-segments`);
    const chartB = await fetch(`${b.url}/api/runs/${up.id}/charts/trtllm-segments`);
    expect(chartA.status).toBe(200);
    expect(await chartA.text()).toBe(await chartB.text());

    expect((await fetch(`${a.url}/api/runs/${up.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(`${b.url}/api/runs/${up.id}`)).status).toBe(404);
    const sampleAfter = await fetch(`${b.url}/api/runs/${up.id}/trtllm/requests`);
    expect(sampleAfter.status).toBe(404);
  });
});
