"use client";

import type { RunViewProps } from "@/components/run/run-view-props";
import type { RunSummary } from "@/lib/api/schemas";
import { formatBytesPerSecond, formatCount, formatMs, formatNumber, formatRate } from "@/lib/format-number";
import { trtllmLatencyTiles } from "@/components/trtllm-latency/overview-tiles";
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
              className="rounded-lg border border-border bg-card p-3"
              title={t.definition}
              data-testid={t.testId}
            >
              <div className="text-xs text-muted">{t.label}</div>
              <div className="text-lg font-semibold tabular-nums">{t.value}</div>
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
      {run.warnings.length > 0 ? (
        <div
          className="rounded-lg border border-warn/50 bg-card p-3 text-sm"
          role="note"
          data-testid="run-warnings"
        >
          <p className="mb-1 font-medium text-warn">Warnings</p>
          <ul className="list-inside list-disc space-y-0.5">
            {run.warnings.map((w, i) => (
              <li key={i}>{w}</li>
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
  return [
    { label: "Perf-metrics requests", value: formatCount(t.requestCount), hint: t.mode },
    { label: "Largest segment (p50)", value: slowest ? formatMs(slowest.p50Ms) : "—", hint: slowest?.label },
    { label: "KV hit rate (requests)", value: formatRate(t.kvCacheHitRate), hint: "block-weighted" },
    {
      label: "KV transfer bandwidth p50",
      value: t.kvTransfer?.bandwidthGBps ? `${formatNumber(t.kvTransfer.bandwidthGBps.p50)} GB/s` : "—",
    },
  ];
}

function serverTiles(run: RunSummary): Tile[] {
  const s = run.serverMetrics;
  if (!s) return [];
  return [
    {
      label: "Cache hit rate (server)",
      value: formatRate(s.cache.overallHitRate ?? s.cache.gpuHitRate),
      hint: s.cache.method ?? undefined,
    },
    {
      label: "KV capacity",
      value: s.kvCache.gpuTotalTokens === null ? "—" : `${formatCount(s.kvCache.gpuTotalTokens)} tokens`,
    },
    {
      label: "KV usage avg / max",
      value: `${formatRate(s.kvCache.gpuUsageAvg)} / ${formatRate(s.kvCache.gpuUsageMax)}`,
    },
    { label: "Offload GPU→CPU", value: formatBytesPerSecond(s.kvOffload.bandwidthGpuToCpuBytesPerSecond) },
  ];
}
