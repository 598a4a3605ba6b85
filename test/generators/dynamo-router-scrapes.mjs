/**
 * Scrapes of a Dynamo deployment with the KV-aware router (`python -m dynamo.frontend
 * --router-mode kv`) in front of vLLM workers, shaped as the producers write them:
 * - the frontend's /metrics carries `dynamo_component_router_kv_hit_rate`, a histogram with
 *   linear buckets 0, 0.05, …, 1.0, one observation per routed request (the chosen worker's
 *   overlap blocks / the prompt's blocks), labelled `dynamo_namespace`, `dynamo_component`,
 *   `dynamo_endpoint` of the workers it routes to and `router_id` (ai-dynamo/dynamo
 *   lib/llm/src/kv_router/metrics.rs, RouterRequestMetrics, and
 *   lib/runtime/src/metrics/prometheus_names.rs);
 * - each worker's /metrics carries vLLM's counters `vllm:prompt_tokens`, `vllm:prefix_cache_queries`
 *   and `vllm:prefix_cache_hits` (tokens), with the same hierarchy labels injected by Dynamo's
 *   engine-metrics callback (components/src/dynamo/common/utils/prometheus.py).
 * Written from reading that source; nothing is copied. The output is a `run` for
 * aiperf-server-metrics.mjs (`toJsonl`, `toJson`, `toPrometheusText`) plus the truth it was built from.
 *
 * Usage: node test/generators/dynamo-router-scrapes.mjs <outDir> [seconds] [no-router | in-step]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toJsonl } from "./aiperf-server-metrics.mjs";
import { prng } from "./prng.mjs";

/** aiperf's JSONL writer, re-exported so a test reads the run as an upload would arrive. */
export { toJsonl };

const NS = 1e9;
const T0 = 1_760_000_000 * NS;
const BLOCK = 16;
const LE = Array.from({ length: 21 }, (_, i) => (i * 0.05).toFixed(2).replace(/\.?0+$/, "") || "0");

const HIERARCHY = { dynamo_namespace: "dynamo", dynamo_component: "backend", dynamo_endpoint: "generate" };

function routerFamily(router) {
  return {
    type: "histogram",
    help: "Predicted KV cache hit rate at routing time (0.0-1.0)",
    samples: [
      {
        labels: { ...HIERARCHY, router_id: "7587888160958628000" },
        buckets: { ...router.buckets },
        sum: router.sum,
        count: router.count,
      },
    ],
  };
}

/**
 * `withRouter: false` is a frontend started without `--router-mode kv`: no router histogram.
 * `workers`: per worker, `{ url, shortfall }`: the share of the predicted overlap the engine does
 * not find (its KV events lag the router's index, or it evicted the blocks). Requests are routed
 * round the workers; each has a prompt of whole blocks and a predicted overlap drawn per second.
 */
export function dynamoRouterRun({
  seconds = 60,
  perSecond = 8,
  seed = 5,
  withRouter = true,
  workers = [
    { url: "http://worker-0:9090/metrics", shortfall: 0 },
    { url: "http://worker-1:9090/metrics", shortfall: 0.5 },
  ],
} = {}) {
  const rand = prng(seed);
  const router = { sum: 0, count: 0, buckets: Object.fromEntries([...LE, "+Inf"].map((le) => [le, 0])) };
  const engines = workers.map(() => ({ prompt: 0, queries: 0, hits: 0 }));
  const truth = {
    predictedSum: 0,
    requests: 0,
    perWorker: workers.map(() => ({ queries: 0, hits: 0, predictedSum: 0, requests: 0 })),
    /** Each routed request: when (epoch ns), which worker, the overlap and prompt blocks (the router log's line) */
    decisions: [],
  };
  const fe = { url: "http://frontend:8000/metrics", scrapes: [] };
  const eps = workers.map((w) => ({ url: w.url, scrapes: [] }));
  let requestsTotal = 0;
  let next = 0;
  for (let s = 0; s <= seconds; s++) {
    if (s > 0)
      for (let r = 0; r < perSecond; r++) {
        const w = next++ % workers.length;
        const blocks = 8 + Math.floor(rand() * 56);
        // The router's overlap grows over the run as conversations warm the caches.
        const overlap = Math.min(
          blocks,
          Math.floor(blocks * (0.2 + (0.6 * s) / seconds) * (0.8 + 0.4 * rand())),
        );
        const p = overlap / blocks;
        router.sum += p;
        router.count++;
        for (const le of LE) if (p <= Number(le)) router.buckets[le]++;
        router.buckets["+Inf"]++;
        const tokens = blocks * BLOCK;
        const found = Math.floor(overlap * (1 - workers[w].shortfall)) * BLOCK;
        engines[w].prompt += tokens;
        engines[w].queries += tokens;
        engines[w].hits += found;
        requestsTotal++;
        truth.predictedSum += p;
        truth.requests++;
        truth.decisions.push({
          tNs: T0 + (s - 1) * NS + ((r + 0.5) * NS) / perSecond,
          worker: w,
          overlap,
          blocks,
        });
        const pw = truth.perWorker[w];
        pw.queries += tokens;
        pw.hits += found;
        pw.predictedSum += p;
        pw.requests++;
      }
    const t = T0 + s * NS;
    fe.scrapes.push({
      t,
      families: {
        dynamo_frontend_requests: {
          type: "counter",
          help: "Total number of LLM requests processed",
          samples: [{ labels: { model: "Qwen/Qwen3-0.6B" }, value: requestsTotal }],
        },
        ...(withRouter ? { dynamo_component_router_kv_hit_rate: routerFamily(router) } : {}),
      },
    });
    workers.forEach((w, i) => {
      const labels = { ...HIERARCHY, engine: "0", model_name: "Qwen/Qwen3-0.6B" };
      const c = (help, value) => ({ type: "counter", help, samples: [{ labels, value }] });
      eps[i].scrapes.push({
        t,
        families: {
          "vllm:prompt_tokens": c("Number of prefill tokens processed.", engines[i].prompt),
          "vllm:prefix_cache_queries": c(
            "Prefix cache queries, in terms of number of queried tokens.",
            engines[i].queries,
          ),
          "vllm:prefix_cache_hits": c(
            "Prefix cache hits, in terms of number of cached tokens.",
            engines[i].hits,
          ),
        },
      });
    });
  }
  return {
    run: {
      endpoints: [fe, ...eps],
      window: { startNs: T0, endNs: T0 + seconds * NS },
      sliceS: 5,
      benchmarkId: "dynamo-router",
    },
    truth,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [outDir, seconds, mode] = process.argv.slice(2);
  fs.mkdirSync(outDir, { recursive: true });
  // "no-router": a frontend without --router-mode kv; "in-step": every worker finds what was predicted.
  const workers =
    mode === "in-step"
      ? [0, 1].map((i) => ({ url: `http://worker-${i}:9090/metrics`, shortfall: 0 }))
      : undefined;
  const { run } = dynamoRouterRun({
    seconds: Number(seconds ?? 60),
    withRouter: mode !== "no-router",
    workers,
  });
  fs.writeFileSync(path.join(outDir, "server_metrics_export.jsonl"), toJsonl(run));
}
