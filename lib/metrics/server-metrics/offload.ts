/**
 * Which series carry an endpoint's KV offload traffic (docs/formats.md §Server metrics, docs/metrics.md
 * §KV offload). vLLM writes the same transfers twice while it migrates names: the flat
 * `kv_offload_store_*` / `load_*` counters and the deprecated `kv_offload_total_*{transfer_type}`.
 * One generation is read per direction, the newer first, and never added to the other.
 */
import {
  OFFLOAD_BYTES_CPU_TO_GPU,
  OFFLOAD_BYTES_GPU_TO_CPU,
  OFFLOAD_TIME_CPU_TO_GPU,
  OFFLOAD_TIME_GPU_TO_CPU,
  VLLM_EXTERNAL_HITS,
  VLLM_EXTERNAL_QUERIES,
  VLLM_OFFLOAD_DEPRECATED_BYTES,
  VLLM_OFFLOAD_DEPRECATED_TIME,
  VLLM_OFFLOAD_LOAD_BYTES,
  VLLM_OFFLOAD_LOAD_TIME,
  VLLM_OFFLOAD_STORE_BYTES,
  VLLM_OFFLOAD_STORE_TIME,
  VLLM_TIER_LABEL,
  VLLM_TIERING_HITS,
  VLLM_TIERING_QUERIES,
  VLLM_TIERING_READ_BYTES,
  VLLM_TIERING_READ_TIME,
  VLLM_TIERING_WRITE_BYTES,
  VLLM_TIERING_WRITE_TIME,
  VLLM_TIERING_NAMES,
  VLLM_TRANSFER_TYPE_LABEL,
} from "@/lib/formats/server-metrics/catalog";
import { ofNames, rate, sumCounters } from "./select";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";

export type OffloadDirection = "gpuToCpu" | "cpuToGpu";

/** One direction's byte and transfer-time counters, all from one generation of names. */
export interface DirectionSeries {
  /** The family the bytes came from, for the method line. */
  source: string;
  bytes: MetricSeries[];
  time: MetricSeries[];
}

export type OffloadSeries = Record<OffloadDirection, DirectionSeries | null>;

const FLAT: Record<OffloadDirection, [string, string]> = {
  gpuToCpu: [VLLM_OFFLOAD_STORE_BYTES, VLLM_OFFLOAD_STORE_TIME],
  cpuToGpu: [VLLM_OFFLOAD_LOAD_BYTES, VLLM_OFFLOAD_LOAD_TIME],
};
/** vLLM spells the label `GPU_to_CPU`; it is compared case-blind, as older builds wrote it lower-case. */
const TRANSFER_TYPE: Record<OffloadDirection, string> = { gpuToCpu: "gpu_to_cpu", cpuToGpu: "cpu_to_gpu" };
const OTHER: Record<OffloadDirection, [string[], string[]]> = {
  gpuToCpu: [OFFLOAD_BYTES_GPU_TO_CPU, OFFLOAD_TIME_GPU_TO_CPU],
  cpuToGpu: [OFFLOAD_BYTES_CPU_TO_GPU, OFFLOAD_TIME_CPU_TO_GPU],
};

function ofTransferType(
  series: readonly MetricSeries[],
  name: string,
  dir: OffloadDirection,
): MetricSeries[] {
  return ofNames(series, name).filter(
    (s) => (s.labels[VLLM_TRANSFER_TYPE_LABEL] ?? "").toLowerCase() === TRANSFER_TYPE[dir],
  );
}

function direction(series: readonly MetricSeries[], dir: OffloadDirection): DirectionSeries | null {
  const [flatBytes, flatTime] = FLAT[dir];
  const [otherBytes, otherTime] = OTHER[dir];
  const generations: DirectionSeries[] = [
    { source: flatBytes, bytes: ofNames(series, flatBytes), time: ofNames(series, flatTime) },
    {
      source: `${VLLM_OFFLOAD_DEPRECATED_BYTES}{transfer_type}`,
      bytes: ofTransferType(series, VLLM_OFFLOAD_DEPRECATED_BYTES, dir),
      time: ofTransferType(series, VLLM_OFFLOAD_DEPRECATED_TIME, dir),
    },
  ];
  for (const name of otherBytes)
    generations.push({ source: name, bytes: ofNames(series, name), time: ofNames(series, otherTime) });
  return generations.find((g) => g.bytes.length > 0) ?? null;
}

export function offloadSeries(series: readonly MetricSeries[]): OffloadSeries {
  return { gpuToCpu: direction(series, "gpuToCpu"), cpuToGpu: direction(series, "cpuToGpu") };
}

/** Traffic between the CPU tier and one secondary tier of vLLM's tiered offloading. */
export interface OffloadTier {
  tier: string;
  /** Secondary → CPU (promotion). */
  readBytes: number | null;
  readTimeS: number | null;
  readBandwidth: number | null;
  /** CPU → secondary (cascade). */
  writeBytes: number | null;
  writeTimeS: number | null;
  writeBandwidth: number | null;
  /** Chunk lookups that found the chunk in this tier, over all lookups sent to it. */
  hitRate: number | null;
}

export function offloadTiers(series: readonly MetricSeries[]): OffloadTier[] {
  const tiering = ofNames(series, VLLM_TIERING_NAMES);
  const tiers = [...new Set(tiering.map((s) => s.labels[VLLM_TIER_LABEL] ?? ""))].sort();
  return tiers.map((tier) => {
    const of = (n: string | string[]) =>
      ofNames(tiering, n).filter((s) => (s.labels[VLLM_TIER_LABEL] ?? "") === tier);
    // Chunk and block counters are one count renamed: take the first present, never both.
    const first = (ns: string[]) => ns.map((n) => of(n)).find((g) => g.length > 0) ?? [];
    const readBytes = sumCounters(of(VLLM_TIERING_READ_BYTES));
    const readTimeS = sumCounters(of(VLLM_TIERING_READ_TIME));
    const writeBytes = sumCounters(of(VLLM_TIERING_WRITE_BYTES));
    const writeTimeS = sumCounters(of(VLLM_TIERING_WRITE_TIME));
    return {
      tier,
      readBytes,
      readTimeS,
      readBandwidth: rate(readBytes, readTimeS),
      writeBytes,
      writeTimeS,
      writeBandwidth: rate(writeBytes, writeTimeS),
      hitRate: rate(sumCounters(first(VLLM_TIERING_HITS)), sumCounters(first(VLLM_TIERING_QUERIES))),
    };
  });
}

/** vLLM's external (KV connector, e.g. CPU tier) prefix-cache counters, in tokens. */
export interface ExternalCache {
  hits: number | null;
  queries: number | null;
}

export function externalCache(series: readonly MetricSeries[]): ExternalCache {
  return {
    hits: sumCounters(ofNames(series, VLLM_EXTERNAL_HITS)),
    queries: sumCounters(ofNames(series, VLLM_EXTERNAL_QUERIES)),
  };
}
