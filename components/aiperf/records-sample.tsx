import type { RequestsBlock } from "@/lib/api/schemas";
import { recordsSampleNote } from "@/lib/metrics/figures/request-definitions";

// The definition and sample words live with the figure descriptions, which the report reads too.
export { recordsDefinition, sampleText } from "@/lib/metrics/figures/request-definitions";

/** One line above charts drawn from a sample of the run's records. */
export function RecordsSampleLine({ requests }: { requests: RequestsBlock | null | undefined }) {
  const note = recordsSampleNote(requests);
  if (!note) return null;
  return (
    <p className="rounded border border-warn/50 px-3 py-2 text-sm" data-testid="records-sample-line">
      {note}
    </p>
  );
}
