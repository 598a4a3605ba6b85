import { AIPERF_SUCCESSFUL, type FigureDefinition } from "@/components/charts/definitions";
import type { RequestsBlock } from "@/lib/api/schemas";
import { formatCount } from "@/lib/format-number";

/** "10 of 64 requests", when the records uploaded are a sample of what aiperf summarised. */
export function sampleText(r: RequestsBlock | null | undefined): string | null {
  const s = r?.recordsSample;
  return s ? `${formatCount(s.records)} of ${formatCount(s.described)} requests` : null;
}

/** The definition of a chart drawn from aiperf's records: says when they are a sample of the run. */
export function recordsDefinition(r: RequestsBlock | null | undefined): FigureDefinition {
  const s = sampleText(r);
  return s
    ? {
        ...AIPERF_SUCCESSFUL,
        requests: `${s}: the records uploaded are a sample of the run aiperf summarised (successful profiling requests of the sample)`,
      }
    : AIPERF_SUCCESSFUL;
}

/** One line above charts drawn from a sample of the run's records. */
export function RecordsSampleLine({ requests }: { requests: RequestsBlock | null | undefined }) {
  const s = sampleText(requests);
  if (!s) return null;
  return (
    <p className="rounded border border-warn/50 px-3 py-2 text-sm" data-testid="records-sample-line">
      The charts here are drawn from {s}: the records uploaded are a sample of the run aiperf summarised. The
      run&apos;s figures (Overview, statistics table) are aiperf&apos;s own, of every request.
    </p>
  );
}
