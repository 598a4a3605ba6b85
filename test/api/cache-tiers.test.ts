/**
 * Cache hit rates mean one thing per label on every backend (docs/metrics.md §Cache hit rate):
 * GPU, CPU/host and external are each that tier's served tokens over all prompt tokens looked
 * up, and overall is their sum, so overall is never below a tier. Scrapes come from
 * test/generators/cache-tiers.mjs, which follows vllm/v1/metrics/loggers.py and
 * vllm/v1/core/sched/scheduler.py (vLLM), lmcache/observability.py (LMCache),
 * python/sglang/srt/metrics/collector.py (SGLang) and the TensorRT-LLM tier counter; uploaded
 * through POST /api/runs and read back from GET /api/runs/{id} and the endpoint chart.
 */
import { describe, expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { runSummarySchema } from "@/lib/api/schemas";
import { smEndpointsPayloadSchema } from "@/lib/api/server-metrics-charts";
import { cacheFacts } from "@/lib/metrics/server-metrics/cache-facts";
import { sglangScrape, trtllmScrape, vllmScrape } from "../generators/cache-tiers.mjs";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";
import { SM_CHARTS } from "@/lib/api/chart-catalog";

freshAppEachTest();

async function upload(name: string, content: string) {
  const id = await uploadRun([{ name, content }]);
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  const run = runSummarySchema.parse(await res.json());
  const chart = await getChart(new Request(`http://localhost/api/runs/${id}/charts/x`), {
    params: Promise.resolve({ id, key: SM_CHARTS.endpoints.key }),
  });
  const endpoints = smEndpointsPayloadSchema.parse(await chart.json());
  return { run, cache: run.serverMetrics!.cache, endpoint: endpoints.rows[0] };
}

type Cache = Awaited<ReturnType<typeof upload>>["cache"];

/** The run's four hit rates, to 12 decimals (null: not exported). */
function expectRates(
  cache: Cache,
  rates: { gpu: number | null; cpu: number | null; external: number | null; overall: number },
) {
  const got = {
    gpu: cache.gpuHitRate,
    cpu: cache.cpuHitRate,
    external: cache.externalHitRate,
    overall: cache.overallHitRate,
  };
  for (const k of ["gpu", "cpu", "external", "overall"] as const) {
    const want = rates[k];
    if (want === null) expect(got[k], k).toBeNull();
    else expect(got[k], k).toBeCloseTo(want, 12);
  }
}

describe("cache hit rates by tier", () => {
  it("vLLM CPU offload with prompt_tokens_by_source at 0: CPU 99.5 % is never beside overall 0 %", async () => {
    // The case of the review (W10): by_source registered but never counted, so the prefix
    // counters are read; the connector served 9,950 of the 10,000 tokens the GPU cache missed.
    const { cache, endpoint } = await upload(
      "vllm_metrics.txt",
      vllmScrape({ prompt: 10_000, gpuHits: 0, connectorHits: 9_950, bySourceZero: true }),
    );
    expect(cache.method).toBe("token-weighted counters");
    expect(cache.gpuHitRate).toBe(0);
    expect(cache.cpuHitRate).toBeCloseTo(0.995, 12);
    expect(cache.externalHitRate).toBeNull();
    expect(cache.overallHitRate).toBeCloseTo(0.995, 12);
    expect(cache.servedTokens).toEqual({ gpu: 0, host: 9_950, external: null });
    // What the connector served is cached, not computed.
    expect(endpoint.externalCachedTokens).toBe(9_950);
    expect(endpoint.cpuHitRate).toBeCloseTo(0.995, 12);
  });

  it("vLLM with LMCache: the connector is external; LMCache's own rate is shown under its own name", async () => {
    // 10,000 prompt tokens: 4,000 from the GPU cache, 3,000 loaded by LMCache (of the 6,000 the GPU
    // missed), 3,000 computed. LMCache counts from the prompt's start: it found 7,000 of 10,000.
    const { run, cache } = await upload(
      "vllm_metrics.txt",
      vllmScrape({
        prompt: 10_000,
        gpuHits: 4_000,
        connectorHits: 3_000,
        lmcache: { requested: 10_000, hit: 7_000 },
      }),
    );
    expectRates(cache, { gpu: 0.4, cpu: null, external: 0.3, overall: 0.7 });
    expect(cache.lmcacheHitRate).toBeCloseTo(0.7, 12);
    // The connector's lookup rate: 3,000 of the 6,000 the GPU cache missed.
    expect(run.info.externalPrefixCacheHitRate).toBeCloseTo(0.5, 12);
    const labels = cacheFacts(cache, run.info).map((f) => f.label);
    expect(labels).toEqual([
      "overall hit rate",
      "GPU hit rate",
      "external hit rate",
      "KV connector lookup hit rate",
      "LMCache hit rate (its own)",
    ]);
  });

  it("vLLM prompt_tokens_by_source and the prefix counters give the same rates", async () => {
    const o = { prompt: 8_000, gpuHits: 2_000, connectorHits: 1_000 };
    const bySource = (await upload("vllm_metrics.txt", vllmScrape(o))).cache;
    const prefix = (await upload("vllm_metrics.txt", vllmScrape({ ...o, bySourceWritten: false }))).cache;
    expect(bySource.method).toBe("token-weighted counters");
    for (const k of ["gpuHitRate", "cpuHitRate", "overallHitRate"] as const)
      expect(prefix[k]).toBeCloseTo(bySource[k]!, 12);
    expect(bySource.overallHitRate).toBeCloseTo(3_000 / 8_000, 12);
  });

  it("SGLang cached_tokens by cache_source: device is GPU, host is CPU/host, storage is external", async () => {
    const { cache } = await upload(
      "sglang_metrics.txt",
      sglangScrape({ prompt: 20_000, device: 5_000, host: 3_000, storage: 2_000 }),
    );
    expectRates(cache, { gpu: 0.25, cpu: 0.15, external: 0.1, overall: 0.5 });
    expect(cache.countersExported).toEqual(
      expect.arrayContaining(["sglang:prompt_tokens", "sglang:cached_tokens"]),
    );
  });

  it("TensorRT-LLM tiers: gpu, host and disk", async () => {
    const { cache } = await upload(
      "trtllm_metrics.txt",
      trtllmScrape({ prompt: 10_000, gpu: 1_000, host: 2_000, disk: 500 }),
    );
    expectRates(cache, { gpu: 0.1, cpu: 0.2, external: 0.05, overall: 0.35 });
  });

  it("every tier at 0 is 0 of N on every backend, never not exported", async () => {
    for (const [name, text] of [
      ["vllm_metrics.txt", vllmScrape({ prompt: 1_000, gpuHits: 0, connectorHits: 0 })],
      ["sglang_metrics.txt", sglangScrape({ prompt: 1_000, device: 0, host: 0, storage: 0 })],
      ["trtllm_metrics.txt", trtllmScrape({ prompt: 1_000, gpu: 0, host: 0, disk: 0 })],
    ] as const) {
      const { run, cache } = await upload(name, text);
      expect(cache.overallHitRate).toBe(0);
      const tiers = ["overall hit rate", "GPU hit rate", "CPU/host hit rate", "external hit rate"];
      for (const f of cacheFacts(cache, run.info).filter((x) => tiers.includes(x.label)))
        expect(f.text, `${name} ${f.label}`).toBe("0% (0 of 1,000 prompt tokens)");
    }
  });
});
