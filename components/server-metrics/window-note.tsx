import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";
import { formatNumber } from "@/lib/format-number";

/** Says which window the counter deltas and rates of the table cover (one line per distinct window). */
export function WindowNote({ rows }: { rows: readonly SmEndpointDetail[] }) {
  const windows = new Map<string, number | null>();
  for (const r of rows) if (r.windowSource) windows.set(r.windowSource, r.windowS);
  if (windows.size === 0) return null;
  return (
    <div className="text-xs text-muted" data-testid="sm-window-note">
      {[...windows].map(([source, s]) => (
        <p key={source}>
          Counters and rates are over {s === null ? "a window of unknown length" : `${formatNumber(s, 3)} s`}:{" "}
          {source}.
        </p>
      ))}
    </div>
  );
}
