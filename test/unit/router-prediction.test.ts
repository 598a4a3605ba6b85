/**
 * Predicted vs delivered hit rate (docs/metrics.md §Predicted vs delivered hit rate), read from
 * the scrapes a Dynamo KV-router deployment writes (test/generators/dynamo-router-scrapes.mjs,
 * after ai-dynamo/dynamo lib/llm/src/kv_router/metrics.rs and vLLM's prefix-cache counters).
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { WarningLog } from "@/lib/formats/json-lines";
import { parseServerMetricsJson } from "@/lib/formats/server-metrics-json";
import { readServerMetricsJsonl } from "@/lib/formats/server-metrics-jsonl";
import { type RouterPredictionPayload } from "@/lib/api/router-prediction";
import { buildServerMetricsCharts } from "@/lib/metrics/server-metrics/charts";
import {
  buildRouterPrediction,
  MISSING_ENGINES,
  MISSING_ROUTER,
  routerRunInfo,
} from "@/lib/metrics/server-metrics/router-prediction";
import { summarizeServerMetrics } from "@/lib/metrics/server-metrics/summarize";
import { headerInfo } from "@/components/run/run-info";
import { dynamoRouterRun, toJsonl } from "../generators/dynamo-router-scrapes.mjs";
import { SM_CHARTS } from "@/lib/api/chart-catalog";

const NS = 1e9;
const T0 = 1_760_000_000 * NS;
const POOL = { dynamo_namespace: "dynamo", dynamo_component: "backend", dynamo_endpoint: "generate" };

type Families = Record<string, unknown>;
const counter = (labels: Record<string, string>, value: number) => ({
  type: "counter",
  help: "",
  samples: [{ labels, value }],
});
const hist = (labels: Record<string, string>, sum: number, count: number) => ({
  type: "histogram",
  help: "",
  samples: [{ labels, buckets: { "+Inf": count }, sum, count }],
});

async function payloadOf(endpoints: { url: string; scrapes: { t: number; families: Families }[] }[]) {
  const run = { endpoints, window: { startNs: T0, endNs: T0 + 2 * NS }, sliceS: 1 };
  const src = Readable.from([Buffer.from(toJsonl(run))]);
  const set = await readServerMetricsJsonl(src, new WarningLog(), { records: 0, skipped: 0 }, 1 << 20);
  return buildRouterPrediction(summarizeServerMetrics(set).facts);
}

/** Three scrapes, 1 s apart: two intervals. */
function handCase(routerLabels: Record<string, string> = POOL) {
  const fe = {
    url: "http://frontend:8000/metrics",
    scrapes: [
      [0, 0],
      [2.0, 4],
      [6.8, 10],
    ].map(([sum, count], i) => ({
      t: T0 + i * NS,
      families: {
        dynamo_frontend_requests: counter({ model: "m" }, count),
        dynamo_component_router_kv_hit_rate: hist({ ...routerLabels, router_id: "1" }, sum, count),
      },
    })),
  };
  const worker = (url: string, q: number[], h: number[]) => ({
    url,
    scrapes: q.map((_, i) => ({
      t: T0 + i * NS,
      families: {
        "vllm:prompt_tokens": counter({ ...POOL, model_name: "m" }, q[i]),
        "vllm:prefix_cache_queries": counter({ ...POOL, model_name: "m" }, q[i]),
        "vllm:prefix_cache_hits": counter({ ...POOL, model_name: "m" }, h[i]),
      },
    })),
  });
  return [
    fe,
    worker("http://worker-a:9090/metrics", [0, 1000, 3000], [0, 400, 1600]),
    worker("http://worker-b:9090/metrics", [0, 1000, 2000], [0, 500, 1400]),
  ];
}

