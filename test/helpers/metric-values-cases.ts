/**
 * The stored per-request values of verdict metrics (run_metric_values), through the real upload,
 * verdict, re-ingest and delete handlers, on whichever store the app was opened on. aiperf runs
 * from test/generators/aiperf.mjs (aiperf's profile_export.jsonl record layout, with warm-up and
 * failed requests the verdicts must leave out); TensorRT-LLM runs from
 * test/generators/trtllm-latency.mjs (records as tensorrt_llm/serve/perf_metrics.py builds them).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { DELETE as deleteRun } from "@/app/api/runs/[id]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { GET as verdicts } from "@/app/api/runs/[id]/verdicts/route";
import { POST as upload } from "@/app/api/runs/route";
import { gateResultSchema } from "@/lib/api/regression-schemas";
import type { AppContext } from "@/lib/server/app-context";
import { aiperfRequestsSource } from "@/lib/store/columnar/aiperf-request-file";
import { queryArrays } from "@/lib/store/columnar/engine";
import { readMetricValues, writeMetricValues } from "@/lib/store/metric-values";
import { requestValuesByRun } from "@/lib/store/series-repo";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { writeLatencyRun } from "../generators/trtllm-latency.mjs";
import { idParams, uploadRequest } from "./test-app";

const SERIES = "nightly/blob-values";

async function uploadAiperf(seed: number, ttftScale: number, fields: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "metric-values-"));
  const run = await generateAiperfRun(dir, {
    records: 2000,
    warmup: 25,
    errorEvery: 7,
    seed,
    csv: false,
    ttftScale,
  });
  const files = ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
    name,
    path: path.join(dir, name),
  }));
  const res = await upload(uploadRequest(files, fields));
  expect(res.status).toBe(201);
  fs.rmSync(dir, { recursive: true, force: true });
  return { id: ((await res.json()) as { id: string }).id, ok: run.counts.ok as number };
}

async function judgement(id: string, qs: string) {
  const res = await verdicts(new Request(`http://localhost/api/runs/${id}/verdicts?${qs}`), idParams(id));
  expect(res.status).toBe(200);
  return gateResultSchema.parse(await res.json()).judgement!;
}

async function storedRows(app: AppContext, ids: string[]) {
  return app.store.db
    .selectFrom("run_metric_values")
    .select(["run_id", "metric", "count"])
    .where("run_id", "in", ids)
    .orderBy("run_id")
    .orderBy("metric")
    .execute();
}

const post = (id: string) => reingest(new Request("http://localhost", { method: "POST" }), idParams(id));

export function metricValuesCases(env: { app: AppContext }): void {
  it("stores no client latency blob for an aiperf run with a request file: the verdict reads its file", async () => {
    const { id, ok } = await uploadAiperf(11, 1, { series: SERIES });
    const db = env.app.store.db;
    const rows = await storedRows(env.app, [id]);
    // Only the TensorRT-LLM fields have a row, empty: "none", not "read the request rows".
    expect(rows.map((r) => [r.metric, Number(r.count)])).toEqual([
      ["server_e2e", 0],
      ["server_ttft", 0],
    ]);
    // 2,000 profiling records, every 7th failed: 1,715 measured; the 25 warm-up records left out.
    expect(ok).toBe(2000 - Math.floor(2000 / 7));
    const src = (await aiperfRequestsSource(db, id))!;
    expect(src).not.toBeNull();
    for (const f of ["ttft", "itl", "e2e"] as const) {
      const values = (await requestValuesByRun(db, [id], f))[0];
      expect(values.length).toBe(ok);
      // DuckDB's own sort of the same rows: the order the blob was stored in.
      const sorted = await queryArrays(
        `select ${f}_ms from ${src} where phase = 'profiling' and ok = 1 and ${f}_ms is not null order by ${f}_ms`,
      );
      expect(Array.from(values)).toEqual(sorted.map((r) => Number(r[0])));
    }
  });

  it("gives the same verdicts from the request files as from blobs of their values, and re-ingest stores none", async () => {
    const db = env.app.store.db;
    const base = await uploadAiperf(21, 1, { series: SERIES });
    const second = await uploadAiperf(22, 1, { series: SERIES });
    const run = await uploadAiperf(23, 1.1, { series: SERIES });
    const ids = [base.id, second.id, run.id];
    for (const qs of ["baseline=last", "baseline=last:2", `baseline=${base.id}`]) {
      const fromFiles = await judgement(run.id, qs);
      expect(fromFiles.verdicts.find((v) => v.metric === "ttft.p50")!.verdict).toBe("regressed");
      // A run stored with its values as blobs (before the request file held them): the same verdicts.
      for (const id of ids) {
        const values = new Map<string, Float64Array>();
        for (const f of ["ttft", "itl", "e2e"] as const)
          values.set(f, Float64Array.from((await requestValuesByRun(db, [id], f))[0]));
        await writeMetricValues(db, id, values);
      }
      expect((await storedRows(env.app, ids)).length).toBe(9);
      expect(await judgement(run.id, qs)).toEqual(fromFiles);
      await db.deleteFrom("run_metric_values").where("run_id", "in", ids).execute();
      expect(await judgement(run.id, qs)).toEqual(fromFiles);
    }

    expect(await storedRows(env.app, [run.id])).toEqual([]);
    expect((await post(run.id)).status).toBe(200);
    expect((await storedRows(env.app, [run.id])).map((r) => [r.metric, Number(r.count)])).toEqual([
      ["server_e2e", 0],
      ["server_ttft", 0],
    ]);

    expect(
      (await deleteRun(new Request("http://localhost", { method: "DELETE" }), idParams(run.id))).status,
    ).toBe(204);
    expect(await storedRows(env.app, [run.id])).toEqual([]);
  });

  it("stores a TensorRT-LLM run's server TTFT and E2E, the values of its request rows", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "metric-values-trt-"));
    // Known per-request latencies: the blob holds exactly these, ascending.
    const specs = [
      { ttftMs: 300, e2eMs: 2300, steps: 100 },
      { ttftMs: 100, e2eMs: 1100, steps: 50 },
      { ttftMs: 250, e2eMs: 900, steps: 20 },
      { ttftMs: 125.5, e2eMs: 1700, steps: 60 },
    ];
    const file = writeLatencyRun({ dir, mode: "disaggregated", requests: specs });
    const res = await upload(uploadRequest([{ name: path.basename(file), path: file }]));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    fs.rmSync(dir, { recursive: true, force: true });
    const db = env.app.store.db;
    const ttft = (await readMetricValues(db, [id], "server_ttft")).get(id)!;
    const e2e = (await readMetricValues(db, [id], "server_e2e")).get(id)!;
    expect(Array.from(ttft)).toEqual([100, 125.5, 250, 300].map((v) => expect.closeTo(v, 6)));
    expect(Array.from(e2e)).toEqual([900, 1100, 1700, 2300].map((v) => expect.closeTo(v, 6)));
    expect((await readMetricValues(db, [id], "ttft")).get(id)!.length).toBe(0);
    await db.deleteFrom("run_metric_values").where("run_id", "=", id).execute();
    expect(Array.from((await requestValuesByRun(db, [id], "server_ttft"))[0])).toEqual(Array.from(ttft));
    expect(Array.from((await requestValuesByRun(db, [id], "server_e2e"))[0])).toEqual(Array.from(e2e));
  });
}
