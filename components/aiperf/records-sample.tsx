import type { RequestsBlock } from "@/lib/api/schemas";
import { sampleText } from "@/lib/metrics/figures/request-definitions";

// The definition and sample words live with the figure descriptions, which the report reads too.
export { recordsDefinition, sampleText } from "@/lib/metrics/figures/request-definitions";

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
