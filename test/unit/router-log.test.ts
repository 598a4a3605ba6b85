/**
 * The KV router's log beside the engines' own counters (docs/metrics.md §Predicted vs delivered
 * per worker). Lines as the Dynamo frontend writes them (ai-dynamo/dynamo main, workspace 1.2.0:
 * lib/llm/src/kv_router/push_router.rs `[ROUTING] Best`, lib/kv-router/src/scheduling/selector.rs
 * `Selected worker`, lib/runtime/src/logging.rs readable and JSONL formats), written by hand here
 * and by test/generators/dynamo-router-log.mjs.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { detectKind } from "@/lib/formats/detect";
import { WarningLog } from "@/lib/formats/json-lines";
import { readRouterLog, type RouterLog } from "@/lib/formats/router-log";
import { readServerMetricsJsonl } from "@/lib/formats/server-metrics-jsonl";
import {
  buildRouterLogPrediction,
  MISSING_BLOCKS,
  RouterLogFeed,
} from "@/lib/metrics/server-metrics/router-log-prediction";
import { MISSING_ENGINES } from "@/lib/metrics/server-metrics/router-prediction";
import { summarizeServerMetrics } from "@/lib/metrics/server-metrics/summarize";
import { dynamoRouterRun, toJsonl } from "../generators/dynamo-router-scrapes.mjs";
import { routerLog, WORKER_IDS } from "../generators/dynamo-router-log.mjs";

const NS = 1e9;
const T0 = 1_760_000_000 * NS;
const A = "7587888160958628372";
const B = "7587888160958628391";

const iso = (ns: number) => new Date(ns / 1e6).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
const best = (ns: number, id: string, o: number | string, t: number) =>
  `\x1b[2m${iso(ns)}\x1b[0m \x1b[34mDEBUG\x1b[0m \x1b[2mdynamo_llm::kv_router::push_router:\x1b[0m ` +
  `[ROUTING] Best: worker_${id} dp_rank=0 with ${o}/${t} blocks overlap request_id=r worker_id=${id} dp_rank=0`;

async function read(text: string) {
  const warnings = new WarningLog();
  const counts = { records: 0, skipped: 0 };
  const log = await readRouterLog(Readable.from([Buffer.from(text)]), warnings, counts);
  return { log, counts, warnings: warnings.toList() };
}

describe("reading the router log", () => {
  it("reads readable lines with colours, JSONL lines with ids past 2^53, and skips malformed routing lines", async () => {
    const text = [
      `${iso(T0)}  INFO dynamo_llm::http::service::service_v2: Starting HTTP service on: 0.0.0.0:8000`,
      `${iso(T0)}  INFO dynamo_kv_router::scheduling::selector: Selected worker router_mode="kv" worker_id=${A} worker_type=decode dp_rank=0 logit=4.250`,
      best(T0 + 0.2 * NS, A, 3, 4),
      // The older unstructured shape, no dp_rank, and an effective (fractional) overlap.
      `${iso(T0 + 0.6 * NS)} DEBUG dynamo_llm::kv_router: [ROUTING] Best: worker_${B} with 1.5/4 blocks overlap`,
      `{"time":"${iso(T0 + 1.5 * NS)}","level":"DEBUG","target":"dynamo_llm::kv_router::push_router","message":"[ROUTING] Best: worker_${A} dp_rank=1 with 6/8 blocks overlap","dp_rank":1,"overlap_blocks":6,"total_blocks":8,"worker_id":${A}}`,
      best(T0 + 1.7 * NS, A, 9, 8),
      `{"time":"x","message":"[ROUTING] Best: worker_${A} dp_rank=0 with 9/`,
      `${iso(T0)} DEBUG dynamo_llm::kv_router: [ROUTING] Best: nobody`,
      `[ROUTING] Best: worker_${B} dp_rank=0 with 0/5 blocks overlap`,
    ].join("\n");
    const { log, counts, warnings } = await read(text);
    expect(counts).toEqual({ records: 4, skipped: 3 });
    expect(log.workers).toEqual([
      { id: A, dpRank: 0, type: "decode" },
      { id: B, dpRank: null, type: null },
      { id: A, dpRank: 1, type: "decode" },
      { id: B, dpRank: 0, type: null },
    ]);
    expect(log.worker).toEqual([0, 1, 2, 3]);
    expect(log.overlapBlocks).toEqual([3, 1.5, 6, 0]);
    expect(log.totalBlocks).toEqual([4, 4, 8, 5]);
    expect(log.timeMs.slice(0, 3)).toEqual([T0 / 1e6 + 200, T0 / 1e6 + 600, T0 / 1e6 + 1500]);
    expect(Number.isNaN(log.timeMs[3])).toBe(true);
    expect(log.selectedLines).toBe(1);
    expect(warnings.map((w) => w.line)).toEqual([6, 7, 8]);
    expect(warnings[0].message).toContain("9/8 blocks");
  });

  it("is recognised by its routing lines, readable or JSONL; a log with engine pool lines stays a server log", () => {
    const { truth } = dynamoRouterRun({ seconds: 3 });
    const text = routerLog(truth.decisions);
    expect(detectKind(Buffer.from(text), true)).toEqual({ kind: "router-log", format: "text" });
    const jsonl = routerLog(truth.decisions, { format: "jsonl" });
    expect(detectKind(Buffer.from(jsonl), true)).toEqual({ kind: "router-log", format: "jsonl" });
    const info = routerLog(truth.decisions, { debug: false });
    expect(detectKind(Buffer.from(info), true).kind).toBe("router-log");
    const both = `${text}INFO 07-01 12:00:00 [kv_cache_utils.py:716] GPU KV cache size: 1,000 tokens\n`;
    expect(detectKind(Buffer.from(both), true).kind).toBe("server-log");
  });
});

type Families = Record<string, unknown>;
const counter = (value: number) => ({
  type: "counter",
  help: "",
  samples: [{ labels: { engine: "0", model_name: "m" }, value }],
});

/** One vLLM worker scraped at T0, T0+1 s, T0+2 s: queries 0 → 100 → 300 tokens, hits 0 → 40 → 150. */
async function engineFacts(urls = ["http://worker-0:9090/metrics"]) {
  const endpoints = urls.map((url) => ({
    url,
    scrapes: [
      [0, 0],
      [100, 40],
      [300, 150],
    ].map(([q, h], i) => ({
      t: T0 + i * NS,
      families: {
        "vllm:prompt_tokens": counter(q),
        "vllm:prefix_cache_queries": counter(q),
        "vllm:prefix_cache_hits": counter(h),
      } as Families,
    })),
  }));
  const run = { endpoints, window: { startNs: T0, endNs: T0 + 2 * NS }, sliceS: 1 };
  const set = await readServerMetricsJsonl(
    Readable.from([Buffer.from(toJsonl(run))]),
    new WarningLog(),
    { records: 0, skipped: 0 },
    1 << 20,
  );
  return summarizeServerMetrics(set).facts;
}

