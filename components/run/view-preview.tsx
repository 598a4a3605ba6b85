"use client";

import type { CSSProperties, ReactNode } from "react";
import { LatencyStatsTable } from "@/components/aiperf/latency-stats-table";
import { latencyLabel, type LatencyMetricId } from "@/components/aiperf/latency-metric";
import { DataTable } from "@/components/charts/data-table";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";
import { breakdownTiles, headlineTiles, serverTiles } from "@/components/run-views/headline-tiles";
import { requestTiles, type Tile } from "@/components/run-views/overview-request-tiles";
import { TrtllmLatencyStatsTable } from "@/components/trtllm-latency/latency-stats-table";
import { trtllmLatencyLabel, type TrtllmLatencyId } from "@/components/trtllm-latency/latency-definitions";
import { trtllmLatencyTiles } from "@/components/trtllm-latency/overview-tiles";
import { TileGrid } from "@/components/run-views/tile-grid";
import type { RunViewId } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import { formatBytes, formatCount, formatMs } from "@/lib/format-number";
import { requestWords } from "@/lib/metrics/request-words";
import { useStillFigureList } from "./still-figures";

/**
 * What a view shows from the run's summary alone while its code loads (without the drawings), and
 * what a browser without JavaScript shows in its place (components/run/run-page.tsx): the view's headline numbers (the Overview's tiles, the same
 * figures), the tables the summary holds (latency statistics, the time breakdown's segments, the
 * endpoints, the files) and the figures the server drew (lib/runs/first-figures.ts). It is the
 * page's own HTML, never a bare loading line; the view replaces it once its code has loaded.
 */
export function ViewPreview({
  run,
  view,
  drawings = true,
}: {
  run: RunSummary;
  view: RunViewId;
  /** The server's drawings too (the page's HTML for a browser without JavaScript) */
  drawings?: boolean;
}) {
  const tiles = previewTiles(run, view);
  return (
    <div className="space-y-4" data-testid="view-preview" data-preview-of={view}>
      {tiles.length > 0 ? <TileGrid tiles={tiles} testId="preview-tiles" /> : null}
      <ViewTables run={run} view={view} drawings={drawings} />
    </div>
  );
}

function previewTiles(run: RunSummary, view: RunViewId): Tile[] {
  const pick = (): Tile[] => {
    switch (view) {
      case "overview":
        return headlineTiles(run);
      case "files":
        return [];
      case "breakdown":
        return breakdownTiles(run);
      case "cache":
      case "kv":
      case "offload":
      case "endpoints":
        return [...serverTiles(run), ...breakdownTiles(run)];
      default:
        return [...requestTiles(run), ...trtllmLatencyTiles(run)];
    }
  };
  const tiles = pick();
  return tiles.length > 0 || view === "files" ? tiles : headlineTiles(run);
}

function ViewTables({ run, view, drawings }: { run: RunSummary; view: RunViewId; drawings: boolean }) {
  switch (view) {
    case "overview":
      // The Overview's one chart, its TTFT histogram, as the server drew it.
      return drawings ? <ServerDrawings run={run} /> : null;
    case "latency":
      return <LatencyPreview run={run} drawings={drawings} />;
    case "breakdown":
      // The segments as the server drew them, and as the summary holds them.
      return (
        <>
          {drawings ? <ServerDrawings run={run} /> : null}
          <SegmentsTable run={run} />
        </>
      );
    case "cache":
    case "kv":
    case "offload":
      // The hit rate, KV capacity or offload bandwidth per endpoint, as the server drew it.
      return drawings ? <ServerDrawings run={run} /> : null;
    case "endpoints":
      return <EndpointsTable run={run} />;
    case "files":
      return <FilesTable run={run} />;
    default:
      return null;
  }
}

/** The distribution the server drew (aiperf records, TensorRT-LLM perf metrics) and the run's latency statistics. */
function LatencyPreview({ run, drawings }: { run: RunSummary; drawings: boolean }) {
  const latency = run.timeBreakdown?.latency ?? null;
  return (
    <>
      {drawings ? <ServerDrawings run={run} /> : null}
      {run.requests ? (
        <LatencyStatsTable requests={run.requests} words={requestWords(run)} testId="preview-latency-stats" />
      ) : latency ? (
        <TrtllmLatencyStatsTable latency={latency} testId="preview-trtllm-latency-stats" />
      ) : null}
    </>
  );
}

