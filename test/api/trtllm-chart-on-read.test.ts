/**
 * TensorRT-LLM charts computed on read (docs/architecture.md §How a chart is computed): a chart
 * of per-request columns alone (latency distribution, latency over time, KV transfer bandwidth,
 * segment share) that a run does not have stored at its current versions is computed from the
 * run's request file by the function the ingest calls, stored and served; the second read reads
 * the stored payload, not the file. The payload computed on read is the ingest's, to the byte.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { TRTLLM_CHARTS, type ChartDef } from "@/lib/api/chart-catalog";
import { compareQuerySchema } from "@/lib/api/compare-schemas";
import { loadComparison } from "@/lib/runs/compare-runs";
import { compareReport } from "@/lib/runs/report/compare-report";
import { runReport } from "@/lib/runs/report/run-report";
import { TRTLLM_COLUMN_CHARTS, TRTLLM_COLUMN_COMPUTE_VERSION } from "@/lib/metrics/trtllm-column-charts";
import { queryRows, quote } from "@/lib/store/columnar/engine";
import { putRunFile, runFile, runFileTmpPath } from "@/lib/store/columnar/run-files";
import { TRTLLM_REQUESTS_FILE } from "@/lib/store/columnar/trtllm-request-file";
import { trtllmColumnReads } from "@/lib/store/columnar/trtllm-request-columns";
import type { Db } from "@/lib/store/db";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { realPublicDir, realPublicParts } from "../helpers/real-public";
import { fixture, uploadRun, waitForDrilldown } from "../helpers/test-app";

const COLUMN_CHARTS = TRTLLM_COLUMN_CHARTS.map((c) => c.chart);

const chartRequest = (id: string, chart: ChartDef) =>
  getChart(new Request(`http://localhost/api/runs/${id}/charts/${chart.key}`), {
    params: Promise.resolve({ id, key: chart.key }),
  });

async function chartText(id: string, chart: ChartDef): Promise<string> {
  const res = await chartRequest(id, chart);
  expect(res.status, `${chart.key}: ${res.status}`).toBe(200);
  return res.text();
}

const dropPayload = (db: Db, id: string, chart: ChartDef) =>
  db.deleteFrom("chart_data").where("run_id", "=", id).where("key", "=", chart.key).execute();

async function storedRow(db: Db, id: string, chart: ChartDef) {
  const row = await db
    .selectFrom("chart_data")
    .select(["data", "version", "compute_version"])
    .where("run_id", "=", id)
    .where("key", "=", chart.key)
    .executeTakeFirst();
  return row && { data: row.data, version: Number(row.version), computeVersion: Number(row.compute_version) };
}

async function upload(files: Array<{ name: string; path: string }>): Promise<string> {
  const id = await uploadRun(files);
  await waitForDrilldown(id);
  return id;
}

/** A generated run of more requests than a DuckDB data chunk, its files removed once uploaded. */
async function uploadGenerated(opts: Record<string, unknown>): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-on-read-"));
  try {
    const run = generateTrtllmRun({ dir, ...opts });
    return await upload(run.files.map((f: string) => ({ name: path.basename(f), path: f })));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const REAL_PUBLIC = "trtllm-1.2.1-disagg-perf-metrics-ddps-lab";

/** The TensorRT-LLM runs whose payloads are compared. */
const RUNS: Array<{ name: string; upload: () => Promise<string> }> = [
  ...(realPublicDir(REAL_PUBLIC)
    ? [{ name: `real-public ${REAL_PUBLIC}`, upload: () => upload(realPublicParts(REAL_PUBLIC)) }]
    : []),
  {
    name: "example disaggregated run (time-breakdown README)",
    upload: () =>
      upload([
        { name: "perf_metrics.json", path: fixture("trtllm/time_breakdown_readme_disaggregated.json") },
      ]),
  },
  {
    name: "example aggregated run (time-breakdown README)",
    upload: () =>
      upload([{ name: "perf_metrics.json", path: fixture("trtllm/time_breakdown_readme_aggregated.json") }]),
  },
  {
    name: "disaggregated record with every lifecycle stamp",
    upload: () =>
      upload([
        { name: "perf_metrics.jsonl", path: fixture("trtllm/perf_metrics-disagg-reconstructed.jsonl") },
      ]),
  },
  {
    name: "generated disaggregated run of 3,000 requests",
    upload: () =>
      uploadGenerated({
        mode: "disaggregated",
        requests: 3_000,
        seed: 28,
        stepsPerRequest: 3,
        dropServerFirstTokenRate: 0.1,
        noTransferStampsRate: 0.1,
      }),
  },
  {
    name: "generated aggregated run of 2,500 requests",
    upload: () => uploadGenerated({ mode: "aggregated", requests: 2_500, seed: 7, stepsPerRequest: 4 }),
  },
];

describe.each(TEST_STORES)("TensorRT-LLM charts computed on read on %s", (_name, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it.each(RUNS.map((r) => [r.name, r] as const))(
    "%s: a payload not stored is computed from the request file, equal to the ingest's, and stored",
    async (_n, run) => {
      const db = env.app.store.db;
      const id = await run.upload();
      let computed = 0;
      for (const chart of COLUMN_CHARTS) {
        const ingest = await storedRow(db, id, chart);
        expect(ingest, chart.key).toMatchObject({
          version: chart.version,
          computeVersion: TRTLLM_COLUMN_COMPUTE_VERSION,
        });
        expect(await chartText(id, chart)).toBe(ingest!.data);

        await dropPayload(db, id, chart);
        const reads = trtllmColumnReads.count;
        const onRead = await chartText(id, chart);
        expect(trtllmColumnReads.count - reads).toBe(1);
        // The same payload, to the byte: the same function over the same numbers.
        expect(onRead, chart.key).toBe(ingest!.data);
        expect(await storedRow(db, id, chart)).toEqual(ingest);
        computed++;

        // Stored: the next read does not touch the file.
        expect(await chartText(id, chart)).toBe(onRead);
        expect(trtllmColumnReads.count - reads).toBe(1);
      }
      expect(computed).toBe(COLUMN_CHARTS.length);
    },
  );

  it("recomputes a payload stored at an older chart or compute version instead of asking for a re-ingest", async () => {
    const db = env.app.store.db;
    const id = await upload([
      { name: "perf_metrics.json", path: fixture("trtllm/time_breakdown_readme_disaggregated.json") },
    ]);
    const dist = TRTLLM_CHARTS.latencyDistribution;
    const current = await chartText(id, dist);

    // Stored before p75 was kept (version 1 of the chart): its upgrade asks for a recompute,
    // which the run's request file gives.
    const withoutP75 = JSON.parse(current) as { metrics: Record<string, Record<string, unknown> | null> };
    for (const d of Object.values(withoutP75.metrics)) if (d) delete d.p75;
    await db
      .updateTable("chart_data")
      .set({ data: JSON.stringify(withoutP75), version: 1 })
      .where("run_id", "=", id)
      .where("key", "=", dist.key)
      .execute();
    let reads = trtllmColumnReads.count;
    expect(await chartText(id, dist)).toBe(current);
    expect(trtllmColumnReads.count - reads).toBe(1);
    expect(await storedRow(db, id, dist)).toMatchObject({ data: current, version: dist.version });

    // Computed by older code (a lower compute version): computed again, at the current one.
    const overTime = TRTLLM_CHARTS.latencyOverTime;
    const overTimeText = await chartText(id, overTime);
    await db
      .updateTable("chart_data")
      .set({ data: JSON.stringify({ total: 0, points: [] }), compute_version: 0 })
      .where("run_id", "=", id)
      .where("key", "=", overTime.key)
      .execute();
    reads = trtllmColumnReads.count;
    expect(await chartText(id, overTime)).toBe(overTimeText);
    expect(trtllmColumnReads.count - reads).toBe(1);
    expect(await storedRow(db, id, overTime)).toMatchObject({
      data: overTimeText,
      computeVersion: TRTLLM_COLUMN_COMPUTE_VERSION,
    });
  });

  it("computes once for two reads at the same time", async () => {
    const db = env.app.store.db;
    const id = await uploadGenerated({ mode: "disaggregated", requests: 2_200, seed: 3, stepsPerRequest: 2 });
    const chart = TRTLLM_CHARTS.latencyOverTime;
    const ingest = (await storedRow(db, id, chart))!.data;
    await dropPayload(db, id, chart);
    const reads = trtllmColumnReads.count;
    const [a, b] = await Promise.all([chartText(id, chart), chartText(id, chart)]);
    expect(trtllmColumnReads.count - reads).toBe(1);
    expect(a).toBe(ingest);
    expect(b).toBe(ingest);
    expect((await storedRow(db, id, chart))?.data).toBe(ingest);
  });

  it("answers a run being re-ingested as before, without reading its file", async () => {
    const db = env.app.store.db;
    const id = await upload([
      { name: "perf_metrics.json", path: fixture("trtllm/time_breakdown_readme_disaggregated.json") },
    ]);
    const chart = TRTLLM_CHARTS.kvTransferBandwidth;
    await dropPayload(db, id, chart);
    await db.updateTable("runs").set({ status: "ingesting" }).where("id", "=", id).execute();
    const reads = trtllmColumnReads.count;
    const res = await chartRequest(id, chart);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("drilldown_building");
    expect(trtllmColumnReads.count).toBe(reads);
    expect(await storedRow(db, id, chart)).toBeUndefined();
  });

  it("the run report, the compare report and Compare's chart list read the charts computed on read", async () => {
    const db = env.app.store.db;
    const a = await uploadGenerated({ mode: "disaggregated", requests: 400, seed: 5, stepsPerRequest: 2 });
    const b = await upload([
      { name: "perf_metrics.json", path: fixture("trtllm/time_breakdown_readme_disaggregated.json") },
    ]);
    const now = new Date("2026-12-01T00:00:00Z");
    const query = compareQuerySchema.parse({ runs: `${a},${b}`, baseline: a, stat: "p50" });
    const report = (await runReport(db, a, now))!.html;
    const compared = (await compareReport(db, query, now))!.html;
    const keys = (await loadComparison(db, query)).chartKeys;
    for (const id of [a, b]) for (const chart of COLUMN_CHARTS) expect(keys[id]).toContain(chart.key);

    for (const id of [a, b]) for (const chart of COLUMN_CHARTS) await dropPayload(db, id, chart);
    // Compare lists them without reading a file.
    let reads = trtllmColumnReads.count;
    expect((await loadComparison(db, query)).chartKeys).toEqual(keys);
    expect(trtllmColumnReads.count - reads).toBe(0);
    // The run report computes each of its run's column charts once, the same payloads.
    expect((await runReport(db, a, now))!.html).toBe(report);
    expect(trtllmColumnReads.count - reads).toBe(COLUMN_CHARTS.length);
    for (const chart of COLUMN_CHARTS) expect(await storedRow(db, a, chart), chart.key).toBeDefined();
    // The compare report reads the latency distribution of the run not yet read.
    reads = trtllmColumnReads.count;
    expect((await compareReport(db, query, now))!.html).toBe(compared);
    expect(trtllmColumnReads.count - reads).toBe(1);
  });

  it("reads the latency charts of a request file written before output_tokens as stored, and computes the others", async () => {
    const db = env.app.store.db;
    const id = await upload([
      { name: "perf_metrics.json", path: fixture("trtllm/time_breakdown_readme_disaggregated.json") },
    ]);
    // The run's file as an earlier Runlens wrote it: without the columns TPOT reads.
    const file = (await runFile(db, id, TRTLLM_REQUESTS_FILE))!;
    const tmp = runFileTmpPath(db);
    await queryRows(
      `copy (select * exclude (output_tokens, one_response) from read_parquet(${quote(file.path)})) to ${quote(tmp)} (format parquet)`,
    );
    await putRunFile(db, id, TRTLLM_REQUESTS_FILE, tmp, file.rows);

    const dist = TRTLLM_CHARTS.latencyDistribution;
    const stale = JSON.parse(await chartText(id, dist)) as {
      metrics: Record<string, Record<string, unknown> | null>;
    };
    for (const d of Object.values(stale.metrics)) if (d) delete d.p75;
    await db
      .updateTable("chart_data")
      .set({ data: JSON.stringify(stale), version: 1 })
      .where("run_id", "=", id)
      .where("key", "=", dist.key)
      .execute();
    const res = await chartRequest(id, dist);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("recompute_needed");

    const bandwidth = TRTLLM_CHARTS.kvTransferBandwidth;
    const ingest = (await storedRow(db, id, bandwidth))!.data;
    await dropPayload(db, id, bandwidth);
    const reads = trtllmColumnReads.count;
    expect(await chartText(id, bandwidth)).toBe(ingest);
    expect(trtllmColumnReads.count - reads).toBe(1);
    expect((await storedRow(db, id, bandwidth))?.data).toBe(ingest);
  });
});
