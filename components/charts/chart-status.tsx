import { RECOMPUTE_NEEDED } from "@/lib/api/chart-upgrade";
import { ApiError } from "@/lib/api/fetch-json";

/** What a chart slot shows while its payload loads, or when the run has none or must be re-ingested. */
export function ChartStatus({ loading, error, what }: { loading: boolean; error: unknown; what: string }) {
  if (loading) return <p className="p-4 text-sm text-muted">Loading {what}…</p>;
  if (error instanceof ApiError && error.code === RECOMPUTE_NEEDED)
    return (
      <p className="p-4 text-sm text-muted" data-testid="recompute-needed">
        {error.message}
      </p>
    );
  if (error) return <p className="p-4 text-sm text-muted">No {what} for this run.</p>;
  return null;
}
