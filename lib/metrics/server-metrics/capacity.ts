/**
 * KV capacity in tokens, summed per pool (docs/metrics.md §KV capacity). Each pool is counted once:
 * - TRT-LLM: max_blocks × tokens_per_block **of the same endpoint** (trap T2: the reference
 *   multiplied Σ blocks by the largest block size); the block size comes from the gauge or the
 *   `tokens_per_block`/`block_size` label of the cache-config info family (trap T2b).
 * - SGLang: one pool per (endpoint, labels minus shard labels); tensor-parallel ranks export
 *   the same pool again (trap T7: summing every series overcounts by TP).
 * - vLLM: `cache_config_info` labels num_gpu_blocks × block_size per engine; otherwise logs.
 */
import {
  BLOCK_SIZE_LABELS,
  SGLANG_MAX_TOTAL_TOKENS,
  TRTLLM_CONFIG_INFO,
  TRTLLM_MAX_BLOCKS,
  TRTLLM_TOKENS_PER_BLOCK,
  VLLM_CACHE_CONFIG_INFO,
} from "@/lib/formats/server-metrics/catalog";
import { ofNames } from "./select";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";

/** Labels that tell replicas of one pool apart (the same KV cache seen from several ranks). */
const SHARD_LABELS = new Set(["tp_rank", "pp_rank", "ep_rank", "moe_ep_rank", "tp_size"]);

export interface EndpointCapacity {
  tokens: number;
  /** Tokens of each distinct pool on this endpoint. */
  pools: number[];
  source: string;
}

function poolKey(s: MetricSeries): string {
  return JSON.stringify(
    Object.entries(s.labels)
      .filter(([k]) => !SHARD_LABELS.has(k))
      .sort(),
  );
}

/** Replicas of one pool may disagree by a block while starting; the pool is the largest report. */
function poolMax(series: readonly MetricSeries[], value: (s: MetricSeries) => number | null): number[] {
  const pools = new Map<string, number>();
  for (const s of series) {
    const v = value(s);
    if (v === null || !(v > 0)) continue;
    const k = poolKey(s);
    pools.set(k, Math.max(pools.get(k) ?? 0, v));
  }
  return [...pools.values()];
}

const gaugeValue = (s: MetricSeries): number | null => s.stats.max ?? s.stats.avg ?? s.stats.total ?? null;

function labelNumber(series: readonly MetricSeries[], keys: readonly string[]): number | null {
  for (const s of series)
    for (const k of keys) {
      const n = Number(s.labels[k]);
      if (s.labels[k] !== undefined && Number.isFinite(n) && n > 0) return n;
    }
  return null;
}

function trtllmCapacity(series: readonly MetricSeries[]): EndpointCapacity | null {
  const blocks = ofNames(series, TRTLLM_MAX_BLOCKS);
  if (blocks.length === 0) return null;
  const tpbGauge =
    ofNames(series, TRTLLM_TOKENS_PER_BLOCK)
      .map(gaugeValue)
      .find((v) => v !== null && v > 0) ?? null;
  const tpb = tpbGauge ?? labelNumber(ofNames(series, TRTLLM_CONFIG_INFO), BLOCK_SIZE_LABELS);
  if (tpb === null) return null;
  const pools = poolMax(blocks, gaugeValue).map((b) => b * tpb);
  return pools.length === 0
    ? null
    : { tokens: pools.reduce((a, b) => a + b, 0), pools, source: "trtllm max_blocks × tokens_per_block" };
}

function sglangCapacity(series: readonly MetricSeries[]): EndpointCapacity | null {
  const pools = poolMax(ofNames(series, SGLANG_MAX_TOTAL_TOKENS), gaugeValue);
  return pools.length === 0
    ? null
    : { tokens: pools.reduce((a, b) => a + b, 0), pools, source: "sglang max_total_num_tokens per pool" };
}

function vllmCapacity(series: readonly MetricSeries[]): EndpointCapacity | null {
  const pools = poolMax(ofNames(series, VLLM_CACHE_CONFIG_INFO), (s) => {
    const blocks = Number(s.labels.num_gpu_blocks);
    const size = Number(s.labels.block_size);
    return blocks > 0 && size > 0 ? blocks * size : null;
  });
  return pools.length === 0
    ? null
    : {
        tokens: pools.reduce((a, b) => a + b, 0),
        pools,
        source: "vllm cache_config_info num_gpu_blocks × block_size",
      };
}

export function endpointCapacity(series: readonly MetricSeries[]): EndpointCapacity | null {
  return trtllmCapacity(series) ?? sglangCapacity(series) ?? vllmCapacity(series);
}

/**
 * aiperf's JSONL export writes each scrape's samples but no `_info` family, and vLLM states its KV
 * pool only in `vllm:cache_config_info` (TensorRT-LLM may put the block size only in its config
 * info). From that export alone the capacity is unknown, not zero: say so and where it is.
 */
export function jsonlCapacityWarning(
  facts: readonly { endpoint: string; engine: string | null; capacity: EndpointCapacity | null }[],
): string | null {
  const missing = facts.filter((f) => (f.engine === "vllm" || f.engine === "trtllm") && f.capacity === null);
  if (missing.length === 0) return null;
  return (
    `server metrics: KV capacity unknown for ${missing.map((f) => f.endpoint).join(", ")}: ` +
    "aiperf's server_metrics_export.jsonl leaves out _info families such as vllm:cache_config_info " +
    "(num_gpu_blocks × block_size); upload server_metrics_export.json or server_metrics_export.csv " +
    'of the same run, or the engine\'s server log (vLLM: the "GPU KV cache size" line)'
  );
}
