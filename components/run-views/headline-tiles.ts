/**
 * The run's headline numbers, as the Overview's tiles show them: the requests' (aiperf or an
 * imported tool's), TensorRT-LLM's server latency, the time breakdown's and the server metrics'.
 * Plain functions of the run summary, so the page's HTML can carry them for any view before its
 * code has loaded (components/run/view-preview.tsx) and they are the same figures.
 */
import type { RunSummary } from "@/lib/api/schemas";
import { ABSENT_SERIES, type AbsentSeries } from "@/lib/api/absent-series";
import { hasOffloadCounters } from "@/lib/api/run-views";
import {
  formatBytesPerSecond,
  formatCount,
  formatMs,
  formatNumber,
  formatRate,
  formatRatesAlike,
  NOT_EXPORTED,
  NOT_RECORDED,
} from "@/lib/format-number";
import { trtllmLatencyTiles } from "@/components/trtllm-latency/overview-tiles";
import { requestTiles, type Tile } from "./overview-request-tiles";

/** Every headline tile of the run, in the Overview's order. */
export function headlineTiles(run: RunSummary): Tile[] {
  return [...requestTiles(run), ...trtllmLatencyTiles(run), ...breakdownTiles(run), ...serverTiles(run)];
}

export function breakdownTiles(run: RunSummary): Tile[] {
  const t = run.timeBreakdown;
  if (!t) return [];
  const slowest = [...t.segments]
    .filter((s) => s.p50Ms !== null)
    .sort((a, b) => (b.p50Ms ?? 0) - (a.p50Ms ?? 0))[0];
  const tiles: Tile[] = [
    { label: "Perf-metrics requests", value: formatCount(t.requestCount), hint: t.mode },
  ];
  if (slowest)
    tiles.push({ label: "Largest segment (p50)", value: formatMs(slowest.p50Ms), hint: slowest.label });
  tiles.push(
    t.kvCacheHitRate === null
      ? {
          label: "KV hit rate (requests)",
          value: NOT_RECORDED,
          hint: "no kv_cache_metrics in the perf metrics",
        }
      : { label: "KV hit rate (requests)", value: formatRate(t.kvCacheHitRate), hint: "block-weighted" },
  );
  if (t.kvTransfer?.bandwidthGBps)
    tiles.push({
      label: "KV transfer bandwidth p50",
      value: `${formatNumber(t.kvTransfer.bandwidthGBps.p50)} GB/s`,
    });
  return tiles;
}

/** A server figure the exports do not carry: said so, with the absent series, never a 0 or a bare dash. */
const notExported = (label: string, what: AbsentSeries): Tile => ({
  label,
  value: NOT_EXPORTED,
  hint: ABSENT_SERIES[what],
  testId: "tile-not-exported",
});

export function serverTiles(run: RunSummary): Tile[] {
  const s = run.serverMetrics;
  if (!s) return [];
  const hit = s.cache.overallHitRate ?? s.cache.gpuHitRate;
  const { gpuTotalTokens: capacity, gpuUsageAvg: avg, gpuUsageMax: max } = s.kvCache;
  // Avg and max at one number of decimals ("45.0% / 80.3%", never "45% / 80.3%").
  const [avgText, maxText] = formatRatesAlike([avg, max]);
  const usage = (v: number | null, text: string) => (v === null ? NOT_EXPORTED : text);
  const tiles: Tile[] = [
    hit === null
      ? s.cache.lookupTokens === 0
        ? {
            label: "Cache hit rate (server)",
            value: "0 lookups",
            hint: `prefix-cache counters exported at 0 (${(s.cache.countersExported ?? []).join(", ")})`,
          }
        : notExported("Cache hit rate (server)", "hitRate")
      : {
          label: "Cache hit rate (server)",
          value: formatRate(hit),
          hint:
            s.cache.overallHitRate !== null
              ? `overall (GPU + CPU/host + external), ${s.cache.method}`
              : (s.cache.method ?? undefined),
        },
    capacity === null
      ? notExported("KV capacity", "kvCapacity")
      : { label: "KV capacity", value: `${formatCount(capacity)} tokens` },
    avg === null && max === null
      ? notExported("KV usage avg / max", "kvUsage")
      : { label: "KV usage avg / max", value: `${usage(avg, avgText)} / ${usage(max, maxText)}` },
  ];
  // Offload is a feature a run may not use: no counters, no tile (the Offload tab says why).
  if (hasOffloadCounters(run))
    tiles.push({
      label: "Offload GPU→CPU",
      value: formatBytesPerSecond(s.kvOffload.bandwidthGpuToCpuBytesPerSecond),
    });
  return tiles;
}
