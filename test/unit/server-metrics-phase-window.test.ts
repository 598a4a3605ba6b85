/**
 * The server-metrics window is the profiling phase, not the scrape span (docs/metrics.md §Server
 * metrics, "The window"). Samples: test/generators/aiperf-phase-scrapes.mjs, which follows
 * aiperf's `server_metrics/accumulator.py` and `export_stats.py` (reference = last scrape before
 * the phase start; window = [start, max(end, last scrape)]) and `server_metrics/jsonl_writer.py`
 * (raw scrapes with no phase field); and the real aiperf 0.6.0 run in test/fixtures/aiperf-real-c4.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SmEndpointsPayload, SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import type { AnalyzerResult } from "@/lib/ingest/analyzer";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { ProfilingClock } from "@/lib/metrics/profiling-window";
import { migrate, openSqlite } from "@/lib/store/db";
import { diskIngestFile, ingestContext } from "../helpers/analyze";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-phase-"));
const REAL = "test/fixtures/aiperf-real-c4";
let truth: {
  phaseS: number;
  endpoints: { endpoint: string; prompt: number; generation: number; spanPrompt: number; running: number }[];
};

beforeAll(() => {
  execFileSync(process.execPath, ["test/generators/aiperf-phase-scrapes.mjs", dir]);
  truth = JSON.parse(fs.readFileSync(path.join(dir, "truth.json"), "utf8"));
});

/** The aiperf and server-metrics analyzers of one ingest, sharing the profiling clock as createAnalyzers does. */
async function ingest(paths: string[]): Promise<AnalyzerResult> {
  const handle = openSqlite(":memory:");
  await migrate(handle);
  const ctx = ingestContext(handle);
  const clock = new ProfilingClock();
  const analyzers = [aiperfAnalyzer(clock), serverMetricsAnalyzer(clock)];
  for (const [ord, p] of paths.entries()) {
    const f = diskIngestFile(p, ord);
    const a = analyzers.find((x) => x.accepts(f));
    if (a) await a.ingestFile(f, ctx);
  }
  await analyzers[0].finish(ctx);
  const result = await analyzers[1].finish(ctx);
  await handle.close();
  return result;
}

const endpointsOf = (r: AnalyzerResult) => r.charts!["sm-endpoints"] as SmEndpointsPayload;
const tokens = (r: AnalyzerResult) =>
  r.endpoints!.map((e) => [e.endpoint, e.promptTokens, e.generationTokens, e.cachedTokens]);

describe("generated run with baseline and warmup", () => {
  const at = (f: string) => path.join(dir, f);

  it("JSON: the window is the phase (start_time → end_time), not endpoint_info's scrape span", async () => {
    const r = await ingest([at("server_metrics_export.json")]);
    const rows = endpointsOf(r).rows;
    expect(rows.map((x) => x.windowS)).toEqual([20, 20]);
    expect(rows[0].windowSource).toMatch(/^profiling phase/);
    expect(r.endpoints!.map((e) => e.promptTokens)).toEqual(truth.endpoints.map((e) => e.prompt));
  });

  it("JSONL alone: the scrape span, said so in the payload and a warning", async () => {
    const r = await ingest([at("server_metrics_export.jsonl")]);
    expect(r.endpoints!.map((e) => e.promptTokens)).toEqual(truth.endpoints.map((e) => e.spanPrompt));
    expect(endpointsOf(r).rows[0].windowSource).toMatch(/^scrape span/);
    expect(r.warnings!.some((w) => w.includes("whole scrape span"))).toBe(true);
  });

  it.each([
    ["records and summary", ["profile_export.jsonl", "profile_export_aiperf.json"]],
    ["records only", ["profile_export.jsonl"]],
    ["summary only (its local time placed by the scrapes)", ["profile_export_aiperf.json"]],
  ])("JSONL with %s: the JSON export's per-endpoint numbers", async (_, files) => {
    const json = await ingest([at("server_metrics_export.json")]);
    const r = await ingest([...files.map(at), at("server_metrics_export.jsonl")]);
    expect(tokens(r)).toEqual(tokens(json));
    expect(r.endpoints!.map((e) => e.generationTokens)).toEqual(truth.endpoints.map((e) => e.generation));
    expect(r.serverMetrics!.tokens).toEqual(json.serverMetrics!.tokens);
    expect(r.warnings!.some((w) => w.includes("whole scrape span"))).toBe(false);
    expect(endpointsOf(r).rows[0].windowSource).toMatch(/^profiling phase/);
  });

  it("summary with records: the window is the summary's 20 s phase, its UTC+2 local time placed by the first request", async () => {
    const r = await ingest([
      at("profile_export_aiperf.json"),
      at("profile_export.jsonl"),
      at("server_metrics_export.jsonl"),
    ]);
    expect(endpointsOf(r).rows.map((x) => x.windowS)).toEqual([20, 20]);
    expect(endpointsOf(r).rows[0].windowSource).toContain("profile_export_aiperf.json");
  });

  it("All endpoints: one time grid, so running adds up to 3 + 3 in every interval", async () => {
    const r = await ingest([at("profile_export.jsonl"), at("server_metrics_export.jsonl")]);
    const all = r.charts!["sm-series-all"] as SmSeriesPayload;
    expect(all.sliceS).toBe(1);
    expect(all.points.length).toBeGreaterThanOrEqual(20);
    // Every interval starts a whole number of seconds after the first: nice axis values.
    for (const p of all.points) expect(Number.isInteger(p.t)).toBe(true);
    for (const p of all.points) expect(p.running).toBe(6);
    // The last interval ends at the last scrape (about 0.4 s after the phase end): partial.
    const last = all.points[all.points.length - 1];
    expect(last.durationS).toBeGreaterThan(0);
    expect(last.durationS).toBeLessThan(1);
  });
});

describe("real aiperf 0.6.0 run (aiperf-real-c4)", () => {
  const gt = JSON.parse(fs.readFileSync(path.join(REAL, "ground_truth.json"), "utf8"));
  const expected = [gt.A, gt.B].map((g, i) => [
    `127.0.0.1:800${i + 1}`,
    g.prompt_tokens,
    g.generation_tokens,
    g.cached_tokens,
  ]);

  it("JSON export: per-endpoint tokens are the servers' own counts; the window is the 34.4 s phase", async () => {
    const r = await ingest([`${REAL}/server_metrics_export.json`]);
    expect(tokens(r)).toEqual(expected);
    // 08:15:19.272328 → 08:15:53.648953, not endpoint_info's 36.44 s scrape span.
    expect(endpointsOf(r).rows[0].windowS).toBeCloseTo(34.376625, 9);
  });

  it("JSONL beside records and summary: the same per-endpoint and run numbers as the JSON export", async () => {
    const json = await ingest([`${REAL}/server_metrics_export.json`]);
    const r = await ingest([
      `${REAL}/profile_export.jsonl`,
      `${REAL}/profile_export_aiperf.json`,
      `${REAL}/server_metrics_export.jsonl`,
    ]);
    expect(tokens(r)).toEqual(expected);
    expect(r.serverMetrics!.tokens).toEqual(json.serverMetrics!.tokens);
    expect(r.serverMetrics!.cache).toEqual(json.serverMetrics!.cache);
    expect(endpointsOf(r).rows[0].windowS).toBeCloseTo(34.376625, 6);
  });
});
