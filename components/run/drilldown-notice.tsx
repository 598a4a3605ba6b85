/**
 * Stands in for a drill-down (request lists, waterfalls, the request timeline, slowest requests)
 * while the run's drill-down is being built (`drilldownBuilding`, lib/api/drilldown.ts), saying what is ready already. The run query asks
 * again until it is (lib/api/query-options.ts), and the view then draws the drill-down whole.
 */
export function DrilldownNotice({ what }: { what: string }) {
  return (
    <div
      role="status"
      data-drilldown-building
      className="rounded-lg border border-dashed border-border p-4 text-sm"
    >
      <p className="font-medium">Drill-down is still being built…</p>
      <p className="text-muted">
        The summary, statistics and charts of this run are stored and final. {what} appear here as soon as the
        per-request drill-down is ready; this page checks every second.
      </p>
    </div>
  );
}
