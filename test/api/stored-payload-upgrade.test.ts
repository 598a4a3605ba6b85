/**
 * Stored payloads evolve (docs/architecture.md §Stored payloads evolve): a chart payload written
 * by an older Runlens, the row as it wrote it (no version column: version 1), is read through the
 * chart route in its chart's current shape, or answered `409 recompute_needed` when what it lacks
 * is not in it; re-ingest then stores it at the current version.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { GET as getRunRoute } from "@/app/api/runs/[id]/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { RECOMPUTE_NEEDED } from "@/lib/api/chart-upgrade";
import {
  AIPERF_CHARTS,
  ROUTER_LOG_CHART,
  TRTLLM_CHARTS,
  type ChartDef,
  type ChartPayload,
} from "@/lib/api/chart-catalog";
import { ROUTER_LOG_MAX_WORKERS, type RouterLogWorker } from "@/lib/api/router-log";
import { runSummarySchema } from "@/lib/api/schemas";
import type { Db } from "@/lib/store/db";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { fixture, idParams, uploadRun } from "../helpers/test-app";

const chartRequest = (id: string, chart: ChartDef) =>
  getChart(new Request(`http://localhost/api/runs/${id}/charts/${chart.key}`), {
    params: Promise.resolve({ id, key: chart.key }),
  });

/** The row an older Runlens wrote: run, key and text, no version (the column's default, 1). */
async function writeOldRow(db: Db, runId: string, chart: ChartDef, payload: unknown) {
  await db.deleteFrom("chart_data").where("run_id", "=", runId).where("key", "=", chart.key).execute();
  await sql`insert into chart_data (run_id, key, data) values (${runId}, ${chart.key}, ${JSON.stringify(payload)})`.execute(
    db,
  );
}

