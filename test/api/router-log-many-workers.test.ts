/**
 * A router log naming very many workers (reliability probe N13: 200,000 distinct `worker_<id>`
 * made a 37.8 MB `router-log` chart payload and froze the Cache view) gives a bounded payload:
 * the workers with most routed requests one by one, every other worker in one "N other workers"
 * row whose counts add up to the rest. Lines as the Dynamo frontend writes them at DEBUG
 * (ai-dynamo/dynamo lib/llm/src/kv_router/push_router.rs `[ROUTING] Best`; see
 * test/generators/dynamo-router-log.mjs).
 */
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as chart } from "@/app/api/runs/[id]/charts/[key]/route";
import { ROUTER_LOG_MAX_WORKERS, routerLogPayloadSchema } from "@/lib/api/router-log";
import type { RouterLog } from "@/lib/formats/router-log";
import { buildRouterLogPrediction, RouterLogFeed } from "@/lib/metrics/server-metrics/router-log-prediction";
import { appForTest, uploadRequest } from "../helpers/test-app";
import { ROUTER_LOG_CHART } from "@/lib/api/chart-catalog";

const T0_MS = 1_760_000_000_000;
const ID0 = 7_587_888_160_958_000_000n;

/** `workers` workers; worker i gets 3 decisions when i < 10 (the busiest), else 1; overlap 1 of 4 blocks. */
function logText(workers: number): { text: string; decisions: number } {
  const lines: string[] = [];
  let decisions = 0;
  for (let i = 0; i < workers; i++) {
    for (let k = 0; k < (i < 10 ? 3 : 1); k++) {
      const t = new Date(T0_MS + decisions).toISOString().replace("Z", "000Z");
      lines.push(
        `${t} DEBUG dynamo_llm::kv_router::push_router: [ROUTING] Best: worker_${ID0 + BigInt(i)} dp_rank=0 with 1/4 blocks overlap`,
      );
      decisions++;
    }
  }
  return { text: `${lines.join("\n")}\n`, decisions };
}

describe("a router log with very many workers", () => {
  it("stores a bounded chart payload through the upload route", async () => {
    await appForTest();
    const workers = 20_000;
    const { text, decisions } = logText(workers);
    const res = await upload(uploadRequest([{ name: "frontend.log", content: text }]));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const answer = await chart(
      new Request(`http://localhost/api/runs/${id}/charts/${ROUTER_LOG_CHART.key}`),
      {
        params: Promise.resolve({ id, key: ROUTER_LOG_CHART.key }),
      },
    );
    expect(answer.status).toBe(200);
    const raw = await answer.text();
    expect(raw.length).toBeLessThan(64 * 1024);
    const p = routerLogPayloadSchema.parse(JSON.parse(raw));
    expect(p.decisions).toBe(decisions);
    expect(p.workers).toHaveLength(ROUTER_LOG_MAX_WORKERS);
    expect(p.workers.slice(0, 10).every((w) => w.requests === 3)).toBe(true);
    expect(p.otherWorkers?.count).toBe(workers - ROUTER_LOG_MAX_WORKERS);
    expect(p.otherWorkers!.requests + p.workers.reduce((s, w) => s + w.requests, 0)).toBe(decisions);
    expect(p.otherWorkers!.predicted).toBeCloseTo(0.25, 12);
  });

  it("builds the payload of 200,000 workers small, in CPU time linear in the workers", () => {
    const n = 200_000;
    const log: RouterLog = {
      timeMs: Array.from({ length: n }, (_, i) => T0_MS + i),
      worker: Array.from({ length: n }, (_, i) => i),
      overlapBlocks: Array.from({ length: n }, () => 1),
      totalBlocks: Array.from({ length: n }, () => 4),
      workers: Array.from({ length: n }, (_, i) => ({ id: String(ID0 + BigInt(i)), dpRank: 0, type: null })),
      selectedLines: 0,
    };
    const feed = new RouterLogFeed();
    feed.logs.push({ file: "frontend.log", log });
    const cpu = process.cpuUsage();
    const p = buildRouterLogPrediction(feed, [])!;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    expect(JSON.stringify(p).length).toBeLessThan(64 * 1024);
    expect(p.workers).toHaveLength(ROUTER_LOG_MAX_WORKERS);
    expect(p.otherWorkers?.count).toBe(n - ROUTER_LOG_MAX_WORKERS);
    expect(p.decisions).toBe(n);
    // Once over 2 s (localeCompare on every tie). CPU time, not wall time: a loaded machine's
    // scheduling does not count, a quadratic or per-tie-collating build does (> 2 s alone).
    expect(cpuMs).toBeLessThan(5000);
  });
});