/** The figures the server drew for the view opened (lib/runs/first-figures.ts), each in its box. */
function ServerDrawings({ run }: { run: RunSummary }) {
  const stills = useStillFigureList();
  if (stills.length === 0) return null;
  // A view's one chart of bars (the Cache and KV views') is the view's width, as in the view;
  // two go side by side, as the Latency and Offload views put theirs.
  const alone = stills.length === 1 && stills[0][2] !== undefined;
  return (
    <div className={alone ? "grid gap-4" : "grid gap-4 lg:grid-cols-2"}>
      {stills.map(([key, svg, frame]) => {
        if (frame)
          return (
            <Figure key={key} title={frame.title}>
              <div
                className={frame.phoneHeight ? "phone-height relative w-full" : "relative w-full"}
                style={
                  frame.phoneHeight
                    ? ({ height: frame.height, "--phone-height": `${frame.phoneHeight}px` } as CSSProperties)
                    : { height: frame.height }
                }
                data-still={key}
              >
                <div className="first-figure" dangerouslySetInnerHTML={{ __html: svg }} />
              </div>
            </Figure>
          );
        const [kind, metric] = key.split("/");
        // A TensorRT-LLM run's figures name its metrics in their words (its latency section's).
        const label =
          run.requests === null
            ? trtllmLatencyLabel(metric as TrtllmLatencyId)
            : latencyLabel(run, metric as LatencyMetricId);
        return (
          <Figure
            key={key}
            title={kind === "latency-cdf" ? `${label}: cumulative distribution` : `${label} distribution`}
          >
            <div className="relative h-[300px] w-full" data-still={key}>
              <div className="first-figure" dangerouslySetInnerHTML={{ __html: svg }} />
            </div>
          </Figure>
        );
      })}
    </div>
  );
}

function Figure({ title, children }: { title: string; children: ReactNode }) {
  return (
    <figure className="rounded-lg border border-border bg-card p-3">
      <figcaption className="mb-2 text-sm font-semibold">{title}</figcaption>
      {children}
    </figure>
  );
}

/** The Breakdown view's first chart, the segments, as the summary holds them. */
function SegmentsTable({ run }: { run: RunSummary }) {
  const t = run.timeBreakdown;
  if (!t || t.segments.length === 0) return null;
  return (
    <DataTable
      framed
      testId="preview-segments"
      before={<p className="px-3 pt-3 text-sm font-semibold">Time breakdown segments ({t.mode})</p>}
      rows={t.segments}
      rowKey={(s) => s.name}
      definition={TRTLLM_COMPLETED}
      columns={[
        { header: "segment", cell: (s) => s.label },
        { header: "requests", num: true, cell: (s) => formatCount(s.count) },
        { header: "mean", num: true, cell: (s) => formatMs(s.meanMs) },
        { header: "p50", num: true, cell: (s) => formatMs(s.p50Ms) },
        { header: "p90", num: true, cell: (s) => formatMs(s.p90Ms) },
        { header: "p99", num: true, cell: (s) => formatMs(s.p99Ms) },
      ]}
    />
  );
}

function EndpointsTable({ run }: { run: RunSummary }) {
  if (run.endpoints.length === 0) return null;
  return (
    <DataTable
      framed
      testId="preview-endpoints"
      rows={run.endpoints}
      rowKey={(e) => `${e.role}-${e.endpoint}`}
      columns={[
        { header: "endpoint", className: "font-mono text-xs", cell: (e) => e.endpoint },
        { header: "role", cell: (e) => e.role },
      ]}
    />
  );
}

function FilesTable({ run }: { run: RunSummary }) {
  return (
    <DataTable
      framed
      testId="preview-files"
      rows={run.files}
      rowKey={(f) => f.id}
      columns={[
        { header: "file", className: "font-mono text-xs break-all", cell: (f) => f.name },
        { header: "read as", cell: (f) => f.kind },
        { header: "records", num: true, cell: (f) => formatCount(f.records) },
        { header: "size", num: true, cell: (f) => formatBytes(f.bytes) },
      ]}
    />
  );
}
