import type { agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { formatCount } from "@/lib/format-number";
import type { z } from "zod";

type Agreement = z.infer<typeof agreementPayloadSchema>;

/**
 * The records hold fewer requests than aiperf's summary counts: a sample, so their statistics are
 * not held against the summary's. A calm line, not a disagreement: every statistic of a sample
 * differs from the whole. The statistics table above is already aiperf's summary of every request;
 * a second copy of it here, "marked summary", put the same figures on the page twice.
 */
export function RecordsSampleNote({ data }: { data: Agreement }) {
  const sample = data.sample!;
  return (
    <p className="text-xs text-muted" role="note" data-testid="aiperf-sample">
      Records are a sample of {formatCount(sample.records)} of {formatCount(sample.described)} requests, so
      their statistics are not checked against aiperf&apos;s summary: the table above is that summary, of all{" "}
      {formatCount(sample.described)}.
    </p>
  );
}