async function storedVersion(db: Db, runId: string, chart: ChartDef) {
  const row = await db
    .selectFrom("chart_data")
    .select("version")
    .where("run_id", "=", runId)
    .where("key", "=", chart.key)
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

const worker = (i: number, requests: number): RouterLogWorker => ({
  workerId: `w${String(i).padStart(3, "0")}`,
  dpRank: null,
  workerType: null,
  requests,
  overlapBlocks: requests,
  totalBlocks: 4 * requests,
  predicted: 0.25,
  endpoint: null,
  delivered: null,
  gapPoints: null,
});

describe.each(TEST_STORES)("stored payloads of an older version on %s", (_name, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("are upgraded on read, or answered recompute_needed until re-ingest recomputes them", async () => {
    const db = env.app.store.db;
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
    ]);

    // An ingest stores each payload at its chart's version.
    const dist = AIPERF_CHARTS.distribution;
    expect(await storedVersion(db, id, dist)).toBe(dist.version);
    const current = (await (await chartRequest(id, dist)).json()) as ChartPayload<typeof dist>;

    // Turns stored before the payload said how its possible reuse was counted: from the records.
    const turns = {
      conversations: 2,
      withoutTurn: 0,
      cachedKnown: false,
      theoreticalHitRate: null,
      rows: [],
    };
    await writeOldRow(db, id, AIPERF_CHARTS.turns, turns);
    const turnsRes = await chartRequest(id, AIPERF_CHARTS.turns);
    expect(turnsRes.status).toBe(200);
    expect(AIPERF_CHARTS.turns.schema.parse(await turnsRes.json())).toEqual({
      ...turns,
      possibleSource: "records",
    });

    // A router log stored before its worker list was bounded lists every worker: bounded on read.
    const workers = Array.from({ length: ROUTER_LOG_MAX_WORKERS + 12 }, (_, i) => worker(i, 1000 - i));
    await writeOldRow(db, id, ROUTER_LOG_CHART, {
      files: ["frontend.log"],
      source: "[ROUTING] Best",
      decisions: 10,
      outsideWindow: 0,
      untimed: 0,
      decodeDecisions: 0,
      predicted: 0.25,
      delivered: null,
      deliveredMethod: null,
      gapPoints: null,
      workers,
      mapping: "no scrape endpoints",
      missing: null,
      stepS: null,
      startEpochMs: null,
      points: [],
    });
    const logRes = await chartRequest(id, ROUTER_LOG_CHART);
    expect(logRes.status).toBe(200);
    const log = ROUTER_LOG_CHART.schema.parse(await logRes.json());
    expect(log.workers).toEqual(workers.slice(0, ROUTER_LOG_MAX_WORKERS));
    const rest = workers.slice(ROUTER_LOG_MAX_WORKERS);
    const requests = rest.reduce((s, w) => s + w.requests, 0);
    expect(log.otherWorkers).toEqual({
      count: 12,
      requests,
      overlapBlocks: requests,
      totalBlocks: 4 * requests,
      predicted: 0.25,
    });

    // Segments stored before clamped counts and p75 were kept: nothing in them gives those.
    await writeOldRow(db, id, TRTLLM_CHARTS.segments, {
      mode: "aggregated",
      requestCount: 4,
      segments: [
        {
          name: "ctx_queue",
          label: "Queue",
          count: 4,
          notRecorded: 0,
          excluded: 0,
          ...{ meanMs: 25, p50Ms: 25, p90Ms: 37, p99Ms: 39.7 },
        },
      ],
    });
    const segRes = await chartRequest(id, TRTLLM_CHARTS.segments);
    expect(segRes.status).toBe(409);
    const segErr = ((await segRes.json()) as { error: { code: string; message: string } }).error;
    expect(segErr.code).toBe(RECOMPUTE_NEEDED);
    expect(segErr.message).toContain("clamped counts and p75");
    expect(segErr.message).toContain(`/api/runs/${id}/reingest`);

    // GPU telemetry stored before the profiling window was kept: drawn whole, it showed samples
    // from before and after the benchmark as part of it, so it is recomputed; without records
    // there was no window to keep, and it reads as the current shape.
    const gpuV1 = {
      gpus: [
        { id: "0", label: "GPU 0", points: [{ tS: -30, powerW: 80, utilizationPct: 0, memoryUsedGb: 1 }] },
      ],
      energyJ: null,
      outputTokens: null,
      energyPerOutputTokenJ: null,
      duplicateGpus: 0,
      distinctGpus: 1,
      overlapsWindow: false,
    };
    await writeOldRow(db, id, AIPERF_CHARTS.gpu, gpuV1);
    const gpuRes = await chartRequest(id, AIPERF_CHARTS.gpu);
    expect(gpuRes.status).toBe(409);
    const gpuErr = ((await gpuRes.json()) as { error: { code: string; message: string } }).error;
    expect(gpuErr.code).toBe(RECOMPUTE_NEEDED);
    expect(gpuErr.message).toContain("stored before the profiling window was kept");
    await writeOldRow(db, id, AIPERF_CHARTS.gpu, { ...gpuV1, overlapsWindow: null });
    const gpuNoRecords = await chartRequest(id, AIPERF_CHARTS.gpu);
    expect(gpuNoRecords.status).toBe(200);
    expect(await gpuNoRecords.json()).toEqual({ ...gpuV1, overlapsWindow: null, window: null });

    // A distribution of version 1 that kept p75 is the current shape as it is…
    await writeOldRow(db, id, dist, current);
    const kept = await chartRequest(id, dist);
    expect(kept.status).toBe(200);
    expect(await kept.json()).toEqual(current);

    // …one stored before p75 was kept must be recomputed: never a chart without its p75. The
    // run's request file gives it on read (test/api/chart-on-read.test.ts); a run without the
    // file (its per-request data kept as rows) is asked to re-ingest.
    const withoutP75 = structuredClone(current);
    for (const d of Object.values(withoutP75.metrics)) if (d) delete (d as { p75?: number }).p75;
    await writeOldRow(db, id, dist, withoutP75);
    const recomputed = await chartRequest(id, dist);
    expect(recomputed.status).toBe(200);
    expect(await recomputed.json()).toEqual(current);
    expect(await storedVersion(db, id, dist)).toBe(dist.version);
    await writeOldRow(db, id, dist, withoutP75);
    await db.deleteFrom("run_column_files").where("run_id", "=", id).execute();
    const stale = await chartRequest(id, dist);
    expect(stale.status).toBe(409);
    const staleErr = ((await stale.json()) as { error: { code: string; message: string } }).error;
    expect(staleErr.code).toBe(RECOMPUTE_NEEDED);
    expect(staleErr.message).toContain("stored before p75 was kept");

    // Re-ingest recomputes every payload from the run's raw files, at the current version.
    expect((await reingest(new Request("http://localhost", { method: "POST" }), idParams(id))).status).toBe(
      200,
    );
    expect(await storedVersion(db, id, dist)).toBe(dist.version);
    const fresh = await chartRequest(id, dist);
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toEqual(current);
  });
});