const feedOf = (...logs: RouterLog[]) => {
  const feed = new RouterLogFeed();
  logs.forEach((log, i) => feed.logs.push({ file: `frontend-${i}.log`, log }));
  return feed;
};

describe("predicted vs delivered from the router log", () => {
  // Interval 1 [T0, T0+1 s): A 3/4 and B 1/4 → 4/8 = 50 %; the engine served 40/100 = 40 %.
  // Interval 2 [T0+1 s, T0+2 s): A 6/8 = 75 %; the engine served 110/200 = 55 %.
  // Run: (3 + 1 + 6) / (4 + 4 + 8) = 62.5 % predicted, 150/300 = 50 % delivered, gap −12.5 pp.
  // A warmup decision 5 s before the scrapes and one after them are left out.
  const lines = [
    best(T0 - 5 * NS, A, 0, 10),
    best(T0 + 0.2 * NS, A, 3, 4),
    best(T0 + 0.6 * NS, B, 1, 4),
    best(T0 + 1.5 * NS, A, 6, 8),
    best(T0 + 2.5 * NS, B, 2, 2),
  ].join("\n");

  it("compares the pool over the scrapes' window, per interval, and says per-worker delivered is not mappable", async () => {
    const { log } = await read(lines);
    const p = buildRouterLogPrediction(feedOf(log), await engineFacts())!;
    expect(p.decisions).toBe(3);
    expect(p.outsideWindow).toBe(2);
    expect(p.predicted).toBeCloseTo(0.625, 12);
    expect(p.delivered).toBeCloseTo(0.5, 12);
    expect(p.gapPoints).toBeCloseTo(-12.5, 10);
    expect(p.missing).toBeNull();
    expect(p.points.map((x) => [x.t, x.predicted, x.delivered, x.requests])).toEqual([
      [0, 0.5, 0.4, 2],
      [1, 0.75, 0.55, 1],
    ]);
    expect(p.stepS).toBe(1);
    expect(p.startEpochMs).toBe(T0 / 1e6);
    expect(
      p.workers.map((w) => [w.workerId, w.requests, w.overlapBlocks, w.totalBlocks, w.predicted]),
    ).toEqual([
      [A, 2, 9, 12, 0.75],
      [B, 1, 1, 4, 0.25],
    ]);
    expect(p.workers.every((w) => w.endpoint === null && w.delivered === null && w.gapPoints === null)).toBe(
      true,
    );
    expect(p.mapping).toContain("not mappable");
  });

  it("maps the one worker of the log to the one engine endpoint, with its own gap", async () => {
    const { log } = await read(lines.replaceAll(`worker_${B}`, `worker_${A}`));
    const p = buildRouterLogPrediction(feedOf(log), await engineFacts())!;
    expect(p.workers).toHaveLength(1);
    const [w] = p.workers;
    expect(w.endpoint).toBe("worker-0:9090");
    expect(w.predicted).toBeCloseTo(0.625, 12);
    expect(w.delivered).toBeCloseTo(0.5, 12);
    expect(w.gapPoints).toBeCloseTo(-12.5, 10);
  });

  it("without scrapes, bins the log's own span and says what is missing; INFO-only logs say to log at DEBUG", async () => {
    const { log } = await read(lines);
    const p = buildRouterLogPrediction(feedOf(log), [])!;
    expect(p.decisions).toBe(5);
    expect(p.delivered).toBeNull();
    expect(p.missing).toBe(MISSING_ENGINES);
    expect(p.points.every((x) => x.delivered === null)).toBe(true);
    expect(p.points.reduce((s, x) => s + x.requests, 0)).toBe(5);
    const { truth } = dynamoRouterRun({ seconds: 3 });
    const info = await read(routerLog(truth.decisions, { debug: false }));
    const q = buildRouterLogPrediction(feedOf(info.log), await engineFacts())!;
    expect(q.decisions).toBe(0);
    expect(q.predicted).toBeNull();
    expect(q.missing).toBe(MISSING_BLOCKS);
    expect(q.mapping).toContain("nothing to show per worker");
    expect(q.points).toEqual([]);
  });

  it("on the generated run, predicted is Σ overlap / Σ prompt blocks of every routed request, for both formats", async () => {
    const { run, truth } = dynamoRouterRun({ seconds: 30 });
    const set = await readServerMetricsJsonl(
      Readable.from([Buffer.from(toJsonl(run))]),
      new WarningLog(),
      { records: 0, skipped: 0 },
      1 << 24,
    );
    const facts = summarizeServerMetrics(set).facts;
    const o = truth.decisions.reduce((s, d) => s + d.overlap, 0);
    const t = truth.decisions.reduce((s, d) => s + d.blocks, 0);
    for (const format of ["text", "jsonl"] as const) {
      const { log, counts } = await read(routerLog(truth.decisions, { format, bad: 1 }));
      expect(counts).toEqual({ records: truth.decisions.length, skipped: 1 });
      expect(log.workers.map((w) => w.id)).toEqual(WORKER_IDS.slice(0, 2));
      const p = buildRouterLogPrediction(feedOf(log), facts)!;
      expect(p.decisions).toBe(truth.decisions.length);
      expect(p.predicted).toBeCloseTo(o / t, 12);
      const hits = truth.perWorker.reduce((s, w) => s + w.hits, 0);
      const queries = truth.perWorker.reduce((s, w) => s + w.queries, 0);
      expect(p.delivered).toBeCloseTo(hits / queries, 12);
      expect(p.points.reduce((s, x) => s + x.requests, 0)).toBe(truth.decisions.length);
    }
  });
});
