import { describe, expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { chartVersion, storedChartVersion } from "@/lib/api/chart-version";
import { runSummarySchema } from "@/lib/api/schemas";
import { IMMUTABLE_CACHE } from "@/lib/server/http";
import { fixture, freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { AIPERF_COLUMN_COMPUTE_VERSION } from "@/lib/metrics/aiperf-column-charts";

freshAppEachTest();

const KEY = AIPERF_CHARTS.distribution.key;

const chart = (id: string, query: string, headers: Record<string, string> = {}) =>
  getChart(new Request(`http://localhost/api/runs/${id}/charts/${KEY}${query}`, { headers }), {
    params: Promise.resolve({ id, key: KEY }),
  });

async function summary(id: string) {
  return runSummarySchema.parse(await (await getRun(new Request("http://localhost"), idParams(id))).json());
}

describe("chart cache headers", () => {
  it("are immutable for the run's current chart version, no-cache with an ETag otherwise", async () => {
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: fixture("aiperf/qwen-c4__profile_export.jsonl") },
    ]);
    const run = await summary(id);
    expect(run.ingestedAt).toEqual(expect.any(Number));
    const version = chartVersion(run);

    const current = await chart(id, `?v=${version}`);
    expect(current.status).toBe(200);
    expect(current.headers.get("cache-control")).toBe(IMMUTABLE_CACHE);
    const etag = current.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    const body = await current.text();

    for (const query of [
      "",
      "?v=",
      `?v=${run.aggregatorVersion}.1`,
      `?v=${run.aggregatorVersion + 1}.${run.ingestedAt}`,
    ]) {
      const r = await chart(id, query);
      expect(r.status, query).toBe(200);
      expect(r.headers.get("cache-control"), query).toBe("no-cache");
      expect(r.headers.get("etag"), query).toBe(etag);
      expect(await r.text(), query).toBe(body);
    }
    const revalidated = await chart(id, "", { "if-none-match": etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("cache-control")).toBe("no-cache");

    // Re-ingest stores a new stamp: the old version is stale from then on, the new one immutable.
    await new Promise((r) => setTimeout(r, 5));
    expect((await reingest(new Request("http://localhost", { method: "POST" }), idParams(id))).status).toBe(
      200,
    );
    const again = await summary(id);
    expect(chartVersion(again)).not.toBe(version);
    expect((await chart(id, `?v=${version}`)).headers.get("cache-control")).toBe("no-cache");
    expect((await chart(id, `?v=${chartVersion(again)}`)).headers.get("cache-control")).toBe(IMMUTABLE_CACHE);
  });

  it("carries the version of the code computing charts on read, so raising it changes every chart URL", () => {
    const run = { aggregatorVersion: 3, ingestedAt: 7 };
    expect(chartVersion(run).split(".").at(-1)).toBe(String(AIPERF_COLUMN_COMPUTE_VERSION));
  });

  it("versions runs stored without an ingest stamp by their summary's commit time", () => {
    const row = { aggregator_version: 3, summary: "{}", summary_ready_at: 1_764_000_000_000 };
    expect(storedChartVersion(row)).toBe(`3.1764000000000.${AIPERF_COLUMN_COMPUTE_VERSION}`);
    expect(storedChartVersion({ ...row, summary_ready_at: null })).toBe(
      `3.0.${AIPERF_COLUMN_COMPUTE_VERSION}`,
    );
    expect(storedChartVersion({ ...row, summary: '{"ingestedAt":5}' })).toBe(
      `3.5.${AIPERF_COLUMN_COMPUTE_VERSION}`,
    );
    expect(chartVersion({ aggregatorVersion: 3, ingestedAt: 1_764_000_000_000 })).toBe(
      `3.1764000000000.${AIPERF_COLUMN_COMPUTE_VERSION}`,
    );
  });
});
