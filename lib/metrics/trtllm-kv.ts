/**
 * KV-cache numbers of TensorRT-LLM perf metrics (docs/metrics.md §KV hit rate from perf metrics,
 * §KV transfer).
 */
import type { Seconds, TrtllmKvBlocks } from "@/lib/formats/trtllm-record";
import { niceBins } from "./nice-scale";

/**
 * Per-request hit rate = reused / (reused + missed), 0 when both are 0 — the C++
 * `getKVCacheHitRatePerRequest` formula; JSONL strips the field, so it is always recomputed.
 */
export function requestHitRate(kv: TrtllmKvBlocks): number {
  const denom = kv.reused + kv.missed;
  return denom > 0 ? kv.reused / denom : 0;
}

/** Sums blocks so rates over many requests are block-weighted, not a mean of per-request ratios. */
export class BlockTally {
  requests = 0;
  reused = 0;
  missed = 0;

  add(kv: TrtllmKvBlocks | null): void {
    if (!kv) return;
    this.requests++;
    this.reused += kv.reused;
    this.missed += kv.missed;
  }

  merge(other: BlockTally): void {
    this.requests += other.requests;
    this.reused += other.reused;
    this.missed += other.missed;
  }

  /**
   * Σreused / Σ(reused + missed); null when no request had KV metrics, and null when every
   * request looked up 0 blocks (reuse off, or nothing to reuse): 0 / 0 is "0 lookups", never 0 %.
   */
  hitRate(): number | null {
    const denom = this.reused + this.missed;
    return this.requests > 0 && denom > 0 ? this.reused / denom : null;
  }

  /** Σ(reused + missed): the blocks looked up; null when no request had KV metrics. */
  lookups(): number | null {
    return this.requests > 0 ? this.reused + this.missed : null;
  }
}

/**
 * KV transfer bandwidth in GB/s (1e9 bytes per second, as Dynamo reports it). Null unless bytes
 * and a positive duration were both recorded: a zero-length transfer has no meaningful rate.
 */
export function transferBandwidthGBps(bytes: number | null, start: Seconds, end: Seconds): number | null {
  if (bytes === null || bytes <= 0 || start === null || end === null) return null;
  const durationS = end - start;
  if (!(durationS > 0)) return null;
  return bytes / durationS / 1e9;
}

export interface HistogramBin {
  lo: number;
  hi: number;
  count: number;
}

/** About `binCount` bins of one round width (nice-scale.ts); the last bin includes max. */
export function histogram(values: readonly number[], binCount = 30): HistogramBin[] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const v of finite) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return niceBins(finite, min, max, Math.min(binCount, finite.length)).map((b) => ({
    lo: b.start,
    hi: b.end,
    count: b.count,
  }));
}
