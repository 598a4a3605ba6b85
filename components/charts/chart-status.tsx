/** What a chart slot shows while its payload loads, or when the run has none. */
export function ChartStatus({ loading, error, what }: { loading: boolean; error: unknown; what: string }) {
  if (loading) return <p className="p-4 text-sm text-muted">Loading {what}…</p>;
  if (error) return <p className="p-4 text-sm text-muted">No {what} for this run.</p>;
  return null;
}
