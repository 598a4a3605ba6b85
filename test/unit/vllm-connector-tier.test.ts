/**
 * vLLM's connector tier is measured only where a KV connector shows (docs/metrics.md §Reuse
 * ledger, §Cache hit rate). vLLM creates `prompt_tokens_by_source` for every source, so
 * `external_kv_transfer` is written at 0 without a connector, and registers
 * `external_prefix_cache_queries / _hits` always, counting them only with a connector
 * (vllm-project/vllm `vllm/v1/metrics/loggers.py`: `connector_prefix_cache_stats is not None`).
 */
import { describe, expect, it } from "vitest";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";
import { cacheCounts, cacheSelection } from "@/lib/metrics/server-metrics/hit-rate";

const counter = (name: string, total: number, labels: Record<string, string> = {}): MetricSeries => ({
  name,
  type: "counter",
  endpoint: "10.0.0.1:8000",
  labels: { engine: "0", model_name: "m", ...labels },
  stats: { total },
});
const bySource = (cacheHit: number, external: number) => [
  counter("vllm:prompt_tokens_by_source", 700, { source: "local_compute" }),
  counter("vllm:prompt_tokens_by_source", cacheHit, { source: "local_cache_hit" }),
  counter("vllm:prompt_tokens_by_source", external, { source: "external_kv_transfer" }),
];

describe("vLLM's connector tier", () => {
  it("is not exported when external_kv_transfer is 0 and no connector counted a lookup", () => {
    const c = cacheCounts(cacheSelection(bySource(300, 0))!);
    expect(c).toMatchObject({ den: 1000, gpu: 300, host: null, ext: null });
    // The prefix counters likewise: external_prefix_cache_* registered, never counted.
    const prefix = cacheCounts(
      cacheSelection([
        counter("vllm:prefix_cache_queries", 1000),
        counter("vllm:prefix_cache_hits", 300),
        counter("vllm:external_prefix_cache_queries", 0),
        counter("vllm:external_prefix_cache_hits", 0),
      ])!,
    );
    expect(prefix).toMatchObject({ den: 1000, gpu: 300, host: null, ext: null });
  });

  it("is measured, 0 included, where a connector shows: its lookups, its tokens or LMCache's series", () => {
    const lookups = counter("vllm:external_prefix_cache_queries", 700);
    expect(cacheCounts(cacheSelection([...bySource(300, 0), lookups])!)).toMatchObject({
      host: 0,
      ext: null,
    });
    expect(cacheCounts(cacheSelection(bySource(300, 50))!)).toMatchObject({ host: 50, ext: null });
    const lmcache = counter("lmcache:num_hit_tokens", 0);
    expect(cacheCounts(cacheSelection([...bySource(300, 0), lmcache])!)).toMatchObject({
      host: null,
      ext: 0,
    });
  });
});