describe("predicted vs delivered hit rate", () => {
  it("pins the pool's prediction, delivery and gap against a hand-computed case", async () => {
    const p = (await payloadOf(handCase()))!;
    expect(p.missing).toBeNull();
    expect(p.pools).toHaveLength(1);
    const pool = p.pools[0];
    expect(pool.label).toBe("backend");
    expect(pool.routers).toEqual(["frontend:8000"]);
    // 10 routed requests, Σ predicted 6.8: 0.68 (a mean over requests).
    expect(pool.requests).toBe(10);
    expect(pool.predicted).toBeCloseTo(0.68, 12);
    // Engines: (1,600 + 1,400) hits / (3,000 + 2,000) queried tokens = 0.6.
    expect(pool.delivered).toBeCloseTo(0.6, 12);
    expect(pool.deliveredMethod).toBe("token-weighted counters");
    // 0.6 − 0.68 = −8 points.
    expect(pool.gapPoints).toBeCloseTo(-8, 10);
    expect(pool.note).toBeNull();
    // Each worker's own: 1,600 / 3,000 and 1,400 / 2,000.
    expect(pool.endpoints.map((e) => [e.endpoint, e.delivered])).toEqual([
      ["worker-a:9090", 1600 / 3000],
      ["worker-b:9090", 0.7],
    ]);
    expect(p.unmatched).toEqual([]);
    // Per interval: 2.0 / 4 and 4.8 / 6 predicted; 900 / 2,000 and 2,100 / 3,000 delivered.
    expect(p.series).toHaveLength(1);
    const pts = p.series[0].points.filter((q) => q.requests! > 0);
    expect(pts.map((q) => q.requests)).toEqual([4, 6]);
    expect(pts[0].predicted).toBeCloseTo(0.5, 12);
    expect(pts[1].predicted).toBeCloseTo(0.8, 12);
    expect(pts[0].delivered).toBeCloseTo(0.45, 12);
    expect(pts[1].delivered).toBeCloseTo(0.7, 12);
  });

  it("gives the compare page the run's figures only when one pool has both sides", async () => {
    expect(routerRunInfo(await payloadOf(handCase()))).toEqual({
      routerPredictedHitRate: expect.closeTo(0.68, 12),
      routerDeliveredHitRate: expect.closeTo(0.6, 12),
      routerHitRateGapPoints: expect.closeTo(-8, 10),
    });
    expect(routerRunInfo(await payloadOf(handCase({ ...POOL, dynamo_component: "prefill" })))).toEqual({});
  });

  it("the frontend whose router metrics name the workers' component stays the frontend", async () => {
    const run = { endpoints: handCase(), window: { startNs: T0, endNs: T0 + 2 * NS }, sliceS: 1 };
    const src = Readable.from([Buffer.from(toJsonl(run))]);
    const set = await readServerMetricsJsonl(src, new WarningLog(), { records: 0, skipped: 0 }, 1 << 20);
    const roles = summarizeServerMetrics(set).facts.map((f) => [f.endpoint, f.role]);
    expect(roles).toContainEqual(["frontend:8000", "frontend"]);
  });

  it("says so when no engine carries the router's pool label, and never matches by guess", async () => {
    const p = (await payloadOf(handCase({ ...POOL, dynamo_component: "prefill" })))!;
    const pool = p.pools[0];
    expect(pool.predicted).toBeCloseTo(0.68, 12);
    expect(pool.delivered).toBeNull();
    expect(pool.gapPoints).toBeNull();
    expect(pool.note).toContain('dynamo_component="prefill"');
    expect(p.unmatched.map((e) => e.endpoint)).toEqual(["worker-a:9090", "worker-b:9090"]);
  });

  it("names the missing side: engines only, router only", async () => {
    const [fe, a, b] = handCase();
    const enginesOnlyWithFrontend = await payloadOf([
      {
        url: fe.url,
        scrapes: fe.scrapes.map((s, i) => ({
          t: s.t,
          families: { dynamo_frontend_requests: counter({ model: "m" }, i) },
        })),
      },
      a,
      b,
    ]);
    expect(enginesOnlyWithFrontend?.missing).toBe(MISSING_ROUTER);
    expect(enginesOnlyWithFrontend?.pools).toEqual([]);
    // A plain engine run (no router, no frontend) has nothing to compare and no section.
    expect(await payloadOf([a, b])).toBeNull();
    const routerOnly = await payloadOf([fe]);
    expect(routerOnly?.missing).toBe(MISSING_ENGINES);
    expect(routerOnly?.pools[0].predicted).toBeCloseTo(0.68, 12);
  });

  it("reads per-interval counts from aiperf's JSON export timeslices", () => {
    const set = parseServerMetricsJson(
      {
        metrics: {
          dynamo_component_router_kv_hit_rate: {
            type: "histogram",
            series: [
              {
                endpoint_url: "http://frontend:8000/metrics",
                labels: POOL,
                stats: { count: 10, sum: 6.8, avg: 0.68 },
                timeslices: [
                  { start_ns: T0, end_ns: T0 + NS, count: 4, sum: 2.0, avg: 0.5 },
                  { start_ns: T0 + NS, end_ns: T0 + 2 * NS, count: 6, sum: 4.8, avg: 0.8 },
                ],
              },
            ],
          },
        },
      },
      new WarningLog(),
    );
    const s = set.series.find((x) => x.name === "dynamo_component_router_kv_hit_rate");
    expect(Array.from(s!.slices!.count!)).toEqual([4, 6]);
    expect(Array.from(s!.slices!.value)).toEqual([2.0, 4.8]);
  });

  it("the run header lists the router's predicted hit rate once, the pool's figure", async () => {
    const { run, truth } = dynamoRouterRun({ seconds: 30 });
    const src = Readable.from([Buffer.from(toJsonl(run))]);
    const set = await readServerMetricsJsonl(src, new WarningLog(), { records: 0, skipped: 0 }, 1 << 20);
    const summary = summarizeServerMetrics(set);
    const p = buildServerMetricsCharts(summary)[SM_CHARTS.router.key] as RouterPredictionPayload;
    // The run info as the server-metrics analyzer stores it: the older figure stays for the API.
    const info = { ...summary.info, ...routerRunInfo(p) };
    expect(info.routerKvHitRate).toBeCloseTo(truth.predictedSum / truth.requests, 10);
    const shown = headerInfo(info, () => false).map(([k]) => k);
    expect(shown).toContain("routerPredictedHitRate");
    expect(shown).not.toContain("routerKvHitRate");
    // A run stored before the router section keeps its only figure in the header.
    expect(headerInfo({ routerKvHitRate: 0.5 }, () => false)).toEqual([["routerKvHitRate", 0.5]]);
  });

  it("matches the generator's truth, and is stored with the run's charts", async () => {
    const { run, truth } = dynamoRouterRun({ seconds: 30 });
    const src = Readable.from([Buffer.from(toJsonl(run))]);
    const set = await readServerMetricsJsonl(src, new WarningLog(), { records: 0, skipped: 0 }, 1 << 20);
    const charts = buildServerMetricsCharts(summarizeServerMetrics(set));
    const p = charts[SM_CHARTS.router.key] as RouterPredictionPayload;
    const pool = p.pools[0];
    expect(pool.requests).toBe(truth.requests);
    expect(pool.predicted).toBeCloseTo(truth.predictedSum / truth.requests, 10);
    const hits = truth.perWorker.reduce((a, w) => a + w.hits, 0);
    const queries = truth.perWorker.reduce((a, w) => a + w.queries, 0);
    expect(pool.delivered).toBeCloseTo(hits / queries, 10);
    // Worker 1 finds only half the overlap the router predicted: its delivered rate is lower.
    const [w0, w1] = pool.endpoints;
    expect(w0.delivered).toBeCloseTo(truth.perWorker[0].hits / truth.perWorker[0].queries, 10);
    expect(w1.delivered!).toBeLessThan(w0.delivered!);
    expect(pool.gapPoints!).toBeLessThan(0);
    // One interval per second: every routed request lands in one.
    const routed = p.series[0].points.reduce((a, q) => a + (q.requests ?? 0), 0);
    expect(routed).toBe(truth.requests);
  });
});
