"use client";

import type { RunViewProps } from "@/components/run/run-view-props";
import type { RunSummary } from "@/lib/api/schemas";
import { ABSENT_SERIES, type AbsentSeries } from "@/lib/api/absent-series";
import { hasOffloadCounters } from "@/lib/api/run-views";
import {
  formatBytesPerSecond,
  formatCount,
  formatMs,
  formatNumber,
  formatRate,
  NOT_EXPORTED,
  NOT_RECORDED,
  properPlurals,
} from "@/lib/format-number";
import { trtllmLatencyTiles } from "@/components/trtllm-latency/overview-tiles";
import { GoodputPanel } from "./goodput-panel";
import { DerivedThroughputSection } from "./overview-derived";
import { requestTiles, type Tile } from "./overview-request-tiles";

/** The headline numbers of every block the run has, and its warnings. */
export function OverviewView({ run }: RunViewProps) {
  const tiles = [
    ...requestTiles(run),
    ...trtllmLatencyTiles(run),
    ...breakdownTiles(run),
    ...serverTiles(run),
  ];
  return (
    <div className="space-y-4">
      {tiles.length > 0 ? (
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="overview-tiles">
          {tiles.map((t) => (
            <div
              key={t.label}
              className={`rounded-lg border bg-card p-3 ${t.tone === "danger" ? "border-danger border-l-4" : "border-border"}`}
              title={t.definition}
              data-testid={t.testId}
              data-tone={t.tone}
            >
              <div className="text-xs text-muted">{t.label}</div>
              <div
                className={`text-lg font-semibold tabular-nums ${t.tone === "danger" ? "text-danger" : ""}`}
              >
                {t.value}
              </div>
              {t.hint ? <div className="text-xs text-muted">{t.hint}</div> : null}
            </div>
          ))}
        </div>
      ) : (
        <p className="text-sm text-muted">
          This run has no charted data yet: see the Files view for what was uploaded and how each file was
          read.
        </p>
      )}
      <TileDefinitions tiles={tiles} />
      <DerivedThroughputSection run={run} />
      {run.requests?.source === "aiperf" || run.timeBreakdown ? <GoodputPanel runId={run.id} /> : null}
      {run.warnings.length > 0 ? (
        <div
          className="rounded-lg border border-warn/50 bg-card p-3 text-sm"
          role="note"
          data-testid="run-warnings"
        >
          <p className="mb-1 font-medium text-warn">Warnings</p>
          <ul className="list-inside list-disc space-y-0.5">
            {run.warnings.map((w, i) => (
              <li key={i}>{properPlurals(w)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** The definitions behind tiles whose numbers differ from aiperf's or the server's, on screen. */
function TileDefinitions({ tiles }: { tiles: Tile[] }) {
  const defined = tiles.filter((t) => t.definition);
  if (defined.length === 0) return null;
  return (
    <dl className="space-y-0.5 text-xs text-muted" data-testid="overview-definitions">
      {defined.map((t) => (
        <div key={t.label}>
          <dt className="inline font-medium">{t.label}: </dt>
          <dd className="inline">{t.definition}</dd>
        </div>
      ))}
    </dl>
  );
}

function breakdownTiles(run: RunSummary): Tile[] {
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
  const usage = (v: number | null) => (v === null ? NOT_EXPORTED : formatRate(v));
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
      : { label: "KV usage avg / max", value: `${usage(avg)} / ${usage(max)}` },
  ];
  // Offload is a feature a run may not use: no counters, no tile (the Offload tab says why).
  if (hasOffloadCounters(run))
    tiles.push({
      label: "Offload GPU→CPU",
      value: formatBytesPerSecond(s.kvOffload.bandwidthGpuToCpuBytesPerSecond),
    });
  return tiles;
}
