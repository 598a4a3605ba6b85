/**
 * Charts computed on read (docs/architecture.md §How a chart is computed): an aiperf chart of
 * per-request columns alone (distribution, over time, TTFT vs input) that a run does not have
 * stored at its current versions is computed from the run's request file by the function the
 * ingest calls, stored, and served; the second read reads the stored payload, not the file. The
 * payload computed on read is the ingest's, to the byte, on the real runs.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { GET as getRunRoute } from "@/app/api/runs/[id]/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { AIPERF_CHARTS, type ChartDef } from "@/lib/api/chart-catalog";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { runSummarySchema } from "@/lib/api/schemas";
import { AIPERF_COLUMN_CHARTS, AIPERF_COLUMN_COMPUTE_VERSION } from "@/lib/metrics/aiperf-column-charts";
import { prefetchFirstChart } from "@/lib/runs/prefetch-first-chart";
import { storeComputedPayload } from "@/lib/store/chart-payloads";
import { aiperfColumnReads } from "@/lib/store/columnar/aiperf-request-columns";
import type { Db } from "@/lib/store/db";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { realPublicDir, realPublicParts } from "../helpers/real-public";
import { fixture, idParams, uploadGeneratedAiperf, uploadRun } from "../helpers/test-app";
import fs from "node:fs";
import path from "node:path";

const COLUMN_CHARTS = AIPERF_COLUMN_CHARTS.map((c) => c.chart);

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

function folderParts(dir: string) {
  return fs
    .readdirSync(dir)
    .sort()
    .filter((n) => n !== "PROVENANCE.md" && n !== "INDEX.md" && fs.statSync(path.join(dir, n)).isFile())
    .map((n) => ({ name: n, path: path.join(dir, n) }));
}

const SHARED_C4 = path.resolve(__dirname, "../../../shared/fixtures/aiperf-real-c4");

/** The aiperf runs whose payloads are compared: every real one there is, and a generated one of more than 2,000 requests. */
const RUNS: Array<{ name: string; parts: () => Promise<string> }> = [
  { name: "aiperf-real-c4 (test/fixtures)", parts: () => uploadRun(folderParts(fixture("aiperf-real-c4"))) },
  ...(fs.existsSync(SHARED_C4)
    ? [{ name: "../shared/fixtures/aiperf-real-c4", parts: () => uploadRun(folderParts(SHARED_C4)) }]
    : []),
  ...(
    [
      ["aiperf-0.8.0-sglang-glm5.1-agentic-conc16", ""],
      ["aiperf-0.3-qwen3-0.6b-plot-fixtures", "qwen_concurrency1"],
      ["aiperf-0.3-qwen3-0.6b-plot-fixtures", "qwen_concurrency4"],
      ["aiperf-0.2-inputs-json-canary", ""],
      ["aiperf-0.1.1-gptoss20b-cancellations", ""],
    ] as const
  ).flatMap(([folder, sub]) =>
    realPublicDir(folder)
      ? [
          {
            name: `real-public ${folder}${sub ? `/${sub}` : ""}`,
            parts: () => uploadRun(realPublicParts(folder, sub)),
          },
        ]
      : [],
  ),
  {
    name: "generated 4,500 records with warm-up and errors",
    parts: () => uploadGeneratedAiperf({ records: 4_500, warmup: 40, errorEvery: 37 }),
  },
];

