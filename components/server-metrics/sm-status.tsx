/** What a server-metrics chart slot shows while its payload loads or when there is none. */
export function SmStatus({ loading, error, what }: { loading: boolean; error: unknown; what: string }) {
  if (loading) return <p className="p-4 text-sm text-muted">Loading {what}…</p>;
  if (error) return <p className="p-4 text-sm text-muted">No {what} for this run.</p>;
  return null;
}