async function readSummary(id: string) {
  const res = await getRunRoute(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  expect(res.status).toBe(200);
  return runSummarySchema.parse(await res.json());
}

type Loose = Record<string, unknown>;

/** A summary as an older aggregator wrote it: without what it did not keep then. */
function oldSummary(current: Loose): Loose {
  const old = structuredClone(current);
  delete old.ingestedAt;
  delete old.throughput;
  const tb = old.timeBreakdown as Loose;
  delete tb.kvBlockLookups;
  for (const seg of tb.segments as Loose[]) {
    delete seg.p75Ms;
    delete seg.p95Ms;
  }
  const latency = tb.latency as Loose;
  delete latency.tokPerUser;
  delete latency.tokensFromIterations;
  delete latency.oneResponse;
  const cache = (old.serverMetrics as Loose).cache as Loose;
  for (const k of ["externalHitRate", "lookupTokens", "servedTokens", "gaugeHitRateAvg", "histogramHitRate"])
    delete cache[k];
  delete cache.lmcacheHitRate;
  delete cache.countersExported;
  return old;
}

describe.each(TEST_STORES)("a run summary stored by an older aggregator on %s", (_name, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("is read in the current shape, what it cannot give null and said, until re-ingest recomputes it", async () => {
    const db = env.app.store.db;
    const id = await uploadRun([
      { name: "perf_metrics.jsonl", path: fixture("trtllm/perf_metrics-disagg-reconstructed.jsonl") },
      {
        name: "server_metrics_export.jsonl",
        path: fixture("server-metrics/doc-vllm__server_metrics_export.jsonl"),
      },
    ]);
    const fresh = await readSummary(id);
    expect(fresh.recompute).toBeNull();
    expect(fresh.timeBreakdown?.latency).not.toBeNull();
    const row = await db
      .selectFrom("runs")
      .select(["summary", "summary_ready_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(row.summary!) as Loose;

    await db
      .updateTable("runs")
      .set({ summary: JSON.stringify(oldSummary(stored)), aggregator_version: 10 })
      .where("id", "=", id)
      .execute();
    const old = await readSummary(id);
    expect(old.aggregatorVersion).toBe(10);
    // Derived from what the row holds: the commit time stamps the chart URLs, throughput reads as before.
    expect(old.ingestedAt).toBe(Number(row.summary_ready_at));
    expect(old.throughput).toBeNull();
    expect(old.derived).toEqual(fresh.derived);
    // Not derivable: null, never 0, and said with the way to get it.
    const tb = old.timeBreakdown!;
    expect(tb.kvBlockLookups).toBeNull();
    expect(tb.latency).toBeNull();
    for (const seg of tb.segments) expect([seg.p75Ms, seg.p95Ms]).toEqual([null, null]);
    expect(old.serverMetrics!.cache).toMatchObject({
      lookupTokens: null,
      externalHitRate: null,
      servedTokens: { gpu: null, host: null, external: null },
      countersExported: [],
    });
    expect(old.serverMetrics!.cache.gpuHitRate).toBe(fresh.serverMetrics!.cache.gpuHitRate);
    expect(old.recompute).toContain("aggregator version 10");
    for (const what of ["p75 and p95", "KV blocks looked up", "latency", "cache's per-tier tokens"])
      expect(old.recompute).toContain(what);
    expect(old.recompute).toContain(`POST /api/runs/${id}/reingest`);

    // Re-ingest recomputes every block from the raw files.
    expect((await reingest(new Request("http://localhost", { method: "POST" }), idParams(id))).status).toBe(
      200,
    );
    const again = await readSummary(id);
    expect(again.recompute).toBeNull();
    expect(again.timeBreakdown).toEqual(fresh.timeBreakdown);
    expect(again.serverMetrics).toEqual(fresh.serverMetrics);
  });
});