describe.each(TEST_STORES)("aiperf charts computed on read on %s", (_name, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it.each(RUNS.map((r) => [r.name, r] as const))(
    "%s: a payload not stored is computed from the request file, equal to the ingest's, and stored",
    async (_n, run) => {
      const db = env.app.store.db;
      const id = await run.parts();
      for (const chart of COLUMN_CHARTS) {
        const ingest = await storedRow(db, id, chart);
        if (!ingest) {
          // No records, no chart (aiperf's inputs.json alone): none on read either.
          const reads = aiperfColumnReads.count;
          expect((await chartRequest(id, chart)).status).toBe(404);
          expect(aiperfColumnReads.count).toBe(reads);
          continue;
        }
        expect(ingest, chart.key).toMatchObject({
          version: chart.version,
          computeVersion: AIPERF_COLUMN_COMPUTE_VERSION,
        });
        const asStored = await chartText(id, chart);
        expect(asStored).toBe(ingest!.data);

        await dropPayload(db, id, chart);
        const reads = aiperfColumnReads.count;
        const onRead = await chartText(id, chart);
        expect(aiperfColumnReads.count - reads).toBe(1);
        // The same payload, to the byte: the same function over the same numbers.
        expect(onRead, chart.key).toBe(ingest!.data);
        expect(JSON.parse(onRead)).toEqual(JSON.parse(ingest!.data));
        expect(await storedRow(db, id, chart)).toEqual(ingest);

        // Stored: the next read does not touch the file.
        expect(await chartText(id, chart)).toBe(onRead);
        expect(aiperfColumnReads.count - reads).toBe(1);
      }
    },
  );

  it("recomputes a payload stored at an older chart or compute version instead of asking for a re-ingest", async () => {
    const db = env.app.store.db;
    const id = await uploadRun(folderParts(fixture("aiperf-real-c4")));
    const dist = AIPERF_CHARTS.distribution;
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
    let reads = aiperfColumnReads.count;
    expect(await chartText(id, dist)).toBe(current);
    expect(aiperfColumnReads.count - reads).toBe(1);
    expect(await storedRow(db, id, dist)).toMatchObject({ data: current, version: dist.version });

    // Computed by older code (a lower compute version): computed again, at the current one.
    const overTime = AIPERF_CHARTS.overTime;
    const overTimeText = await chartText(id, overTime);
    await db
      .updateTable("chart_data")
      .set({ data: JSON.stringify({ total: 0, points: [] }), compute_version: 0 })
      .where("run_id", "=", id)
      .where("key", "=", overTime.key)
      .execute();
    reads = aiperfColumnReads.count;
    expect(await chartText(id, overTime)).toBe(overTimeText);
    expect(aiperfColumnReads.count - reads).toBe(1);
    expect(await storedRow(db, id, overTime)).toMatchObject({
      data: overTimeText,
      computeVersion: AIPERF_COLUMN_COMPUTE_VERSION,
    });
  });

  it("computes once for two reads at the same time", async () => {
    const db = env.app.store.db;
    const id = await uploadGeneratedAiperf({ records: 3_000, warmup: 10, errorEvery: 50 });
    const chart = AIPERF_CHARTS.overTime;
    const ingest = (await storedRow(db, id, chart))!.data;
    await dropPayload(db, id, chart);
    const reads = aiperfColumnReads.count;
    const [a, b] = await Promise.all([chartText(id, chart), chartText(id, chart)]);
    expect(aiperfColumnReads.count - reads).toBe(1);
    expect(a).toBe(ingest);
    expect(b).toBe(ingest);
    expect((await storedRow(db, id, chart))?.data).toBe(ingest);
  });

  it("answers a run being re-ingested as before, without reading its file", async () => {
    const db = env.app.store.db;
    const id = await uploadRun(folderParts(fixture("aiperf-real-c4")));
    const chart = AIPERF_CHARTS.ttftVsInput;
    await dropPayload(db, id, chart);
    await db.updateTable("runs").set({ status: "ingesting" }).where("id", "=", id).execute();
    const reads = aiperfColumnReads.count;
    const res = await chartRequest(id, chart);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("drilldown_building");
    expect(aiperfColumnReads.count).toBe(reads);
    expect(await storedRow(db, id, chart)).toBeUndefined();
  });

  it("stores a payload computed on read only while the run is as it was read", async () => {
    const db = env.app.store.db;
    const id = await uploadRun(folderParts(fixture("aiperf-real-c4")));
    const chart = AIPERF_CHARTS.distribution;
    const run = await db
      .selectFrom("runs")
      .select("summary_ready_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const file = await db
      .selectFrom("run_column_files")
      .select("sha256")
      .where("run_id", "=", id)
      .where("name", "=", "aiperf-requests")
      .executeTakeFirstOrThrow();
    await dropPayload(db, id, chart);
    const payload = {
      text: '{"metrics":{}}',
      version: chart.version,
      computeVersion: AIPERF_COLUMN_COMPUTE_VERSION,
    };
    const seen = { summaryReadyAt: run.summary_ready_at, file: "aiperf-requests", sha256: file.sha256 };
    // Committed again since (a re-ingest), or another file: nothing stored.
    expect(
      await storeComputedPayload(db, id, chart.key, payload, {
        ...seen,
        summaryReadyAt: Number(run.summary_ready_at) - 1,
      }),
    ).toBe(false);
    expect(await storeComputedPayload(db, id, chart.key, payload, { ...seen, sha256: "0".repeat(64) })).toBe(
      false,
    );
    await db.updateTable("runs").set({ status: "ingesting" }).where("id", "=", id).execute();
    expect(await storeComputedPayload(db, id, chart.key, payload, seen)).toBe(false);
    expect(await storedRow(db, id, chart)).toBeUndefined();
    await db.updateTable("runs").set({ status: "ready" }).where("id", "=", id).execute();
    expect(await storeComputedPayload(db, id, chart.key, payload, seen)).toBe(true);
    expect(await storeComputedPayload(db, id, chart.key, payload, seen)).toBe(true);
    expect((await storedRow(db, id, chart))?.data).toBe(payload.text);
  });

  it("the server prefetch of the Latency view's first chart computes it the same way", async () => {
    const db = env.app.store.db;
    const id = await uploadRun(folderParts(fixture("aiperf-real-c4")));
    const chart = AIPERF_CHARTS.distribution;
    const ingest = (await storedRow(db, id, chart))!.data;
    await dropPayload(db, id, chart);
    const summary = runSummarySchema.parse(
      await (await getRunRoute(new Request("http://localhost"), idParams(id))).json(),
    );
    const client = new QueryClient();
    const reads = aiperfColumnReads.count;
    await prefetchFirstChart(client, db, summary, "latency");
    expect(aiperfColumnReads.count - reads).toBe(1);
    const options = runChartQueryOptions(id, chart, chartVersion(summary));
    expect(client.getQueryData(options.queryKey)).toEqual(JSON.parse(ingest));
    expect((await storedRow(db, id, chart))?.data).toBe(ingest);
  });
});
