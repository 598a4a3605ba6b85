"use client";

import type { RunViewProps } from "@/components/run/run-view-props";
import { properPlurals } from "@/lib/format-number";
import { GoodputPanel } from "./goodput-panel";
import { DerivedThroughputSection } from "./overview-derived";
import { headlineTiles } from "./headline-tiles";
import { OverviewLatencyChart } from "./overview-latency-chart";
import { TileGrid } from "./tile-grid";
import type { Tile } from "./overview-request-tiles";

export { serverTiles } from "./headline-tiles";

/** The headline numbers of every block the run has, its latency distribution, and its warnings. */
export function OverviewView({ run }: RunViewProps) {
  const tiles = headlineTiles(run);
  return (
    <div className="space-y-4">
      {tiles.length > 0 ? (
        <TileGrid tiles={tiles} testId="overview-tiles" marked />
      ) : (
        <p className="text-sm text-muted">
          This run has no charted data yet: see the Files view for what was uploaded and how each file was
          read.
        </p>
      )}
      <TileDefinitions tiles={tiles} />
      <OverviewLatencyChart run={run} />
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
